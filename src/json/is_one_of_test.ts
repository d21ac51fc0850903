import assert from "node:assert/strict";
import { isOneOf } from "./is_one_of.ts";

const FORMATS = ["table", "json"] as const;

Deno.test("isOneOf() accepts exactly the list's elements", () => {
  assert.equal(isOneOf(FORMATS, "json"), true);
  assert.equal(isOneOf(FORMATS, "JSON"), false);
  assert.equal(isOneOf(FORMATS, undefined), false);
  assert.equal(isOneOf([1, 2], "1"), false);
});

Deno.test("isOneOf() narrows the value to the list's element type", () => {
  const raw: unknown = "table";
  if (!isOneOf(FORMATS, raw)) throw new Error("expected a format");
  const format: "table" | "json" = raw;
  assert.equal(format, "table");
});
