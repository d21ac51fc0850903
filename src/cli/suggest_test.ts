import assert from "node:assert/strict";
import { editDistance, suggest } from "./suggest.ts";

const FLAGS = ["--format", "--from", "--profile", "--json"];

Deno.test("editDistance() counts a swap of two neighbours as one edit", () => {
  assert.equal(editDistance("fromat", "format"), 1);
  assert.equal(editDistance("form", "format"), 2);
  assert.equal(editDistance("", "json"), 4);
});

Deno.test("suggest() names the closest spelling within a third of the word, or one it starts", () => {
  assert.equal(suggest("--fromat", FLAGS), "--format");
  assert.equal(suggest("--form", FLAGS), "--format");
  assert.equal(suggest("--profle", FLAGS), "--profile");
  assert.equal(suggest("--xyz", FLAGS), undefined);
  assert.equal(suggest("--", FLAGS), undefined);
});

Deno.test("suggest() answers a 100 000-character word at once, skipping what differs too much in length", () => {
  // Forty flags: about 2 s of distance tables without the length check, a millisecond with it.
  const flags = Array.from({ length: 40 }, (_, i) => `--flag-number-${i}`);
  const started = performance.now();
  assert.equal(suggest(`--${"x".repeat(100_000)}`, flags), undefined);
  assert.ok(performance.now() - started < 500, "no quadratic distance for a hopeless length");
});

Deno.test("suggest() takes an unknown short flag for the long flag it starts, not a near one", () => {
  const flags = ["--summary", "--start", "--end", "--help", "--as", "--json"];
  assert.equal(suggest("-s", flags), "--summary");
  assert.equal(suggest("-st", flags), "--start");
  assert.equal(suggest("-e", flags), "--end");
  assert.equal(suggest("-a", ["--end", "--as"]), "--as");
  assert.equal(suggest("-s", ["--end", "--as"]), "--as");
});
