import assert from "node:assert/strict";
import { renderTable } from "./table.ts";
import { textWidth } from "./text_width.ts";

Deno.test("renderTable() aligns columns under their headers", () => {
  const text = renderTable(["NAME", "ID"], [["Ada Lovelace", "ou_1"], ["Bob", "ou_22"]]);
  assert.equal(
    text,
    "NAME          ID\n" +
      "Ada Lovelace  ou_1\n" +
      "Bob           ou_22\n",
  );
});

Deno.test("renderTable() aligns wide characters by display width", () => {
  const text = renderTable(["A", "B"], [["日程", "x"], ["ab", "y"]]);
  const lines = text.trimEnd().split("\n");
  assert.deepEqual(lines.map((l) => textWidth(l.slice(0, l.length - 1))), [6, 6, 6]);
});

Deno.test("renderTable() shrinks the widest column to fit maxWidth", () => {
  const long = "x".repeat(100);
  const text = renderTable(["ID", "SUMMARY"], [["ev_1", long]], { maxWidth: 40 });
  for (const line of text.trimEnd().split("\n")) {
    assert.ok(textWidth(line) <= 40, `${textWidth(line)}: ${line}`);
  }
  assert.match(text, /ev_1 {2}x+…\n$/);
});

Deno.test("renderTable() without maxWidth never truncates", () => {
  const long = "y".repeat(300);
  assert.ok(renderTable(["A"], [[long]]).includes(long));
});

Deno.test("renderTable() sanitises cells and styles the header only", () => {
  const text = renderTable(["NAME"], [["evil\x1b[2J\nname"]], { header: (s) => `<${s}>` });
  assert.equal(text, "<NAME>\nevil\\x1b[2J name\n");
});

Deno.test("renderTable() fills missing cells and trims trailing spaces", () => {
  const text = renderTable(["A", "B", "C"], [["1"], ["22", "x", ""]]);
  assert.equal(text, "A   B  C\n1\n22  x\n");
});
