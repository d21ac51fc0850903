/**
 * What every command action starts from: the global flags, the loaded config and the chosen
 * profile (steps 1 and 2 of the spec's lifecycle).
 *
 * @module
 */

import type { CommandUnknownOpts } from "@commander-js/extra-typings";
import type { Context } from "../context.ts";
import { type Config, loadConfig, resolveConfigPath, selectProfile } from "../config/mod.ts";
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
  return { ctx, globals, configPath, config, profile, output: outputOptions(globals, config) };
}
