/**
 * The global options every command and the MCP server start from (what `--json`, `--profile`,
 * `--as`, `--dry-run` … asked for, however they were given), and the output settings they make
 * with the config's preferences.
 *
 * @module
 */

import type { Context } from "../context.ts";
import type { Identity } from "../auth/identity.ts";
import type { Config, OutputFormat } from "../config/config.ts";
import type { OutputOptions } from "../output/output.ts";

/** The parsed global flags. */
export interface GlobalOptions {
  /** `--json`. */
  json: boolean;
  /** `--format`, or `json` when `--json` was given. */
  format?: OutputFormat;
  /** `--dry-run`. */
  dryRun: boolean;
  /** False with `--no-color`. */
  color: boolean;
  /** `--profile`. */
  profile?: string;
  /** `--as`. */
  as?: Identity;
  /** `--debug` or `HARK_DEBUG=1`. */
  debug: boolean;
  /** `--csv-raw`. */
  csvRaw?: boolean;
  /** `--allow-insecure-http`. */
  allowInsecureHttp?: boolean;
  /** `--jq`: the jq expression the JSON output goes through (implies JSON). */
  jq?: string;
  /** `--fields`: the fields each output record is cut down to. */
  fields?: readonly string[];
}

/**
 * Whether `HARK_DEBUG` asks for debug output.
 *
 * @param ctx the context
 */
export function debugFromEnv(ctx: Context): boolean {
  return ["1", "true"].includes(ctx.env.get("HARK_DEBUG") ?? "");
}

/**
 * The output settings of a command: its global flags and the config's preferences.
 *
 * @param globals the global flags
 * @param config the loaded config
 */
export function outputOptions(globals: GlobalOptions, config: Config): OutputOptions {
  return {
    format: globals.format,
    color: globals.color,
    preferences: config.preferences,
    csvRaw: globals.csvRaw === true,
    ...(globals.fields !== undefined ? { fields: globals.fields } : {}),
  };
}
