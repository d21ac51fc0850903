import assert from "node:assert/strict";
import { createTestContext } from "../../tests/support/test_context.ts";
import { MemoryKeychain } from "../keychain/memory_keychain.ts";
import { KeychainError } from "../keychain/keychain.ts";
import { ValidationError } from "../errors/mod.ts";
import type { Config } from "./config.ts";
import {
  isSecretReference,
  parseSecretInput,
  resolveSecretInput,
  secretWarnings,
} from "./secret_input.ts";

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

Deno.test("resolveSecretInput() returns @plain: and bare text as they are, printing nothing", async () => {
  for (const env of [{}, { CI: "true" }] as Record<string, string>[]) {
    const ctx = createTestContext({ env });
    assert.equal(await resolveSecretInput(ctx, "@plain:dev:secret", "s"), "dev:secret");
    assert.equal(await resolveSecretInput(ctx, "bare-secret", "s"), "bare-secret");
    assert.equal(ctx.stderr.text(), "");
    assert.equal(ctx.stdout.text(), "");
  }
});

const ENV = (vars: Record<string, string>) => createTestContext({ env: vars }).env;

Deno.test("secretWarnings() warns about a bare secret in and out of CI, naming key and fix", () => {
  const config: Config = {
    apps: { work: { app_id: "cli_1", app_secret: "bare-secret-123" } },
    users: { work: { access_token: "u-token-456" } },
  };
  for (const env of [ENV({}), ENV({ CI: "1" })]) {
    const warnings = secretWarnings(env, config, "work");
    assert.equal(warnings.length, 2);
    assert.match(warnings[0], /^apps\.work\.app_secret holds a secret in plaintext/);
    assert.match(warnings[0], /hark config init --force --profile work/);
    assert.match(warnings[0], /hark config set apps\.work\.app_secret @env:<VARIABLE>/);
    assert.match(warnings[1], /^users\.work\.access_token holds a secret in plaintext/);
    assert.match(warnings[1], /hark auth login --profile work/);
    for (const warning of warnings) assert.ok(!/bare-secret|u-token/.test(warning), warning);
  }
  assert.match(
    secretWarnings(ENV({}), { apps: { default: { app_secret: "x" } } }, "default")[0],
    /"hark config init --force" \(it asks/,
  );
});

Deno.test("secretWarnings() warns about @plain: only while CI is set, without the value", () => {
  const config: Config = { apps: { default: { app_secret: "@plain:dev-secret-123" } } };
  assert.deepEqual(secretWarnings(ENV({}), config, "default"), []);
  const [warning, ...rest] = secretWarnings(ENV({ CI: "true" }), config, "default");
  assert.deepEqual(rest, []);
  assert.match(warning, /^apps\.default\.app_secret is a @plain: secret/);
  assert.ok(!warning.includes("dev-secret-123"));
});

Deno.test("secretWarnings() is silent for references, other profiles and absent secrets", () => {
  const config: Config = {
    apps: {
      default: { app_secret: "@keychain:hark/default/app_secret" },
      ci: { app_secret: "@env:APP_SECRET" },
      other: { app_secret: "plaintext-elsewhere" },
      empty: { app_secret: "" },
    },
    users: { default: { access_token: "@keychain:hark/default/user_token" } },
  };
  for (const profile of ["default", "ci", "empty", "missing"]) {
    assert.deepEqual(secretWarnings(ENV({ CI: "1" }), config, profile), [], profile);
  }
});
