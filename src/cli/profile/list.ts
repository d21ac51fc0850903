/**
 * `hark profile list`: the app profiles, the active one marked.
 *
 * @module
 */

import { type Config, DEFAULT_BASE_URL } from "../../config/mod.ts";
import { resolveFormat, writeData } from "../../output/output.ts";
import { terminalSafe } from "../../output/terminal_safe.ts";
import { shellQuote } from "../../errors/shell_quote.ts";
import type { CommandCall } from "../command_spec.ts";
import { openSession, type Session } from "../../session/session.ts";

/**
 * Runs `profile list`.
 *
 * @param call the parsed command line
 */
export async function runProfileList(call: CommandCall): Promise<void> {
  await profileList(await openSession(call.ctx, call.globals, { profile: "none" }));
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
 * The profiles of a config, sorted by name, with the active one marked. A hand-edited value of
 * the wrong type (an `app_id` of 42) is shown as JSON, never trusted as text; see
 * {@link badValues}.
 *
 * @param config the config
 * @param active the profile in use
 */
export function listProfiles(config: Config, active: string): ProfileRow[] {
  const names = new Set([...Object.keys(config.apps ?? {}), ...Object.keys(config.users ?? {})]);
  return [...names].sort().map((name) => {
    const app = config.apps?.[name] ?? {};
    const user = config.users?.[name];
    const base = app.base_url === undefined ? DEFAULT_BASE_URL : app.base_url;
    return {
      name,
      active: name === active,
      app_id: app.app_id === undefined ? "" : shown(app.app_id),
      base_url: typeof base === "string" ? base.replace(/\/+$/, "") : shown(base),
      user: user ? shown(user.name ?? user.open_id ?? "signed in") : "",
    };
  });
}

/**
 * The settings `profile list` shows whose value has the wrong type, each with the command that
 * sets a good one.
 *
 * @param config the config
 * @returns one warning per bad value, without the `warning: ` prefix
 */
export function badValues(config: Config): string[] {
  const warnings: string[] = [];
  for (const [name, app] of Object.entries(config.apps ?? {})) {
    for (const key of ["app_id", "base_url"] as const) {
      const value = app[key];
      if (value === undefined || typeof value === "string") continue;
      const setting = `apps.${name}.${key}`;
      const flag = name === "default" ? "" : ` --profile ${shellQuote(name)}`;
      const fix = key === "app_id"
        ? `hark config init --force${flag}`
        : `hark config set ${shellQuote(setting)} ${DEFAULT_BASE_URL}`;
      warnings.push(`${setting} is ${shown(value)}, not text; set it with: ${fix}`);
    }
  }
  return warnings;
}

/** A config value as text: itself when it is a string, else its JSON. */
function shown(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
}

/**
 * Prints the profiles.
 *
 * @param session the command's session
 */
export async function profileList(session: Session): Promise<void> {
  const rows = listProfiles(session.config, session.profile);
  for (const warning of badValues(session.config)) {
    session.ctx.stderr.write(`warning: ${terminalSafe(warning, { breaks: "escape" })}\n`);
  }
  if (rows.length === 0 && resolveFormat(session.ctx, session.output) !== "json") {
    session.ctx.stderr.write("No profiles yet. Create one with: hark config init\n");
  }
  await writeData(session.ctx, session.output, rows, [
    { header: "", value: (r) => (r.active ? "*" : "") },
    { header: "NAME", value: "name" },
    { header: "APP ID", value: "app_id" },
    { header: "BASE URL", value: "base_url" },
    { header: "USER", value: "user" },
  ]);
}
