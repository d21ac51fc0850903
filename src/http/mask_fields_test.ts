import assert from "node:assert/strict";
import { isSecretField, maskFields, maskObjectFields, maskUrl } from "./mask_fields.ts";

Deno.test("isSecretField() knows tokens and secrets but not cursors or codes", () => {
  for (const key of ["app_secret", "client_secret", "access_token", "refresh_token"]) {
    assert.ok(isSecretField(key), key);
  }
  for (const key of ["tenant_access_token", "Authorization", "password", "device_code"]) {
    assert.ok(isSecretField(key), key);
  }
  for (const key of ["page_token", "next_page_token", "code", "msg", "app_id", "uuid"]) {
    assert.ok(!isSecretField(key), key);
  }
});

Deno.test("maskFields() masks secret values deep inside objects and lists", () => {
  const input = {
    code: 0,
    data: { items: [{ refresh_token: "r-0123456789abcdef", name: "Ann" }], page_token: "p1" },
  };
  assert.deepEqual(maskFields(input), {
    code: 0,
    data: { items: [{ refresh_token: "****", name: "Ann" }], page_token: "p1" },
  });
  assert.equal(input.data.items[0].refresh_token, "r-0123456789abcdef");
  assert.equal(maskFields("plain"), "plain");
  assert.equal(maskFields(null), null);
});

Deno.test("maskUrl() masks secret query parameters", () => {
  const url = new URL("https://x.test/p?access_token=abcdefghijklmnopqrstu&q=ann");
  assert.equal(maskUrl(url), "https://x.test/p?access_token=abcd%E2%80%A6&q=ann");
  const short = new URL("https://x.test/p?access_token=abcdefghijklmnop");
  assert.equal(maskUrl(short), "https://x.test/p?access_token=****");
});

Deno.test("maskObjectFields() masks an object's secret fields into a copy", () => {
  const form = { app_secret: "s3cr3t-value-long-enough", file_name: "a.png" };
  assert.deepEqual(maskObjectFields(form), { app_secret: "s3cr…", file_name: "a.png" });
  assert.equal(form.app_secret, "s3cr3t-value-long-enough");
});

Deno.test("maskUrl() keeps one masked value of a repeated secret parameter", () => {
  const url = new URL("https://x.test/p?token=abcdefghijklmnopqrstu&token=zz&q=1");
  assert.equal(maskUrl(url), "https://x.test/p?token=abcd%E2%80%A6&q=1");
});
