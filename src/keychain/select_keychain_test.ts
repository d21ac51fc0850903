import assert from "node:assert/strict";
import { ValidationError } from "../errors/mod.ts";
import { createTestContext } from "../../tests/support/test_context.ts";
import { FileKeychain } from "./file_keychain.ts";
import { LinuxKeychain } from "./linux_keychain.ts";
import { MacosKeychain } from "./macos_keychain.ts";
import { MemoryKeychain } from "./memory_keychain.ts";
import { keychainBackendName, selectKeychain } from "./select_keychain.ts";
import { WindowsKeychain } from "./windows_keychain.ts";

Deno.test("selectKeychain() picks the OS keychain by default, without running anything", async () => {
  const cases = [
    ["linux", LinuxKeychain],
    ["darwin", MacosKeychain],
    ["windows", WindowsKeychain],
  ] as const;
  for (const [os, kind] of cases) {
    const envs: Record<string, string>[] = [{}, { HARK_KEYCHAIN: "auto" }, { HARK_KEYCHAIN: "" }];
    for (const env of envs) {
      const ctx = createTestContext({ os, env });
      assert.ok((await selectKeychain(ctx)) instanceof kind, `${os} ${JSON.stringify(env)}`);
      assert.equal(ctx.runs.length, 0);
    }
  }
});

Deno.test("selectKeychain() honours HARK_KEYCHAIN, whatever the OS", async () => {
  const cases = [
    ["macos", MacosKeychain],
    ["linux", LinuxKeychain],
    ["windows", WindowsKeychain],
    ["file", FileKeychain],
    ["FILE", FileKeychain],
    ["memory", MemoryKeychain],
  ] as const;
  for (const [value, kind] of cases) {
    const keychain = await selectKeychain(
      createTestContext({ os: "darwin", env: { HARK_KEYCHAIN: value } }),
    );
    assert.ok(keychain instanceof kind, value);
    assert.equal(keychain.backend, value.toLowerCase());
  }
});

Deno.test("selectKeychain() rejects an unknown HARK_KEYCHAIN naming the allowed values", async () => {
  const ctx = createTestContext({ env: { HARK_KEYCHAIN: "plaintext" } });
  assert.throws(() => keychainBackendName(ctx), (error) => {
    assert.ok(error instanceof ValidationError);
    assert.equal(error.param, "HARK_KEYCHAIN");
    assert.equal(
      error.message,
      'Invalid HARK_KEYCHAIN "plaintext": expected one of "auto", "macos", "linux", "windows", ' +
        '"file", "memory"',
    );
    return true;
  });
  await assert.rejects(() => selectKeychain(ctx), ValidationError);
});
