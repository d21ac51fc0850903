import assert from "node:assert/strict";
import { terminalSafe } from "./terminal_safe.ts";

/** The attack of issue 12: retitle the terminal, clear the screen, paint a fake red banner. */
const ATTACK = "Denied\x1b]0;pwned\x07\x1b[2J\x1b[41;97m  ACCESS GRANTED  \x1b[0m";

Deno.test("terminalSafe() escapes the terminal-title, clear-screen and colour attack", () => {
  const safe = terminalSafe(ATTACK);
  assert.equal(
    safe,
    "Denied\\x1b]0;pwned\\x07\\x1b[2J\\x1b[41;97m  ACCESS GRANTED  \\x1b[0m",
  );
  // deno-lint-ignore no-control-regex
  assert.ok(!/[\x00-\x1f\x7f-\x9f]/.test(safe));
});

Deno.test("terminalSafe() escapes every C0 control except line feed and tab", () => {
  for (let code = 0; code < 0x20; code++) {
    const char = String.fromCharCode(code);
    const expected = char === "\n" || char === "\t"
      ? char
      : `\\x${code.toString(16).padStart(2, "0")}`;
    assert.equal(terminalSafe(`a${char}b`), `a${expected}b`, `U+${code.toString(16)}`);
  }
});

Deno.test("terminalSafe() escapes DEL and every C1 control", () => {
  assert.equal(terminalSafe("\x7f"), "\\x7f");
  for (let code = 0x80; code <= 0x9f; code++) {
    assert.equal(terminalSafe(String.fromCharCode(code)), `\\x${code.toString(16)}`);
  }
  assert.equal(terminalSafe("\x9b31mred"), "\\x9b31mred", "8-bit CSI");
});

Deno.test("terminalSafe() escapes every bidi control", () => {
  const bidi = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];
  for (const code of [...bidi, 0x200e, 0x200f, 0x061c]) {
    const char = String.fromCodePoint(code);
    assert.equal(terminalSafe(`a${char}b`), `a\\u${code.toString(16).padStart(4, "0")}b`);
  }
  // "Trojan source": the name reads "admin" reversed unless the override is shown.
  assert.equal(terminalSafe("\u202enimda"), "\\u202enimda");
});

Deno.test("terminalSafe() escapes invisible format characters and line separators", () => {
  const cases: [number, string][] = [
    [0x200b, "zero width space"],
    [0x2060, "word joiner"],
    [0x2061, "function application"],
    [0x2064, "invisible plus"],
    [0x206a, "inhibit symmetric swapping"],
    [0x206f, "nominal digit shapes"],
    [0xfeff, "byte order mark"],
    [0x180e, "Mongolian vowel separator"],
    [0xfff9, "interlinear annotation anchor"],
    [0xfffb, "interlinear annotation terminator"],
    [0x2028, "line separator"],
    [0x2029, "paragraph separator"],
  ];
  for (const [code, name] of cases) {
    const escaped = `\\u${code.toString(16).padStart(4, "0")}`;
    assert.equal(terminalSafe(`a${String.fromCodePoint(code)}b`), `a${escaped}b`, name);
  }
});

Deno.test("terminalSafe() leaves printable text, emoji joiners and marks alone", () => {
  const text = "Ada 日程 👨‍👩‍👧 ❤️ e\u0301 می\u200cخواهم \\x1b";
  assert.equal(terminalSafe(text), text);
});

Deno.test("terminalSafe() keeps line breaks by default, folding CRLF and escaping a lone CR", () => {
  assert.equal(terminalSafe("a\nb\tc"), "a\nb\tc");
  assert.equal(terminalSafe("a\r\nb"), "a\nb");
  assert.equal(terminalSafe("fake\rreal"), "fake\\x0dreal");
});

Deno.test("terminalSafe() turns line breaks into one space with breaks: space", () => {
  assert.equal(terminalSafe("a\nb\r\n\tc\rd", { breaks: "space" }), "a b c d");
  assert.equal(terminalSafe("Ada\n\x1b[2J", { breaks: "space" }), "Ada \\x1b[2J");
});

Deno.test("terminalSafe() escapes line breaks too with breaks: escape", () => {
  assert.equal(
    terminalSafe("hark x\nrm -rf ~\r\t", { breaks: "escape" }),
    "hark x\\x0arm -rf ~\\x0d\\x09",
  );
});
