import assert from "node:assert/strict";
import { join } from "node:path";
import { ValidationError } from "../errors/mod.ts";
import { createTestContext } from "../testing/test_context.ts";
import type { ParamSpec } from "./definition.ts";
import {
  envVarOf,
  formatLocalDateTime,
  formatRfc3339,
  paramHelp,
  parseDateTime,
  parseParamValue,
} from "./params.ts";

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

Deno.test("parseDateTime() accepts RFC 3339 with any offset", () => {
  const now = 0;
  assert.equal(parseDateTime("2026-11-21T09:00:00Z", { now }), Date.UTC(2026, 10, 21, 9));
  assert.equal(parseDateTime("2026-11-21T09:00:00+08:00", { now }), Date.UTC(2026, 10, 21, 1));
  assert.equal(
    parseDateTime("2026-11-21T09:00:00.5-01:30", { now }),
    Date.UTC(2026, 10, 21, 10, 30, 0, 500),
  );
});

Deno.test("parseDateTime() reads dates and date-times in local time", () => {
  const now = 0;
  assert.equal(parseDateTime("2026-11-21", { now }), new Date(2026, 10, 21).getTime());
  assert.equal(
    parseDateTime("2026-11-21", { now, dayEdge: "end" }),
    new Date(2026, 10, 21, 23, 59, 59).getTime(),
  );
  assert.equal(parseDateTime("2026-11-21 14:05", { now }), new Date(2026, 10, 21, 14, 5).getTime());
  assert.equal(
    parseDateTime("2026-11-21T14:05:09", { now, dayEdge: "end" }),
    new Date(2026, 10, 21, 14, 5, 9).getTime(),
  );
});

Deno.test("parseDateTime() reads Unix seconds and the words now and today", () => {
  const now = new Date(2026, 10, 21, 9, 30).getTime();
  assert.equal(parseDateTime("1795251600", { now }), 1795251600_000);
  assert.equal(parseDateTime("now", { now }), now);
  assert.equal(parseDateTime("today", { now }), new Date(2026, 10, 21).getTime());
  assert.equal(
    parseDateTime("today", { now, dayEdge: "end" }),
    new Date(2026, 10, 21, 23, 59, 59).getTime(),
  );
});

Deno.test("parseDateTime() rejects impossible or unknown forms", () => {
  for (
    const bad of [
      "2026-13-01",
      "2026-02-30",
      "2026-11-21 25:00",
      "2026-11-21T10:61:00Z",
      "21/11/2026",
      "tomorrow",
      "",
      "2026-11-21T09:00:00+0800",
    ]
  ) {
    assert.equal(parseDateTime(bad, { now: 0 }), undefined, bad);
  }
});

Deno.test("parseParamValue() turns a bad datetime into a ValidationError listing the forms", async () => {
  await rejects(parseParamValue(ctx, spec("datetime"), "next week"), /RFC 3339.*YYYY-MM-DD/);
  assert.equal(
    await parseParamValue(ctx, spec("datetime", { dayEdge: "end" }), "2026-11-21"),
    new Date(2026, 10, 21, 23, 59, 59).getTime(),
  );
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

Deno.test("formatRfc3339() and formatLocalDateTime() format times", () => {
  assert.equal(formatRfc3339(Date.UTC(2026, 0, 2, 3, 4, 5, 600)), "2026-01-02T03:04:05Z");
  assert.equal(formatLocalDateTime(new Date(2026, 0, 2, 3, 4).getTime()), "2026-01-02 03:04");
});
