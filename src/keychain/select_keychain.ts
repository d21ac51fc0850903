/**
 * Chooses the keychain backend from `HARK_KEYCHAIN` and the operating system.
 *
 * @module
 */

import type { Context, KeychainSettings } from "../context.ts";
import { KEYCHAIN_CHOICES, keychainBackendName } from "./backend_name.ts";
import type { Keychain } from "./keychain.ts";

export { KEYCHAIN_CHOICES, keychainBackendName };

/**
 * The keychain of this process, per `HARK_KEYCHAIN` (`auto`, `macos`, `linux`, `windows`,
 * `file`; `memory` keeps secrets for the life of the process only, for tests). Creating it is
 * cheap: no subprocess runs and no file is read until the first call.
 *
 * @param ctx the context the backend works through
 * @param settings the config's preference, and how the file keychain asks for its password
 * @throws {ValidationError} when `HARK_KEYCHAIN` holds an unknown value (the promise rejects)
 * @example
 * ```ts
 * const keychain = await selectKeychain(ctx); // HARK_KEYCHAIN=file → FileKeychain
 * await keychain.get("hark/default/app_secret");
 * ```
 */
export async function selectKeychain(
  ctx: Context,
  settings: KeychainSettings = {},
): Promise<Keychain> {
  switch (keychainBackendName(ctx, settings.preference)) {
    case "macos":
      return new (await import("./macos_keychain.ts")).MacosKeychain(ctx);
    case "windows":
      return new (await import("./windows_keychain.ts")).WindowsKeychain(ctx);
    case "linux":
      return new (await import("./linux_keychain.ts")).LinuxKeychain(ctx);
    case "file": {
      const { FileKeychain } = await import("./file_keychain.ts");
      // Read when asked: a terminal's prompt may be settled after the backend was chosen.
      return new FileKeychain(ctx, { askPassword: (creating) => settings.askPassword?.(creating) });
    }
    case "memory":
      return new (await import("./memory_keychain.ts")).MemoryKeychain();
  }
}
