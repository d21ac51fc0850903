/**
 * `hark profile list`: the app profiles, the active one marked.
 *
 * @module
 */

import { baseUrl, type Config } from "../../config/mod.ts";
import { resolveFormat, writeData } from "../../output/output.ts";
import type { CommandCall } from "../command_spec.ts";
import { openSession, type Session } from "../../session/session.ts";

/**
 * Runs `profile list`.
 *
 * @param call the parsed command line
 */
export async function runProfileList(call: CommandCall): Promise<void> {
  profileList(await openSession(call.ctx, call.globals, { profile: "none" }));
}

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
export function profileList(session: Session): void {
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
