import assert from "node:assert/strict";
import { join } from "node:path";
import { ValidationError } from "../errors/mod.ts";
import { createTestContext } from "../../tests/support/test_context.ts";
import type { ParamSpec } from "./definition.ts";
import { envVarOf, paramHelp, parseParamValue } from "./params.ts";

const ctx = createTestContext({ now: Date.UTC(2026, 10, 21, 9, 30, 0) });
const spec = (type: ParamSpec["type"], extra: Partial<ParamSpec> = {}): ParamSpec => ({
  name: "value",
  type,
  description: "a value",
  ...extra,
});

async function rejects(promise: Promise<unknown>, pattern: RegExp) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ValidationError);
    assert.equal(error.param, "--value");
    assert.match(error.message, pattern);
    return true;
  });
}

Deno.test("parseParamValue() parses strings, ints and bools from text and JSON", async () => {
  assert.equal(await parseParamValue(ctx, spec("string"), "hi"), "hi");
  assert.equal(await parseParamValue(ctx, spec("string"), 42), "42");
  assert.equal(await parseParamValue(ctx, spec("int"), "42"), 42);
  assert.equal(await parseParamValue(ctx, spec("int"), -3), -3);
  assert.equal(await parseParamValue(ctx, spec("bool"), "true"), true);
  assert.equal(await parseParamValue(ctx, spec("bool"), "0"), false);
  assert.equal(await parseParamValue(ctx, spec("bool"), false), false);
});

Deno.test("parseParamValue() parses a number, whole or not, and names a bad one", async () => {
  assert.equal(await parseParamValue(ctx, spec("number"), "1.5"), 1.5);
  assert.equal(await parseParamValue(ctx, spec("number"), " -2e3 "), -2000);
  assert.equal(await parseParamValue(ctx, spec("number"), 7), 7);
  await rejects(
    parseParamValue(ctx, spec("number"), "1.5.2"),
    /Invalid value "1\.5\.2" for --value: expected a number/,
  );
  await rejects(parseParamValue(ctx, spec("number"), ""), /expected a number/);
  await rejects(parseParamValue(ctx, spec("number"), "Infinity"), /expected a number/);
});

Deno.test("parseParamValue() names the flag and the bad value", async () => {
  await rejects(parseParamValue(ctx, spec("int"), "4x"), /Invalid value "4x" for --value: .*whole/);
  await rejects(parseParamValue(ctx, spec("int"), 1.5), /1\.5/);
  await rejects(parseParamValue(ctx, spec("bool"), "maybe"), /"maybe".*true or false/);
  await rejects(parseParamValue(ctx, spec("string"), { a: 1 }), /expected text/);
  await rejects(
    parseParamValue(ctx, spec("int"), "x", "HARK_IM_VALUE"),
    /--value \(from HARK_IM_VALUE\)/,
  );
});

Deno.test("parseParamValue() checks an enum against its allowed set", async () => {
  const s = spec("enum", { allowed: ["daily", "weekly"] });
  assert.equal(await parseParamValue(ctx, s, "weekly"), "weekly");
  await rejects(parseParamValue(ctx, s, "yearly"), /one of "daily", "weekly"/);
});

Deno.test("parseParamValue() reads a file and rejects a missing or empty one", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "body.txt");
    await Deno.writeTextFile(path, "hello");
    assert.deepEqual(await parseParamValue(ctx, spec("file"), path), { path, text: "hello" });
    await rejects(parseParamValue(ctx, spec("file"), join(dir, "nope")), /Cannot read file/);
    await Deno.writeTextFile(path, "  \n");
    await rejects(parseParamValue(ctx, spec("file"), path), /is empty/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseParamValue() binds a datetime as typed, in the zone, or names the forms", async () => {
  await rejects(parseParamValue(ctx, spec("datetime"), "next week"), /RFC 3339/);
  assert.deepEqual(await parseParamValue(ctx, spec("datetime"), "2026-11-21"), {
    kind: "date",
    date: "2026-11-21",
    text: "2026-11-21",
    param: "--value",
  });
  const local = await parseParamValue(
    ctx,
    spec("datetime"),
    "2026-11-21 09:00",
    "--value",
    "Asia/Shanghai",
  );
  assert.equal((local as { epochMs: number }).epochMs, Date.UTC(2026, 10, 21, 1));
});

Deno.test("paramHelp() shows type, required, default and allowed values", () => {
  assert.equal(
    paramHelp({
      name: "period",
      type: "enum",
      description: "the period",
      default: "weekly",
      allowed: ["daily", "weekly"],
    }),
    "the period (enum; default: weekly; allowed: daily, weekly)",
  );
  assert.equal(
    paramHelp({ name: "id", type: "string", description: "the id", required: true }),
    "the id (string; required)",
  );
});

Deno.test("envVarOf() builds HARK_<SERVICE>_<PARAM>", () => {
  assert.equal(envVarOf("im", { name: "chat-id" }), "HARK_IM_CHAT_ID");
  assert.equal(envVarOf("contact", { name: "query" }), "HARK_CONTACT_QUERY");
});
