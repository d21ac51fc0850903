import assert from "node:assert/strict";
import { csvCell, csvField, renderCsv } from "./csv.ts";

Deno.test("csvField() leaves plain fields alone", () => {
  assert.equal(csvField("plain text"), "plain text");
  assert.equal(csvField(""), "");
});

Deno.test("csvField() quotes commas, quotes, CR and LF, doubling quotes (RFC 4180)", () => {
  assert.equal(csvField("a,b"), '"a,b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField("line1\nline2"), '"line1\nline2"');
  assert.equal(csvField("a\rb"), '"a\rb"');
});

Deno.test("renderCsv() writes a header and rows, each ending with CRLF", () => {
  assert.equal(
    renderCsv(["NAME", "NOTE"], [["Ada", "x,y"], ["Bob", 'a "b"']]),
    'NAME,NOTE\r\nAda,"x,y"\r\nBob,"a ""b"""\r\n',
  );
  assert.equal(renderCsv(["A"], []), "A\r\n");
});

Deno.test("csvCell() prefixes cells a spreadsheet would run as a formula with '", () => {
  assert.equal(csvCell('=HYPERLINK("http://evil","x")'), '\'=HYPERLINK("http://evil","x")');
  assert.equal(csvCell("+1+cmd|' /C calc'!A0"), "'+1+cmd|' /C calc'!A0");
  assert.equal(csvCell("-2+3"), "'-2+3");
  assert.equal(csvCell("@SUM(A1:A9)"), "'@SUM(A1:A9)");
  assert.equal(csvCell("\t=1"), "'\t=1");
  assert.equal(csvCell("\r=1"), "\\x0d=1", "a lone CR is escaped, which defuses it too");
  assert.equal(csvCell("a=b"), "a=b", "only the first character counts");
  assert.equal(csvCell("Ada"), "Ada");
  assert.equal(csvCell(""), "");
});

Deno.test("csvCell() leaves formula cells alone with raw (--csv-raw)", () => {
  assert.equal(csvCell("=1+1", { raw: true }), "=1+1");
  assert.equal(csvCell("-5", { raw: true }), "-5");
});

Deno.test("csvCell() escapes ESC, C1 and bidi controls but keeps line breaks, raw or not", () => {
  const attack = "x\x1b]0;pwned\x07\x1b[2J\u202eab\x9b1m\nline 2\ttab";
  const expected = "x\\x1b]0;pwned\\x07\\x1b[2J\\u202eab\\x9b1m\nline 2\ttab";
  assert.equal(csvCell(attack), expected);
  assert.equal(csvCell(attack, { raw: true }), expected);
  assert.equal(csvCell("a\r\nb"), "a\nb");
});

Deno.test("renderCsv() applies both rules and then quotes", () => {
  assert.equal(
    renderCsv(["NAME", "NOTE"], [["=cmd()", "two\nlines"], ["\x1b[31mred", "-1"]]),
    "NAME,NOTE\r\n'=cmd(),\"two\nlines\"\r\n\\x1b[31mred,'-1\r\n",
  );
  assert.equal(renderCsv(["A"], [["=1"]], { raw: true }), "A\r\n=1\r\n");
});
