/**
 * Where a shortcut's parameter values come from, ranked per parameter: the command-line
 * argument, then the `--input <path>` JSON object, then stdin (the body parameter from piped
 * stdin, or a JSON object with `--input -`), then the environment (`HARK_<SERVICE>_<PARAM>`),
 * then the parameter's default.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { ValidationError } from "../errors/mod.ts";
import { readJson } from "../json/read_json.ts";
import { readLocalInput } from "../json/read_local_input.ts";
import type { ParamSpec, ParamValues } from "./definition.ts";
import { checkTimeZone } from "../time/mod.ts";
import { envVarOf, flagOf, parseParamValue } from "./params.ts";

/** Where a bound value came from. */
export type ParamSource = "argv" | "input" | "stdin" | "env" | "default";

/** Options of {@link bindParams}. */
export interface BindOptions {
  /** Values given on the command line, by parameter name; `undefined` when not given. */
  argv: Record<string, unknown>;
  /** `--input`: a path to a JSON object of parameter values, or `-` for stdin. */
  input?: string;
  /**
   * Asks the person at the terminal for a missing required value (the question, the flag that
   * would answer it). Given only where there is a terminal to ask at: without it, every missing
   * flag is reported at once.
   */
  ask?: (question: string, flag: string) => Promise<string>;
}

/** The bound values and where each came from. */
export interface BoundParams {
  /** Typed values by parameter name. */
  values: ParamValues;
  /** The source of each bound value. */
  sources: Record<string, ParamSource>;
  /** The zone `datetime` values were read in: `--timezone` when given, else the user's. */
  timeZone: string;
}

/**
 * The parameter that names the zone other parameters are read in: a `string` parameter named
 * `timezone`, bound before any `datetime`.
 */
export const TIMEZONE_PARAM = "timezone";

/**
 * Binds every parameter from its highest-ranked source, parses it, and checks that required
 * ones are present: asked for with `options.ask` at a terminal, else all reported in one error.
 * Stdin is read at most once, and only when a value is needed from it.
 *
 * @param ctx the context
 * @param service the shortcut's service (for environment variable names)
 * @param params the parameters
 * @param options the command-line values and `--input`
 * @throws {ValidationError} naming the flag for a bad value, every missing required flag (the
 *   first as its `param`), or `--input` for an unreadable or malformed input
 * @example
 * ```ts
 * // HARK_IM_CHAT_ID=oc_1 and --chat-id oc_2: the flag wins
 * const { values, sources } = await bindParams(ctx, "im", params, { argv: { "chat-id": "oc_2" } });
 * ```
 */
export async function bindParams(
  ctx: Context,
  service: string,
  params: ParamSpec[],
  options: BindOptions,
): Promise<BoundParams> {
  const input = options.input === undefined ? {} : await readInput(ctx, params, options.input);
  const values: ParamValues = {};
  const sources: Record<string, ParamSource> = {};
  let stdinText: string | undefined;
  const readStdinOnce = async () => {
    stdinText ??= stripNewline(
      new TextDecoder().decode(await readLocalInput(ctx, { stdin: true }, "stdin")),
    );
    return stdinText;
  };

  // `--timezone` when given; the system zone only when something reads it (see the return).
  let timeZone: string | undefined;
  const bind = async (spec: ParamSpec, raw: unknown, source: ParamSource, label: string) => {
    const value = await parseParamValue(ctx, spec, raw, label, timeZone);
    values[spec.name] = value;
    sources[spec.name] = source;
    if (spec.name === TIMEZONE_PARAM && typeof value === "string") {
      const where = { param: flagOf(spec), source: label === flagOf(spec) ? undefined : label };
      timeZone = checkTimeZone(value, where);
      values[spec.name] = timeZone;
    }
  };

  const zoneFirst = (p: ParamSpec) => (p.name === TIMEZONE_PARAM ? 0 : 1);
  const ordered = [...params.filter((p) => !p.stdin), ...params.filter((p) => p.stdin)]
    .sort((a, b) => zoneFirst(a) - zoneFirst(b));
  for (const spec of ordered) {
    const fromArgv = options.argv[spec.name];
    if (fromArgv !== undefined) {
      await bind(spec, fromArgv, "argv", flagOf(spec));
      continue;
    }
    if (spec.name in input) {
      await bind(spec, input[spec.name], "input", `--input ${options.input}`);
      continue;
    }
    const others = spec.stdinUnless ?? [];
    if (
      spec.stdin && options.input !== "-" && !ctx.stdin.isTerminal &&
      !others.some((name) => sources[name] !== undefined && sources[name] !== "default")
    ) {
      const text = await readStdinOnce();
      if (text.trim() !== "") {
        await bind(spec, text, "stdin", "stdin");
        continue;
      }
    }
    const envName = envVarOf(service, spec);
    const fromEnv = ctx.env.get(envName);
    if (fromEnv !== undefined && fromEnv !== "") {
      await bind(spec, fromEnv, "env", envName);
      continue;
    }
    if (spec.default !== undefined) await bind(spec, spec.default, "default", "the default");
  }

  const needed = (spec: ParamSpec) =>
    spec.required || (spec.requiredUnless !== undefined &&
      !spec.requiredUnless.some((name) => values[name] !== undefined));
  const missing = params.filter((spec) => needed(spec) && values[spec.name] === undefined);
  if (missing.length > 0 && options.ask) {
    for (const spec of missing) {
      const flag = flagOf(spec);
      await bind(spec, await options.ask(`${flag} (${spec.description})`, flag), "argv", flag);
    }
  } else if (missing.length > 0) {
    throw missingError(service, missing);
  }
  return {
    values,
    sources,
    // Looked up on first read: asking the system for its zone (Temporal, ICU) costs about 1 ms of
    // CPU, which a shortcut without times (`contact +me`) never needs.
    get timeZone() {
      return timeZone ?? ctx.timeZone;
    },
  };
}

/** One error for every missing required flag, so that one more run is enough. */
function missingError(service: string, missing: ParamSpec[]): ValidationError {
  const flags = missing.map((spec) =>
    spec.requiredUnless === undefined
      ? flagOf(spec)
      : `${flagOf(spec)} (or ${spec.requiredUnless.map((name) => `--${name}`).join(" or ")})`
  );
  const list = flags.length === 1
    ? flags[0]
    : `${flags.slice(0, -1).join(", ")} and ${flags[flags.length - 1]}`;
  const keys = missing.map((spec) => `"${spec.name}"`).join(", ");
  const envs = missing.map((spec) => envVarOf(service, spec)).join(", ");
  return new ValidationError(`Missing required flag${flags.length > 1 ? "s" : ""} ${list}`, {
    param: flagOf(missing[0]),
    suggestion: `Pass ${list}, put ${keys} in the --input file, or set ${envs}`,
  });
}

async function readInput(
  ctx: Context,
  params: ParamSpec[],
  path: string,
): Promise<Record<string, unknown>> {
  const bytes = await readLocalInput(ctx, path === "-" ? { stdin: true } : { path }, "--input");
  const parsed = readJson(bytes, {
    source: `--input ${JSON.stringify(path)}`,
    param: "--input",
    suggestion: "Give a JSON object of parameter values",
  });
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ValidationError(`Invalid --input ${JSON.stringify(path)}: expected a JSON object`, {
      param: "--input",
      suggestion: 'Give a JSON object such as {"chat-id": "oc_123"}',
    });
  }
  const known = new Map(params.map((p) => [p.name, p.name]));
  const result: Record<string, unknown> = {};
  // The key each parameter was given by: two spellings of one parameter are a mistake.
  const keys = new Map<string, string>();
  for (const [key, value] of Object.entries(parsed)) {
    const name = known.get(normalizeKey(key));
    if (!name) {
      throw new ValidationError(
        `Unknown parameter ${JSON.stringify(key)} in --input ${JSON.stringify(path)}`,
        {
          param: "--input",
          suggestion: `Known parameters: ${params.map((p) => p.name).join(", ")}`,
        },
      );
    }
    const other = keys.get(name);
    if (other !== undefined) {
      throw new ValidationError(
        `Invalid --input ${JSON.stringify(path)}: the keys ${JSON.stringify(other)} and ` +
          `${JSON.stringify(key)} both name the parameter "${name}"`,
        { param: "--input", suggestion: `Keep one of them, such as "${name}"` },
      );
    }
    keys.set(name, key);
    if (value !== null && value !== undefined) result[name] = value;
  }
  return result;
}

/** `chat_id`, `chatId` and `chat-id` all name the parameter `chat-id`. */
function normalizeKey(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, "$1-$2").replace(/_/g, "-").toLowerCase();
}

function stripNewline(text: string): string {
  return text.replace(/\r?\n$/, "");
}
