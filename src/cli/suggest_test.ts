import assert from "node:assert/strict";
import { suggest } from "./suggest.ts";

Deno.test("suggest() offers the close candidate, and nothing for a word far too long", () => {
  assert.equal(suggest("calender", ["calendar", "contact"]), "calendar");
  assert.equal(suggest("--fromat", ["--format", "--from"]), "--format");
  assert.equal(suggest("docz", ["docx", "docs", "drive"]), "docx");
  // A 100,000-character word is nobody's typo: no answer, and no quadratic comparison.
  assert.equal(suggest("c".repeat(100_000), ["calendar"]), undefined);
  assert.equal(suggest("", ["calendar"]), undefined);
});
