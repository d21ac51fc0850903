import assert from "node:assert/strict";
import { readStoredAppSecret, storedAppSecretText } from "./stored_secret.ts";

Deno.test("an app secret is stored with its origin and read back", () => {
  const text = storedAppSecretText('s3cret "quoted" {brace}', "https://open.feishu.cn");
  assert.deepEqual(readStoredAppSecret(text), {
    secret: 's3cret "quoted" {brace}',
    origin: "https://open.feishu.cn",
  });
});

Deno.test("an entry written before origins were recorded is read as the bare secret", () => {
  for (
    const text of ["plain-secret", "{not json", '{"app_secret":"x"}', '{"origin":"https://x"}']
  ) {
    assert.deepEqual(readStoredAppSecret(text), { secret: text }, text);
  }
});
