import assert from "node:assert/strict";
import { sanitizeCell, textWidth, truncateToWidth } from "./text_width.ts";

Deno.test("textWidth() counts ASCII one column each", () => {
  assert.equal(textWidth("abc"), 3);
  assert.equal(textWidth(""), 0);
});

Deno.test("textWidth() counts emoji two columns, whatever their code points", () => {
  assert.equal(textWidth("✅"), 2, "a BMP emoji with emoji presentation");
  assert.equal(textWidth("🎉"), 2);
  assert.equal(textWidth("👨‍👩‍👧"), 2, "a ZWJ family of three people");
  assert.equal(textWidth("🧑‍🤝‍🧑"), 2);
  assert.equal(textWidth("👩🏽‍💻"), 2, "skin tone inside a ZWJ sequence");
  assert.equal(textWidth("👍🏽"), 2, "skin tone modifier");
  assert.equal(textWidth("🇯🇵"), 2, "a flag of two regional indicators");
  assert.equal(textWidth("🏳️‍🌈"), 2);
  assert.equal(textWidth("1️⃣"), 2, "a keycap");
  assert.equal(textWidth("❤️"), 2, "text-default symbol with VS16");
  assert.equal(textWidth("❤"), 1, "the same symbol without VS16 is text");
  assert.equal(textWidth("✅ done 👨‍👩‍👧"), 2 + 6 + 2);
});

Deno.test("textWidth() counts CJK and fullwidth characters two columns, halfwidth one", () => {
  assert.equal(textWidth("日程"), 4);
  assert.equal(textWidth("한국"), 4);
  assert.equal(textWidth("カレンダー"), 10);
  assert.equal(textWidth("Ａ"), 2);
  assert.equal(textWidth("ｱ"), 1);
  assert.equal(textWidth("会议 Room 3"), 4 + 7);
});

Deno.test("textWidth() counts combining marks zero columns", () => {
  assert.equal(textWidth("e\u0301"), 1);
  assert.equal(textWidth("Cafe\u0301"), 4);
  assert.equal(textWidth("x\u0338\u0301"), 1);
});

Deno.test("truncateToWidth() leaves text that fits alone", () => {
  assert.equal(truncateToWidth("hello", 10), "hello");
  assert.equal(truncateToWidth("hello", 5), "hello");
  assert.equal(truncateToWidth("日程", 4), "日程");
});

Deno.test("truncateToWidth() cuts to the width, ending with …", () => {
  assert.equal(truncateToWidth("hello world", 6), "hello…");
  assert.equal(textWidth(truncateToWidth("hello world", 6)), 6);
  assert.equal(truncateToWidth("日程安排", 5), "日程…");
  assert.equal(truncateToWidth("日程安排", 4), "日…");
  assert.equal(truncateToWidth("abc", 0), "…", "at least one column");
});

Deno.test("truncateToWidth() never splits an emoji sequence", () => {
  const family = "👨‍👩‍👧";
  assert.equal(truncateToWidth(`${family}${family}${family}`, 5), `${family}${family}…`);
  assert.equal(truncateToWidth(`ab${family}cd`, 4), "ab…");
  assert.equal(truncateToWidth("✅✅✅", 4), "✅…");
  for (let max = 1; max <= 8; max++) {
    const cut = truncateToWidth(`a✅b${family}c🇯🇵d`, max);
    assert.ok(textWidth(cut) <= max, `${max}: ${cut}`);
    assert.ok(cut.isWellFormed(), `no lone surrogate at ${max}: ${JSON.stringify(cut)}`);
  }
});

Deno.test("sanitizeCell() puts values on one line and escapes control characters", () => {
  assert.equal(sanitizeCell("a\nb\r\nc\td"), "a b c d");
  assert.equal(sanitizeCell("red\x1b[31m"), "red\\x1b[31m");
  assert.equal(sanitizeCell("bell\x07 del\x7f c1\x9b"), "bell\\x07 del\\x7f c1\\x9b");
  assert.equal(sanitizeCell("日程 ok"), "日程 ok");
});

Deno.test("sanitizeCell() composes decomposed text so its width is measured right", () => {
  const decomposed = "한국".normalize("NFD");
  assert.notEqual(decomposed, "한국");
  assert.equal(sanitizeCell(decomposed), "한국");
  assert.equal(textWidth(sanitizeCell(decomposed)), 4);
  assert.equal(sanitizeCell("Cafe\u0301"), "Café");
});
