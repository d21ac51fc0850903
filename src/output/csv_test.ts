import assert from "node:assert/strict";
import { csvField, renderCsv } from "./csv.ts";

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
