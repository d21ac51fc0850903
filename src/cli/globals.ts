/**
 * The global flags, accepted before or after any command, and how their parsed values
 * become the {@link GlobalOptions} every command and the MCP server start from.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { IDENTITIES } from "../auth/identity.ts";
import { OUTPUT_FORMATS } from "../config/config.ts";
import { ValidationError } from "../errors/hark_error.ts";
import { parseFields } from "../output/fields.ts";
import { isOneOf } from "../json/is_one_of.ts";
import { debugFromEnv, type GlobalOptions } from "../session/global_options.ts";
import type { FlagSpec } from "./command_spec.ts";
import type { FlagValues } from "./parse_argv.ts";

/** The global flags, in help order. */
export const GLOBAL_FLAGS: readonly FlagSpec[] = [
  { name: "json", description: "machine-readable JSON output (same as --format json)" },
  {
    name: "format",
    value: "<format>",
    description: "output format (default: table at a terminal, ndjson: a record a line, piped)",
    choices: OUTPUT_FORMATS,
  },
  {
    name: "dry-run",
    description: "print the requests or changes a command would make, and make none",
  },
  { name: "color", negated: true, description: "output without colours (also NO_COLOR=1)" },
  {
    name: "profile",
    value: "<name>",
    description: "the profile to use (default: $HARK_PROFILE, the active one)",
    dynamicValues: "profiles",
  },
  {
    name: "as",
    value: "<identity>",
    description: "act as the user or the bot",
    choices: IDENTITIES,
  },
  {
    name: "jq",
    value: "<expr>",
    description: "filter the JSON output with a jq expression (implies --json; results one " +
      "per line, strings raw)",
  },
  {
    name: "fields",
    value: "<a,b>",
    description: "cut each output record down to these fields (in every format)",
  },
  { name: "debug", description: "log requests and show stack traces (also HARK_DEBUG=1)" },
  {
    name: "allow-insecure-http",
    description: "accept a plain http:// service address on another machine (credentials " +
      "travel unencrypted; warned every time)",
  },
  {
    name: "csv-raw",
    description: "keep CSV cells as they are (by default a cell a spreadsheet would run as a " +
      "formula, starting with = + - @ or tab, gets a leading ')",
  },
];

/**
 * Reads the global flags.
 *
 * @param ctx the context (for `HARK_DEBUG`)
 * @param values the global flags as parsed
 * @throws {ValidationError} when `--json` or `--jq` and another `--format` are both given, or
 *   `--fields` is not a list of field names
 */
export function readGlobals(ctx: Context, values: FlagValues): GlobalOptions {
  // The parser has checked each flag against its declaration; the guards let the types follow.
  const jq = typeof values.jq === "string" ? values.jq : undefined;
  const json = values.json === true || jq !== undefined;
  const format = isOneOf(OUTPUT_FORMATS, values.format) ? values.format : undefined;
  if (json && format !== undefined && format !== "json") {
    const flag = values.json === true ? "--json" : "--jq";
    throw new ValidationError(`Conflicting flags: ${flag} and --format ${format}`, {
      param: "--format",
      suggestion: `Give either ${flag} or --format`,
    });
  }
  return {
    json,
    format: json ? "json" : format,
    dryRun: values["dry-run"] === true,
    color: values.color !== false,
    profile: typeof values.profile === "string" ? values.profile : undefined,
    as: isOneOf(IDENTITIES, values.as) ? values.as : undefined,
    debug: values.debug === true || debugFromEnv(ctx),
    csvRaw: values["csv-raw"] === true,
    allowInsecureHttp: values["allow-insecure-http"] === true,
    jq,
    fields: typeof values.fields === "string" ? parseFields(values.fields) : undefined,
  };
}
