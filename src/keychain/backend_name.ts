/**
 * Which keychain backend `HARK_KEYCHAIN` and the operating system choose, without loading any
 * backend: the real context knows the name at once and loads the backend on first use.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { ValidationError } from "../errors/mod.ts";
import { isOneOf } from "../json/is_one_of.ts";
import type { KeychainBackendName } from "./keychain.ts";

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
