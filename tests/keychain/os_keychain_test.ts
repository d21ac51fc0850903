/**
 * The macOS and Windows backends against the real OS keychain. They write to the signed-in
 * user's keychain, so they run only where `HARK_TEST_REAL_KEYCHAIN=1` says that is fine (the
 * macOS and Windows jobs of CI), under a unique profile that is removed afterwards.
 */

import assert from "node:assert/strict";
import type { Keychain } from "../../src/keychain/keychain.ts";
import { MacosKeychain } from "../../src/keychain/macos_keychain.ts";
import { WindowsKeychain } from "../../src/keychain/windows_keychain.ts";
import { createRealContext } from "../../src/runtime/real_context.ts";

const enabled = Deno.env.get("HARK_TEST_REAL_KEYCHAIN") === "1";

const SECRETS = [
  "plain-ascii-secret",
  "ünïcødé 密钥 🔑 \"double\" 'single' \\ $HOME `tick`",
  "line one\nline two\r\n",
  "ends with a newline\n",
  "0123456789abcdef".repeat(256),
  "€".repeat(5_000),
  "",
];

async function roundTrip(keychain: Keychain): Promise<void> {
  const profile = `test-${crypto.randomUUID().slice(0, 8)}`;
  const paths = SECRETS.map((_, i) => `hark/${profile}/secret_${i}`);
  try {
    for (const [i, path] of paths.entries()) await keychain.set(path, SECRETS[i]);
    for (const [i, path] of paths.entries()) assert.equal(await keychain.get(path), SECRETS[i]);
    await keychain.set(paths[5], "short now");
    assert.equal(await keychain.get(paths[5]), "short now");
    const listed = (await keychain.list()).filter((p) => p.startsWith(`hark/${profile}/`));
    assert.deepEqual(listed, [...paths].sort());
  } finally {
    for (const path of paths) await keychain.delete(path);
  }
  assert.equal(await keychain.get(paths[0]), undefined);
  assert.equal(await keychain.delete(paths[0]), false);
}

Deno.test({
  name: "MacosKeychain round-trips secrets through the real macOS keychain",
  ignore: !enabled || Deno.build.os !== "darwin",
  async fn() {
    await roundTrip(new MacosKeychain(createRealContext({ signal: new AbortController().signal })));
  },
});

Deno.test({
  name: "WindowsKeychain round-trips secrets through the real Credential Manager",
  ignore: !enabled || Deno.build.os !== "windows",
  async fn() {
    await roundTrip(
      new WindowsKeychain(createRealContext({ signal: new AbortController().signal })),
    );
  },
});
