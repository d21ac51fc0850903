/**
 * `hark profile remove`: delete a profile and the keychain entries it owns.
 *
 * @module
 */

import {
  ownedNamespace,
  parseSecretInput,
  requireKnownProfile,
  updateConfig,
} from "../../config/mod.ts";
import { isProfileEntry } from "../../keychain/keychain.ts";
import { writeData } from "../../output/output.ts";
import type { CommandCall, FlagValuesOf } from "../command_spec.ts";
import type { REMOVE_FLAGS } from "./profile.ts";
import { confirm } from "../prompt.ts";
import { openSession, type Session } from "../../session/session.ts";

/**
 * Runs `profile remove <name> [--yes]`.
 *
 * @param call the parsed command line
 */
export async function runProfileRemove(
  call: CommandCall<FlagValuesOf<typeof REMOVE_FLAGS>>,
): Promise<void> {
  await profileRemove(
    await openSession(call.ctx, call.globals, { profile: "none" }),
    call.args[0],
    call.flags.yes === true,
  );
}

/**
 * Removes a profile: its app and user entries, the keychain entries they refer to, and every
 * entry the profile owns by its path (`hark/<name>/…`, or `hark/<namespace>/<name>/…` for a
 * config with a keychain namespace; never another config's). Asks first on a terminal; needs
 * `--yes` otherwise.
 *
 * @param session the command's session
 * @param name the profile
 * @param yes whether `--yes` was given
 */
export async function profileRemove(
  session: Session,
  name: string,
  yes: boolean,
): Promise<void> {
  const { ctx } = session;
  requireKnownProfile(session.config, name);
  const owned = ownedNamespace(ctx, session.config, session.configPath);
  const ownsPath = (path: string) =>
    owned !== undefined && isProfileEntry(path, name, owned.namespace);
  if (session.globals.dryRun) {
    const entries = (await ctx.keychain.list()).filter(ownsPath);
    session.previewChange({ action: "profile remove", profile: name, keychain_entries: entries });
    return;
  }
  if (!yes) {
    const sure = await confirm(ctx, `Remove profile "${name}" and its stored secrets?`, "--yes");
    if (!sure) {
      ctx.stderr.write("Nothing removed\n");
      return;
    }
  }
  // A profile owns the entries at its own paths; a reference to another path may be shared.
  const doomed = new Set<string>();
  await updateConfig(ctx, (config) => {
    for (const value of [config.apps?.[name]?.app_secret, config.users?.[name]?.access_token]) {
      if (typeof value !== "string") continue;
      const input = parseSecretInput(value);
      if (input.kind === "keychain" && ownsPath(input.path)) doomed.add(input.path);
    }
    delete config.apps?.[name];
    delete config.users?.[name];
    if (config.active_profile === name) delete config.active_profile;
  }, session.configPath);
  for (const path of await ctx.keychain.list()) {
    if (ownsPath(path)) doomed.add(path);
  }
  for (const path of doomed) await ctx.keychain.delete(path);
  if (session.wantsJson()) {
    await writeData(ctx, session.output, { removed: name, keychain_entries: [...doomed].sort() });
  } else {
    ctx.stderr.write(`Removed profile "${name}" and ${doomed.size} keychain entries\n`);
  }
}
