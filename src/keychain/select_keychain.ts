/**
 * Chooses the keychain backend from `HARK_KEYCHAIN` and the operating system.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { ValidationError } from "../errors/mod.ts";
import { FileKeychain } from "./file_keychain.ts";
import type { Keychain, KeychainBackendName } from "./keychain.ts";
import { LinuxKeychain } from "./linux_keychain.ts";
import { MacosKeychain } from "./macos_keychain.ts";
import { MemoryKeychain } from "./memory_keychain.ts";
import { WindowsKeychain } from "./windows_keychain.ts";

/** The values `HARK_KEYCHAIN` accepts. */
export const KEYCHAIN_CHOICES = ["auto", "macos", "linux", "windows", "file", "memory"] as const;

/**
 * The backend `HARK_KEYCHAIN` asks for: `auto` (the default) picks `macos`, `windows` or
 * `linux` by the operating system. There is no silent fallback: when the OS keychain is
 * unreachable, its calls fail with an error that names the ways out.
 *
 * @throws {ValidationError} when `HARK_KEYCHAIN` holds another value
 */
export function keychainBackendName(ctx: Context): KeychainBackendName {
  const raw = (ctx.env.get("HARK_KEYCHAIN") ?? "").trim().toLowerCase();
  const choice = raw === "" ? "auto" : raw;
  if (!(KEYCHAIN_CHOICES as readonly string[]).includes(choice)) {
    throw new ValidationError(
      `Invalid HARK_KEYCHAIN "${ctx.env.get("HARK_KEYCHAIN")}": expected one of ` +
        KEYCHAIN_CHOICES.map((c) => `"${c}"`).join(", "),
      {
        param: "HARK_KEYCHAIN",
        suggestion: 'Unset HARK_KEYCHAIN, or set it to "file" for the encrypted-file keychain',
        command: "unset HARK_KEYCHAIN",
      },
    );
  }
  if (choice !== "auto") return choice as KeychainBackendName;
  if (ctx.os === "darwin") return "macos";
  if (ctx.os === "windows") return "windows";
  return "linux";
}

/**
 * The keychain of this process, per `HARK_KEYCHAIN` (`auto`, `macos`, `linux`, `windows`,
 * `file`; `memory` keeps secrets for the life of the process only, for tests). Creating it is
 * cheap: no subprocess runs and no file is read until the first call.
 *
 * @param ctx the context the backend works through
 * @throws {ValidationError} when `HARK_KEYCHAIN` holds an unknown value
 * @example
 * ```ts
 * const keychain = selectKeychain(ctx); // HARK_KEYCHAIN=file → FileKeychain
 * await keychain.get("hark/default/app_secret");
 * ```
 */
export function selectKeychain(ctx: Context): Keychain {
  switch (keychainBackendName(ctx)) {
    case "macos":
      return new MacosKeychain(ctx);
    case "windows":
      return new WindowsKeychain(ctx);
    case "linux":
      return new LinuxKeychain(ctx);
    case "file":
      return new FileKeychain(ctx);
    case "memory":
      return new MemoryKeychain();
  }
}
