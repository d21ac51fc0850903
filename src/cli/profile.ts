/**
 * `hark profile list`, `hark profile use` and `hark profile remove`.
 *
 * @module
 */

import { Command } from "@commander-js/extra-typings";
import type { Context } from "../context.ts";
import {
  baseUrl,
  type Config,
  parseSecretInput,
  requireKnownProfile,
  updateConfig,
} from "../config/mod.ts";
import { resolveFormat, writeData } from "../output/output.ts";
import { withExamples } from "./help.ts";
import { confirm } from "./prompt.ts";
import { openSession, previewChange, type Session, wantsJson } from "./session.ts";

/** One row of `profile list`. */
export interface ProfileRow {
  name: string;
  active: boolean;
  app_id: string;
  base_url: string;
  user: string;
}

/**
 * The profiles of a config, sorted by name, with the active one marked.
 *
 * @param config the config
 * @param active the profile in use
 */
export function listProfiles(config: Config, active: string): ProfileRow[] {
  const names = new Set([...Object.keys(config.apps ?? {}), ...Object.keys(config.users ?? {})]);
  return [...names].sort().map((name) => {
    const app = config.apps?.[name] ?? {};
    const user = config.users?.[name];
    return {
      name,
      active: name === active,
      app_id: app.app_id ?? "",
      base_url: baseUrl(app),
      user: user ? (user.name ?? user.open_id ?? "signed in") : "",
    };
  });
}

/**
 * Prints the profiles.
 *
 * @param session the command's session
 */
export function runProfileList(session: Session): void {
  const rows = listProfiles(session.config, session.profile);
  if (rows.length === 0 && resolveFormat(session.ctx, session.output) !== "json") {
    session.ctx.stderr.write("No profiles yet. Create one with: hark config init\n");
  }
  writeData(session.ctx, session.output, rows, [
    { header: "", value: (r) => (r.active ? "*" : "") },
    { header: "NAME", value: "name" },
    { header: "APP ID", value: "app_id" },
    { header: "BASE URL", value: "base_url" },
    { header: "USER", value: "user" },
  ]);
}

/**
 * Makes a profile active.
 *
 * @param session the command's session
 * @param name the profile
 * @throws {ValidationError} listing the known profiles when `name` is not one
 */
export async function runProfileUse(session: Session, name: string): Promise<void> {
  requireKnownProfile(session.config, name);
  if (previewChange(session, { action: "profile use", profile: name })) return;
  await updateConfig(session.ctx, (config) => {
    requireKnownProfile(config, name);
    config.active_profile = name;
  }, session.configPath);
  if (wantsJson(session)) {
    writeData(session.ctx, session.output, { active_profile: name });
  } else {
    session.ctx.stderr.write(`Active profile is now "${name}"\n`);
  }
}

/**
 * Removes a profile: its app and user entries and every keychain entry under
 * `hark/<name>/`. Asks first on a terminal; needs `--yes` otherwise.
 *
 * @param session the command's session
 * @param name the profile
 * @param yes whether `--yes` was given
 */
export async function runProfileRemove(
  session: Session,
  name: string,
  yes: boolean,
): Promise<void> {
  const { ctx } = session;
  requireKnownProfile(session.config, name);
  if (session.globals.dryRun) {
    const entries = (await ctx.keychain.list()).filter((p) => p.startsWith(`hark/${name}/`));
    previewChange(session, { action: "profile remove", profile: name, keychain_entries: entries });
    return;
  }
  if (!yes) {
    const sure = await confirm(ctx, `Remove profile "${name}" and its stored secrets?`, "--yes");
    if (!sure) {
      ctx.stderr.write("Nothing removed\n");
      return;
    }
  }
  // A profile owns the entries under hark/<name>/; a reference to another path may be shared.
  const owned = new Set<string>();
  const ownPrefix = `hark/${name}/`;
  await updateConfig(ctx, (config) => {
    for (const value of [config.apps?.[name]?.app_secret, config.users?.[name]?.access_token]) {
      if (typeof value !== "string") continue;
      const input = parseSecretInput(value);
      if (input.kind === "keychain" && input.path.startsWith(ownPrefix)) owned.add(input.path);
    }
    delete config.apps?.[name];
    delete config.users?.[name];
    if (config.active_profile === name) delete config.active_profile;
  }, session.configPath);
  for (const path of await ctx.keychain.list()) {
    if (path.startsWith(ownPrefix)) owned.add(path);
  }
  for (const path of owned) await ctx.keychain.delete(path);
  if (wantsJson(session)) {
    writeData(ctx, session.output, { removed: name, keychain_entries: [...owned].sort() });
  } else {
    ctx.stderr.write(`Removed profile "${name}" and ${owned.size} keychain entries\n`);
  }
}

/**
 * The `profile` command group.
 *
 * @param ctx the context
 */
export function profileCommand(ctx: Context): Command {
  const profile = new Command("profile").description("List, switch and remove app profiles");
  withExamples(profile, ["hark profile list", "hark profile use work"]);

  const list = new Command("list")
    .alias("ls")
    .description("List the app profiles; * marks the active one")
    .action(async (_flags, command) => runProfileList(await openSession(ctx, command)));
  withExamples(list, ["hark profile list", "hark profile list --format csv"]);

  const use = new Command("use")
    .description("Make a profile the active one")
    .argument("<name>", "the profile")
    .action(async (name, _flags, command) => {
      await runProfileUse(await openSession(ctx, command), name);
    });
  withExamples(use, ["hark profile use work"]);

  const remove = new Command("remove")
    .alias("rm")
    .description("Remove a profile and delete its keychain entries")
    .argument("<name>", "the profile")
    .option("-y, --yes", "do not ask for confirmation")
    .action(async (name, flags, command) => {
      await runProfileRemove(await openSession(ctx, command), name, flags.yes === true);
    });
  withExamples(remove, ["hark profile remove old-app --yes"]);

  return profile.addCommand(list).addCommand(use).addCommand(remove) as unknown as Command;
}
