import assert from "node:assert/strict";
import { sanitizeCell, textWidth, truncateToWidth } from "./text_width.ts";

Deno.test("textWidth() counts wide characters as two and combining marks as zero", () => {
  assert.equal(textWidth("abc"), 3);
  assert.equal(textWidth("日程"), 4);
  assert.equal(textWidth("한국"), 4);
  assert.equal(textWidth("🎉"), 2);
  assert.equal(textWidth("e\u0301"), 1);
  assert.equal(textWidth(""), 0);
});

Deno.test("truncateToWidth() cuts to the width, ending with …", () => {
  assert.equal(truncateToWidth("hello", 10), "hello");
  assert.equal(truncateToWidth("hello", 5), "hello");
  assert.equal(truncateToWidth("hello world", 6), "hello…");
  assert.equal(textWidth(truncateToWidth("hello world", 6)), 6);
  assert.equal(truncateToWidth("日程安排", 5), "日程…");
  assert.ok(textWidth(truncateToWidth("日程安排", 4)) <= 4);
});

Deno.test("sanitizeCell() puts values on one line and escapes control characters", () => {
  assert.equal(sanitizeCell("a\nb\r\nc\td"), "a b c d");
  assert.equal(sanitizeCell("red\x1b[31m"), "red\\x1b[31m");
  assert.equal(sanitizeCell("bell\x07 del\x7f c1\x9b"), "bell\\x07 del\\x7f c1\\x9b");
  assert.equal(sanitizeCell("日程 ok"), "日程 ok");
});
