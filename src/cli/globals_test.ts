import assert from "node:assert/strict";
import { createTestContext } from "../../tests/support/test_context.ts";
import { ValidationError } from "../errors/mod.ts";
import type { CommandSpec } from "./command_spec.ts";
import type { GlobalOptions } from "../session/global_options.ts";
import { GLOBAL_FLAGS, readGlobals } from "./globals.ts";
import { parseArgv } from "./parse_argv.ts";

const ROOT: CommandSpec = {
  name: "hark",
  description: "root",
  flags: GLOBAL_FLAGS,
  commands: [{
    name: "sub",
    description: "a group",
    commands: [{ name: "leaf", description: "a leaf", run: () => Promise.resolve() }],
  }],
};

/** Parses argv on a root with the global flags and a `sub leaf` command; returns the globals. */
async function parse(argv: string[], env: Record<string, string> = {}): Promise<GlobalOptions> {
  const ctx = createTestContext({ env });
  const parsed = await parseArgv(ROOT, argv);
  assert.deepEqual(parsed.chain.map((c) => c.name), ["hark", "sub", "leaf"]);
  return readGlobals(ctx, parsed.globals);
}

Deno.test("readGlobals() gives the defaults when no flag is given", async () => {
  assert.deepEqual(await parse(["sub", "leaf"]), {
    json: false,
    format: undefined,
    dryRun: false,
    color: true,
    profile: undefined,
    as: undefined,
    debug: false,
    csvRaw: false,
    allowInsecureHttp: false,
    jq: undefined,
    fields: undefined,
  });
});

Deno.test("readGlobals() reads every global flag before the command", async () => {
  assert.deepEqual(
    await parse([
      "--format",
      "csv",
      "--dry-run",
      "--no-color",
      "--profile",
      "work",
      "--as",
      "bot",
      "--debug",
      "sub",
      "leaf",
    ]),
    {
      json: false,
      format: "csv",
      dryRun: true,
      color: false,
      profile: "work",
      as: "bot",
      debug: true,
      csvRaw: false,
      allowInsecureHttp: false,
      jq: undefined,
      fields: undefined,
    },
  );
});

Deno.test("readGlobals() reads global flags between and after the commands", async () => {
  assert.deepEqual(
    await parse([
      "sub",
      "--json",
      "leaf",
      "--no-color",
      "--as",
      "user",
      "--profile=p1",
      "--dry-run",
    ]),
    {
      json: true,
      format: "json",
      dryRun: true,
      color: false,
      profile: "p1",
      as: "user",
      debug: false,
      csvRaw: false,
      allowInsecureHttp: false,
      jq: undefined,
      fields: undefined,
    },
  );
});

Deno.test("readGlobals(): --json means format json", async () => {
  assert.equal((await parse(["sub", "leaf", "--json"])).format, "json");
  assert.equal((await parse(["--json", "--format", "json", "sub", "leaf"])).format, "json");
});

Deno.test("readGlobals() rejects --json with another --format", async () => {
  await assert.rejects(parse(["--json", "sub", "leaf", "--format", "table"]), (error: unknown) => {
    assert.ok(error instanceof ValidationError);
    assert.equal(error.param, "--format");
    assert.equal(error.message, "Conflicting flags: --json and --format table");
    return true;
  });
});

Deno.test("readGlobals(): --jq implies JSON, and conflicts with another --format", async () => {
  const jq = await parse(["sub", "leaf", "--jq", ".[].id"]);
  assert.equal(jq.jq, ".[].id");
  assert.equal(jq.json, true);
  assert.equal(jq.format, "json");
  await assert.rejects(parse(["--jq", ".", "sub", "leaf", "--format", "csv"]), (error: unknown) => {
    assert.ok(error instanceof ValidationError);
    assert.equal(error.message, "Conflicting flags: --jq and --format csv");
    return true;
  });
});

Deno.test("readGlobals() reads --fields as a list of names", async () => {
  assert.deepEqual((await parse(["sub", "leaf", "--fields", "id, name"])).fields, ["id", "name"]);
  await assert.rejects(parse(["sub", "leaf", "--fields", ","]), ValidationError);
});

Deno.test("readGlobals() turns debug on with HARK_DEBUG=1 or true", async () => {
  assert.equal((await parse(["sub", "leaf"], { HARK_DEBUG: "1" })).debug, true);
  assert.equal((await parse(["sub", "leaf"], { HARK_DEBUG: "true" })).debug, true);
  assert.equal((await parse(["sub", "leaf"], { HARK_DEBUG: "0" })).debug, false);
});
