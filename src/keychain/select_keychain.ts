/**
 * Chooses the keychain backend from `HARK_KEYCHAIN` and the operating system.
 *
 * @module
 */

import type { Context, KeychainSettings } from "../context.ts";
import { KEYCHAIN_CHOICES, keychainBackendName } from "./backend_name.ts";
import { FileKeychain } from "./file_keychain.ts";
import type { Keychain } from "./keychain.ts";
import { LinuxKeychain } from "./linux_keychain.ts";
import { MacosKeychain } from "./macos_keychain.ts";
import { MemoryKeychain } from "./memory_keychain.ts";
import { WindowsKeychain } from "./windows_keychain.ts";

export { KEYCHAIN_CHOICES, keychainBackendName };

/**
 * The keychain of this process, per `HARK_KEYCHAIN` (`auto`, `macos`, `linux`, `windows`,
 * `file`; `memory` keeps secrets for the life of the process only, for tests). Creating it is
 * cheap: no subprocess runs and no file is read until the first call.
 *
 * @param ctx the context the backend works through
 * @param settings the config's preference, and how the file keychain asks for its password
 * @throws {ValidationError} when `HARK_KEYCHAIN` holds an unknown value
 * @example
 * ```ts
 * const keychain = selectKeychain(ctx); // HARK_KEYCHAIN=file → FileKeychain
 * await keychain.get("hark/default/app_secret");
 * ```
 */
export function selectKeychain(ctx: Context, settings: KeychainSettings = {}): Keychain {
  switch (keychainBackendName(ctx, settings.preference)) {
    case "macos":
      return new MacosKeychain(ctx);
    case "windows":
      return new WindowsKeychain(ctx);
    case "linux":
      return new LinuxKeychain(ctx);
    case "file":
      // Read when asked: a terminal's prompt may be settled after the backend was chosen.
      return new FileKeychain(ctx, { askPassword: (creating) => settings.askPassword?.(creating) });
    case "memory":
      return new MemoryKeychain();
  }
}
