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
  resolveConfigPath,
  selectProfile,
} from "../config/mod.ts";
import { ValidationError } from "../errors/mod.ts";
import type { OutputOptions } from "../output/output.ts";
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
  /** Whether the profile was named by `--profile` or `$HARK_PROFILE`. */
  profileExplicit: boolean;
  /** How to write data. */
  output: OutputOptions;
}

/**
 * Reads the global flags, loads the config and picks the profile.
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
  const profileExplicit = globals.profile !== undefined || !!ctx.env.get("HARK_PROFILE");
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
 * (a CI job with an environment token needs no config), but a profile named explicitly must
 * exist: a typo in `--profile` must not send a token to the public service.
 *
 * @param session the command's session
 * @throws {ValidationError} listing the known profiles when an explicitly named one is unknown
 */
export function serviceBaseUrl(session: Session): string {
  const app = session.config.apps?.[session.profile];
  if (!app && session.profileExplicit) {
    const known = Object.keys(session.config.apps ?? {}).sort();
    throw new ValidationError(
      `Unknown profile "${session.profile}"${
        known.length > 0 ? `; known profiles: ${known.join(", ")}` : "; no profiles exist yet"
      }`,
      {
        param: session.globals.profile !== undefined ? "--profile" : "HARK_PROFILE",
        suggestion: "Name a known profile, or create this one first",
        command: known.length > 0 ? "hark profile list" : "hark config init",
      },
    );
  }
  return baseUrl(app ?? {});
}
