/**
 * The global flags, accepted before or after any command.
 *
 * @module
 */

import { type Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import type { Context } from "../context.ts";
import { type Config, OUTPUT_FORMATS, type OutputFormat } from "../config/config.ts";
import { ValidationError } from "../errors/mod.ts";
import type { OutputOptions } from "../output/output.ts";

/** The identities a command can act as. */
export const IDENTITIES = ["user", "bot"] as const;
/** One of {@link IDENTITIES}. */
export type Identity = typeof IDENTITIES[number];

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
}

/**
 * Adds the global flags to the root command.
 *
 * @param program the root command
 */
export function addGlobalOptions(program: Command) {
  return program
    .option("--json", "machine-readable JSON output (same as --format json)")
    .addOption(
      new Option("--format <format>", "output format").choices(OUTPUT_FORMATS),
    )
    .option("--dry-run", "print the requests or changes a command would make, and make none")
    .option("--no-color", "output without colours (also NO_COLOR=1)")
    .option("--profile <name>", "the profile to use (default: $HARK_PROFILE, the active one)")
    .addOption(new Option("--as <identity>", "act as the user or the bot").choices(IDENTITIES))
    .option("--debug", "log requests and show stack traces (also HARK_DEBUG=1)");
}

/**
 * Reads the global flags of the command being run.
 *
 * @param ctx the context (for `HARK_DEBUG`)
 * @param command any command of the tree
 * @throws {ValidationError} when `--json` and another `--format` are both given
 */
export function readGlobals(ctx: Context, command: CommandUnknownOpts): GlobalOptions {
  const all = command.optsWithGlobals() as Record<string, unknown>;
  const json = all.json === true;
  const format = all.format as OutputFormat | undefined;
  if (json && format !== undefined && format !== "json") {
    throw new ValidationError(`Conflicting flags: --json and --format ${format}`, {
      param: "--format",
      suggestion: "Give either --json or --format",
    });
  }
  const globals: GlobalOptions = {
    json,
    format: json ? "json" : format,
    dryRun: all.dryRun === true,
    color: all.color !== false,
    profile: all.profile as string | undefined,
    as: all.as as Identity | undefined,
    debug: all.debug === true || ["1", "true"].includes(ctx.env.get("HARK_DEBUG") ?? ""),
  };
  return globals;
}

/**
 * The output settings of a command: its global flags and the config's preferences.
 *
 * @param globals the global flags
 * @param config the loaded config
 */
export function outputOptions(globals: GlobalOptions, config: Config): OutputOptions {
  return { format: globals.format, color: globals.color, preferences: config.preferences };
}
