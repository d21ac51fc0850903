import assert from "node:assert/strict";
import { maskSecret } from "./mask.ts";

Deno.test("maskSecret() shows four characters of a long secret, and never its length", () => {
  assert.equal(maskSecret("u-abcdefghijklmnopqrstuv"), "u-ab…");
  assert.equal(maskSecret("x".repeat(20)), "xxxx…");
  assert.ok(!maskSecret("sandbox-secret-value-long").includes("secret-value"));
  assert.ok(!/\d/.test(maskSecret("t-" + "a".repeat(100))), "no length");
});

Deno.test("maskSecret() hides a secret shorter than 20 characters whole", () => {
  assert.equal(maskSecret("u-abcdefghijkl"), "****", "14 characters: nothing shown");
  assert.equal(maskSecret("x".repeat(19)), "****");
  assert.equal(maskSecret("short"), "****");
  assert.equal(maskSecret(""), "****");
});
