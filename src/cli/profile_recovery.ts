/**
 * Recovery commands that name their profile: after a failure on profile `work`, "Run: hark auth
 * login" or "Run: hark config init --force" would act on another profile (the default one), and
 * `config init --force` would replace it. A command about a profile (`hark auth …`,
 * `hark config init …`) that does not name one gets `--profile <name>` when the profile in use
 * is not `default`.
 *
 * @module
 */

import type { Context } from "../context.ts";
import type { HarkError } from "../errors/mod.ts";
import { loadConfig, selectProfile } from "../config/mod.ts";

/** Recovery commands that act on one profile. */
const ABOUT_A_PROFILE = /^hark (auth|config init)(\s|$)/;

/**
 * The error with `--profile <name>` added to its recovery command when that command acts on a
 * profile, names none, and the profile in use is not `default`.
 *
 * @param ctx the context (`HARK_PROFILE`, the config's `active_profile`)
 * @param error the error
 * @param flag the value of `--profile` on the failed command line
 * @returns the error, or a copy with the profile named
 */
export async function withProfileNamed(
  ctx: Context,
  error: HarkError,
  flag: string | undefined,
): Promise<HarkError> {
  const command = error.recovery.command;
  if (!ABOUT_A_PROFILE.test(command) || /\s--profile(\s|=)/.test(command)) return error;
  const profile = await profileInUse(ctx, flag);
  if (profile === undefined || profile === "default") return error;
  return error.withRecovery({ ...error.recovery, command: `${command} --profile ${profile}` });
}

/** The profile the command used, as the session chose it; `undefined` when it cannot be told. */
async function profileInUse(ctx: Context, flag: string | undefined): Promise<string | undefined> {
  try {
    const config = flag !== undefined || ctx.env.get("HARK_PROFILE") !== undefined
      ? {}
      : await loadConfig(ctx);
    return selectProfile(ctx, config, flag);
  } catch {
    // An unreadable config or a bad name: that error's own recovery says what to do.
    return undefined;
  }
}
