import assert from "node:assert/strict";
import { createTestContext } from "../testing/test_context.ts";
import { MemoryKeychain } from "../keychain/memory_keychain.ts";
import { KeychainError } from "../keychain/keychain.ts";
import { ValidationError } from "../errors/mod.ts";
import { isSecretReference, parseSecretInput, resolveSecretInput } from "./secret_input.ts";

Deno.test("parseSecretInput() recognises the four forms", () => {
  assert.deepEqual(parseSecretInput("@keychain:hark/default/app_secret"), {
    kind: "keychain",
    path: "hark/default/app_secret",
  });
  assert.deepEqual(parseSecretInput("@env:APP_SECRET"), { kind: "env", name: "APP_SECRET" });
  assert.deepEqual(parseSecretInput("@plain:dev-secret"), { kind: "plain", text: "dev-secret" });
  assert.deepEqual(parseSecretInput("just-a-secret"), { kind: "bare", text: "just-a-secret" });
  assert.deepEqual(parseSecretInput("@other:x"), { kind: "bare", text: "@other:x" });
});

Deno.test("isSecretReference() is true only for @keychain: and @env:", () => {
  assert.equal(isSecretReference("@keychain:hark/a"), true);
  assert.equal(isSecretReference("@env:A"), true);
  assert.equal(isSecretReference("@plain:a"), false);
  assert.equal(isSecretReference("a"), false);
});

Deno.test("resolveSecretInput() reads @keychain: through the keychain", async () => {
  const keychain = new MemoryKeychain({ "hark/default/app_secret": "from-keychain" });
  const ctx = createTestContext({ keychain });
  assert.equal(
    await resolveSecretInput(ctx, "@keychain:hark/default/app_secret", "apps.default.app_secret"),
    "from-keychain",
  );
});

Deno.test("resolveSecretInput() fails naming the path when the keychain entry is missing", async () => {
  const ctx = createTestContext();
  await assert.rejects(
    resolveSecretInput(ctx, "@keychain:hark/work/app_secret", "apps.work.app_secret"),
    (error: unknown) => {
      assert.ok(error instanceof KeychainError);
      assert.equal(error.backend, "memory");
      assert.match(error.message, /"hark\/work\/app_secret"/);
      assert.match(error.message, /apps\.work\.app_secret/);
      assert.equal(error.recovery.command, "hark config init");
      return true;
    },
  );
});

Deno.test("resolveSecretInput() reads @env: from the environment", async () => {
  const ctx = createTestContext({ env: { MY_SECRET: "from-env" } });
  assert.equal(await resolveSecretInput(ctx, "@env:MY_SECRET", "secret"), "from-env");
});

Deno.test("resolveSecretInput() fails naming an unset or empty variable", async () => {
  for (const env of [{}, { MY_SECRET: "" }] as Record<string, string>[]) {
    const ctx = createTestContext({ env });
    await assert.rejects(
      resolveSecretInput(ctx, "@env:MY_SECRET", "apps.default.app_secret"),
      (error: unknown) => {
        assert.ok(error instanceof ValidationError);
        assert.equal(error.code, 2);
        assert.equal(error.param, "apps.default.app_secret");
        assert.match(error.message, /"MY_SECRET" is not set/);
        return true;
      },
    );
  }
});

Deno.test("resolveSecretInput() returns @plain: and bare text as they are, silently outside CI", async () => {
  const ctx = createTestContext();
  assert.equal(await resolveSecretInput(ctx, "@plain:dev:secret", "s"), "dev:secret");
  assert.equal(await resolveSecretInput(ctx, "bare-secret", "s"), "bare-secret");
  assert.equal(ctx.stderr.text(), "");
  assert.equal(ctx.stdout.text(), "");
});

Deno.test("resolveSecretInput() warns on stderr about @plain: while CI is set, without the value", async () => {
  const ctx = createTestContext({ env: { CI: "true" } });
  assert.equal(
    await resolveSecretInput(ctx, "@plain:dev-secret-123", "apps.default.app_secret"),
    "dev-secret-123",
  );
  assert.match(ctx.stderr.text(), /^warning: apps\.default\.app_secret is a @plain: secret/);
  assert.ok(!ctx.stderr.text().includes("dev-secret-123"));
  assert.equal(ctx.stdout.text(), "");
});

Deno.test("resolveSecretInput() does not warn about bare strings in CI", async () => {
  const ctx = createTestContext({ env: { CI: "1" } });
  await resolveSecretInput(ctx, "bare", "s");
  assert.equal(ctx.stderr.text(), "");
});
