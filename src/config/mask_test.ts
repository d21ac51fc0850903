import assert from "node:assert/strict";
import { maskSecret, maskSecretsIn } from "./mask.ts";

Deno.test("maskSecret() shows four characters and the length of a long secret", () => {
  assert.equal(maskSecret("u-abcdefghijkl"), "u-ab…(14 chars)");
  assert.ok(!maskSecret("sandbox-secret-value").includes("secret-value"));
});

Deno.test("maskSecret() hides a short secret whole", () => {
  assert.equal(maskSecret("short"), "****");
  assert.equal(maskSecret("elevenchars"), "****");
  assert.equal(maskSecret(""), "****");
});

Deno.test("maskSecretsIn() replaces every occurrence of every secret", () => {
  const text = "token=t-0123456789abcdef and again t-0123456789abcdef, pw=hunter2";
  const masked = maskSecretsIn(text, ["t-0123456789abcdef", "hunter2", ""]);
  assert.equal(masked, "token=t-01…(18 chars) and again t-01…(18 chars), pw=****");
});

Deno.test("maskSecretsIn() leaves secrets shorter than four characters alone", () => {
  assert.equal(maskSecretsIn("a b c", ["b"]), "a b c");
});
