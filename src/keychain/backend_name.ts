/**
 * Which keychain backend `HARK_KEYCHAIN` and the operating system choose, without loading any
 * backend: the real context knows the name at once and loads the backend on first use.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { ValidationError } from "../errors/hark_error.ts";
import { isOneOf } from "../json/is_one_of.ts";
import type { KeychainBackendName } from "./keychain.ts";

/** The values `HARK_KEYCHAIN` accepts. */
export const KEYCHAIN_CHOICES = ["auto", "macos", "linux", "windows", "file", "memory"] as const;

/** The values of `preferences.keychain`: a backend a person may choose to keep. */
export const PREFERENCE_CHOICES = ["auto", "macos", "linux", "windows", "file"] as const;

/**
 * The backend `HARK_KEYCHAIN` asks for, else `preference` (`preferences.keychain`): `auto`
 * (the default) picks `macos`, `windows` or
 * `linux` by the operating system. There is no silent fallback: when the OS keychain is
 * unreachable, its calls fail with an error that names the ways out.
 *
 * @param ctx the context (`HARK_KEYCHAIN`, the operating system)
 * @param preference the config's `preferences.keychain`, if any
 * @throws {ValidationError} when `HARK_KEYCHAIN` holds another value
 */
export function keychainBackendName(ctx: Context, preference?: string): KeychainBackendName {
  const raw = (ctx.env.get("HARK_KEYCHAIN") ?? "").trim().toLowerCase();
  // The config's preference (checked when the config is read) applies when the variable is unset.
  const preferred = isOneOf(PREFERENCE_CHOICES, preference) ? preference : "auto";
  const choice = raw === "" ? preferred : raw;
  if (!isOneOf(KEYCHAIN_CHOICES, choice)) {
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
  if (choice !== "auto") return choice;
  if (ctx.os === "darwin") return "macos";
  if (ctx.os === "windows") return "windows";
  return "linux";
}
