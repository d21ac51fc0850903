/**
 * What every command action starts from: the global flags, the loaded config and the chosen
 * profile (steps 1 and 2 of the spec's lifecycle).
 *
 * @module
 */

import type { CommandUnknownOpts } from "@commander-js/extra-typings";
import type { Context } from "../context.ts";
import {
  baseUrl,
  type Config,
  loadConfig,
  requireKnownProfile,
  resolveConfigPath,
  secretWarnings,
  selectProfile,
} from "../config/mod.ts";
import { formatJson, type OutputOptions, resolveFormat } from "../output/output.ts";
import { type GlobalOptions, outputOptions, readGlobals } from "./globals.ts";

/** The state of one command invocation. */
export interface Session {
  /** The context. */
  ctx: Context;
  /** The global flags. */
  globals: GlobalOptions;
  /** The config file's path. */
  configPath: string;
  /** The config as loaded at the start. */
  config: Config;
  /** The profile in use. */
  profile: string;
  /** Whether the profile was named (`--profile`, `$HARK_PROFILE`, `active_profile`). */
  profileExplicit: boolean;
  /** How to write data. */
  output: OutputOptions;
}

/**
 * Reads the global flags, loads the config and picks the profile, and warns on stderr about a
 * secret of the profile kept in plaintext in the config.
 *
 * @param ctx the context
 * @param command the command being run
 * @throws {ValidationError} for conflicting flags, a malformed config or a bad profile name
 */
export async function openSession(ctx: Context, command: CommandUnknownOpts): Promise<Session> {
  const globals = readGlobals(ctx, command);
  const configPath = resolveConfigPath(ctx);
  const config = await loadConfig(ctx, configPath);
  const profile = selectProfile(ctx, config, globals.profile);
  for (const warning of secretWarnings(ctx.env, config, profile)) {
    ctx.stderr.write(`warning: ${warning}\n`);
  }
  const profileExplicit = globals.profile !== undefined || !!ctx.env.get("HARK_PROFILE") ||
    config.active_profile !== undefined;
  return {
    ctx,
    globals,
    configPath,
    config,
    profile,
    profileExplicit,
    output: outputOptions(globals, config),
  };
}

/**
 * The service address of the session's profile. Without a config the default address serves
 * (a CI job with an environment token needs no config), but a profile named by `--profile`,
 * `$HARK_PROFILE` or `active_profile` must exist: a typo must not send a token to the public
 * service.
 *
 * @param session the command's session
 * @throws {ValidationError} listing the known profiles when an explicitly named one is unknown
 */
export function serviceBaseUrl(session: Session): string {
  const app = session.config.apps?.[session.profile];
  if (!app && session.profileExplicit) {
    requireKnownProfile(
      session.config,
      session.profile,
      session.globals.profile !== undefined
        ? "--profile"
        : session.ctx.env.get("HARK_PROFILE")
        ? "HARK_PROFILE"
        : "active_profile",
    );
  }
  return baseUrl(app ?? {});
}

/**
 * Whether the command's result is JSON: `--json` or `--format json`, else
 * `preferences.output_format`, else whether stdout is piped.
 *
 * @param session the command's session
 */
export function wantsJson(session: Session): boolean {
  return resolveFormat(session.ctx, session.output) === "json";
}

/**
 * `--dry-run` for commands that change something: prints the change they would make, as JSON
 * on stdout with `"dry_run": true`, and answers whether the caller must stop there. Secrets in
 * the plan must already be references or masks.
 *
 * @param session the command's session
 * @param plan what the command would do, such as `{ action: "profile use", profile: "work" }`
 * @returns true when `--dry-run` was given and the plan was printed
 */
export function previewChange(session: Session, plan: Record<string, unknown>): boolean {
  if (!session.globals.dryRun) return false;
  session.ctx.stdout.write(
    formatJson({ dry_run: true, ...plan }, session.ctx.stdout.isTerminal) + "\n",
  );
  return true;
}
