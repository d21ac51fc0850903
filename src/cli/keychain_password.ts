/**
 * The encrypted-file keychain's password at a terminal, when `HARK_KEYCHAIN_PASSWORD` is not set:
 * asked once per command, and twice (the same both times, long enough) when nothing is stored yet.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { KeychainError } from "../keychain/keychain.ts";
import { MIN_KEYCHAIN_PASSWORD_LENGTH } from "../keychain/file_keychain.ts";
import { askSecret } from "./prompt.ts";

const FLAG = "HARK_KEYCHAIN_PASSWORD";
/** How often a new password may be typed differently the second time. */
const TRIES = 3;

/**
 * Asks for the file keychain's password.
 *
 * @param ctx the context (a terminal)
 * @param creating nothing is stored yet: a new password, typed twice
 * @throws {KeychainError} when a new password was typed differently {@link TRIES} times
 * @throws {CancelledError} on Ctrl-C
 */
export async function askKeychainPassword(ctx: Context, creating: boolean): Promise<string> {
  if (!creating) {
    return await askSecret(ctx, `Keychain password (${FLAG} skips this question)`, FLAG);
  }
  const long = (value: string) =>
    [...value].length >= MIN_KEYCHAIN_PASSWORD_LENGTH ||
    `At least ${MIN_KEYCHAIN_PASSWORD_LENGTH} characters`;
  for (let attempt = 0; attempt < TRIES; attempt++) {
    const first = await askSecret(
      ctx,
      `New password for hark's file keychain (${FLAG} skips this question)`,
      FLAG,
      long,
    );
    const again = await askSecret(ctx, "The same password again", FLAG);
    if (again === first) return first;
    ctx.stderr.write("The two passwords differ: once more\n");
  }
  throw new KeychainError(
    "file",
    `The new keychain password was typed differently ${TRIES} times`,
    {
      suggestion: `Run the command again, or set ${FLAG}`,
    },
  );
}
