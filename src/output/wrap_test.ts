import assert from "node:assert/strict";
import { wrapText } from "./wrap.ts";

Deno.test("wrapText() breaks between words at the width", () => {
  assert.deepEqual(wrapText("the quick brown fox", 10), ["the quick", "brown fox"]);
  assert.deepEqual(wrapText("", 10), [""]);
});

Deno.test("wrapText() measures wide characters and never splits an emoji", () => {
  assert.deepEqual(wrapText("日程安排日程安排", 7), ["日程安", "排日程", "安排"]);
  assert.deepEqual(wrapText("👨‍👩‍👧👨‍👩‍👧", 3), ["👨‍👩‍👧", "👨‍👩‍👧"]);
});

Deno.test("wrapText() leaves an over-long word whole when told not to break words", () => {
  const id = `om_${"a".repeat(20)}`;
  assert.deepEqual(wrapText(`see ${id} now`, 10, { breakWords: false }), ["see", id, "now"]);
  assert.deepEqual(wrapText("x".repeat(12), 5), ["xxxxx", "xxxxx", "xx"]);
});
