import assert from "node:assert/strict";
import {
  hasControlOrFormat,
  hasSpaceControlOrFormat,
  hasSpaceOrControl,
  hasUnprintable,
  RANGES,
} from "./text_classes.ts";

/** The code points, surrogates left out, where two tests disagree. */
function differences(a: (s: string) => boolean, b: (s: string) => boolean): string[] {
  const found: string[] = [];
  for (let code = 0; code <= 0x10ffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const s = String.fromCodePoint(code);
    if (a(s) !== b(s)) found.push(`U+${code.toString(16).toUpperCase().padStart(4, "0")}`);
  }
  return found;
}

Deno.test("each written-out range is exactly the Unicode property it spells", () => {
  for (const [names, range] of Object.entries(RANGES)) {
    const property = new RegExp(`[${names.split(",").map((n) => `\\p{${n}}`).join("")}]`, "u");
    const written = new RegExp(`[${range}]`, "u");
    assert.deepEqual(differences((s) => written.test(s), (s) => property.test(s)), [], names);
  }
});

Deno.test("the classes are the property classes they replace", () => {
  const pairs: [(text: string) => boolean, RegExp][] = [
    [hasSpaceControlOrFormat, /[\s\p{Cc}\p{Cf}]/u],
    [hasSpaceOrControl, /[\s\p{Cc}]/u],
    [hasControlOrFormat, /[\p{Cc}\p{Cf}]/u],
    [hasUnprintable, /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u],
  ];
  for (const [mine, property] of pairs) {
    assert.deepEqual(differences(mine, (s) => property.test(s)), [], property.source);
  }
  assert.ok(hasSpaceControlOrFormat("ou_1\u202e"), "a bidi override in an id");
  assert.ok(!hasSpaceControlOrFormat("ou_1a2b"));
});
