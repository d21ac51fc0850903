import assert from "node:assert/strict";
import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { createTestContext } from "../testing/test_context.ts";
import { ValidationError } from "../errors/mod.ts";
import { addGlobalOptions, type GlobalOptions, outputOptions, readGlobals } from "./globals.ts";

/** Parses argv on a root with the global flags and a `sub leaf` command; returns the globals. */
function parse(argv: string[], env: Record<string, string> = {}): GlobalOptions {
  const ctx = createTestContext({ env });
  let globals: GlobalOptions | undefined;
  const root = addGlobalOptions(new Command("hark")).exitOverride();
  const sub = new Command("sub").exitOverride();
  sub.command("leaf").exitOverride().action((_flags, command) => {
    globals = readGlobals(ctx, command as unknown as CommandUnknownOpts);
  });
  root.addCommand(sub);
  root.parse(argv, { from: "user" });
  assert.ok(globals, "the action ran");
  return globals;
}

Deno.test("readGlobals() gives the defaults when no flag is given", () => {
  assert.deepEqual(parse(["sub", "leaf"]), {
    json: false,
    format: undefined,
    dryRun: false,
    color: true,
    profile: undefined,
    as: undefined,
    debug: false,
  });
});

Deno.test("readGlobals() reads every global flag before the command", () => {
  assert.deepEqual(
    parse([
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
    },
  );
});

Deno.test("readGlobals() reads global flags between and after the commands", () => {
  assert.deepEqual(
    parse(["sub", "--json", "leaf", "--no-color", "--as", "user", "--profile=p1", "--dry-run"]),
    {
      json: true,
      format: "json",
      dryRun: true,
      color: false,
      profile: "p1",
      as: "user",
      debug: false,
    },
  );
});

Deno.test("readGlobals(): --json means format json", () => {
  assert.equal(parse(["sub", "leaf", "--json"]).format, "json");
  assert.equal(parse(["--json", "--format", "json", "sub", "leaf"]).format, "json");
});

Deno.test("readGlobals() rejects --json with another --format", () => {
  assert.throws(() => parse(["--json", "sub", "leaf", "--format", "table"]), (error: unknown) => {
    assert.ok(error instanceof ValidationError);
    assert.equal(error.param, "--format");
    assert.equal(error.message, "Conflicting flags: --json and --format table");
    return true;
  });
});

Deno.test("readGlobals() turns debug on with HARK_DEBUG=1 or true", () => {
  assert.equal(parse(["sub", "leaf"], { HARK_DEBUG: "1" }).debug, true);
  assert.equal(parse(["sub", "leaf"], { HARK_DEBUG: "true" }).debug, true);
  assert.equal(parse(["sub", "leaf"], { HARK_DEBUG: "0" }).debug, false);
});

Deno.test("outputOptions() combines the flags with the config's preferences", () => {
  const globals = parse(["sub", "leaf", "--format", "csv", "--no-color"]);
  const preferences = { output_format: "json" as const, color: true };
  assert.deepEqual(outputOptions(globals, { preferences }), {
    format: "csv",
    color: false,
    preferences,
  });
  assert.deepEqual(outputOptions(parse(["sub", "leaf"]), {}), {
    format: undefined,
    color: true,
    preferences: undefined,
  });
});
