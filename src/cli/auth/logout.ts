/**
 * `hark auth logout`: delete the stored tokens and the user entry.
 *
 * @module
 */

import { logout, signOutPaths } from "../../auth/mod.ts";
import { writeData } from "../../output/output.ts";
import type { CommandCall } from "../command_spec.ts";
import { openSession } from "../../session/session.ts";

/**
 * Signs out of the profile. Idempotent; `--dry-run` lists what would be deleted.
 *
 * @param call the parsed command line
 * @throws {KeychainError} when the keychain cannot be used
 */
export async function runLogout(call: CommandCall): Promise<void> {
  const session = await openSession(call.ctx, call.globals);
  const { ctx, config, profile } = session;
  if (session.globals.dryRun) {
    const paths = new Set(signOutPaths(ctx, session));
    const stored = (await ctx.keychain.list()).filter((p) => paths.has(p));
    session.previewChange({
      action: "auth logout",
      profile,
      keychain_entries: stored,
      user_entry: config.users?.[profile] !== undefined,
    });
    return;
  }
  const result = await logout(ctx, session);
  if (session.wantsJson()) {
    await writeData(ctx, session.output, result);
  } else if (result.keychain_entries.length > 0 || result.user_entry_removed) {
    ctx.stderr.write(`Signed out of profile "${profile}"\n`);
  } else {
    ctx.stderr.write(`Not signed in to profile "${profile}"; nothing to do\n`);
  }
}
