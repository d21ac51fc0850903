import assert from "node:assert/strict";
import { maskSecret } from "./mask.ts";

Deno.test("maskSecret() shows four characters and the length of a long secret", () => {
  assert.equal(maskSecret("u-abcdefghijkl"), "u-ab…(14 chars)");
  assert.ok(!maskSecret("sandbox-secret-value").includes("secret-value"));
});

Deno.test("maskSecret() hides a short secret whole", () => {
  assert.equal(maskSecret("short"), "****");
  assert.equal(maskSecret("elevenchars"), "****");
  assert.equal(maskSecret(""), "****");
});
