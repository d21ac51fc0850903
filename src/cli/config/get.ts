/**
 * `hark config get`: print a setting, with secrets shown as references.
 *
 * @module
 */

import { type Config, isSecretReference, maskSecret } from "../../config/mod.ts";
import { SECRET_FIELDS } from "../../config/config_keys.ts";
import { defaultOf } from "../../config/config_defaults.ts";
import { HarkError, ValidationError } from "../../errors/mod.ts";
import { ExitCode } from "../../errors/exit_code.ts";
import { isObject } from "../../json/fields.ts";
import { writeData } from "../../output/output.ts";
import type { CommandCall } from "../command_spec.ts";
import { openSession, type Session } from "../../session/session.ts";
import { hasSpaceOrControl } from "../../text_classes.ts";

/**
 * Runs `config get [key]`.
 *
 * @param call the parsed command line
 */
export async function runConfigGet(call: CommandCall): Promise<void> {
  await configGet(await openSession(call.ctx, call.globals, { profile: "none" }), {
    key: call.args[0] ?? "",
  });
}

/**
 * The value at a dot path, with secrets shown as references (a literal secret is masked).
 *
 * @param config the config
 * @param key a dot path; empty for the whole config
 */
export function getConfigValue(config: Config, key: string): unknown {
  let value: unknown = config;
  for (const part of key ? key.split(".") : []) {
    if (!isObject(value) || !Object.hasOwn(value, part)) return undefined;
    value = value[part];
  }
  return redact(value, key.split(".").at(-1) ?? "");
}

function redact(value: unknown, field: string): unknown {
  if (typeof value === "string" && SECRET_FIELDS.has(field)) {
    return isSecretReference(value) ? value : maskSecret(value);
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, k)]));
  }
  return value;
}

/** Options of {@link runConfigGet}. */
export interface ConfigGetOptions {
  /** The dot path; empty for everything. */
  key: string;
}

/**
 * Prints a setting: the bare value for a scalar, JSON for objects or with `--json`. A key that
 * is not set but has a default prints the default, marked as one (a note on stderr in
 * text, `"default": true` in JSON).
 *
 * @param session the command's session
 * @param options the key
 * @throws {ValidationError} when the key is not a dot path (an empty part, white space or
 *   control characters)
 * @throws {HarkError} of type `not_found` (exit 1) when the key is not set and has no default
 */
export async function configGet(session: Session, options: ConfigGetOptions): Promise<void> {
  const { ctx, config, globals } = session;
  if (
    options.key !== "" &&
    (options.key.split(".").includes("") || hasSpaceOrControl(options.key))
  ) {
    const shown = options.key.length > 80 ? `${options.key.slice(0, 80)}…` : options.key;
    throw new ValidationError(`Invalid key ${JSON.stringify(shown)}: expected a dot path`, {
      param: "<key>",
      suggestion: "Give a dot path such as preferences.output_format, or nothing for everything",
    });
  }
  const value = getConfigValue(config, options.key);
  const fallback = value === undefined ? defaultOf(config, options.key) : undefined;
  if (fallback !== undefined) {
    if (globals.format === "json") {
      await writeData(ctx, session.output, { key: options.key, value: fallback, default: true });
    } else {
      // The value alone on stdout, as for a set key, so `$(hark config get …)` reads it.
      ctx.stdout.write(`${fallback}\n`);
      ctx.stderr.write(`"${options.key}" is not set: this is the default\n`);
    }
    return;
  }
  if (value === undefined) {
    throw new HarkError(ExitCode.General, "not_found", `"${options.key}" is not set`, {
      suggestion: `Set it with hark config set ${options.key} <value>`,
      command: "hark config get",
    });
  }
  if (globals.format === "json") {
    await writeData(ctx, session.output, { key: options.key, value });
  } else if (value !== null && typeof value === "object") {
    ctx.stdout.write(JSON.stringify(value, null, 2) + "\n");
  } else {
    ctx.stdout.write(`${value}\n`);
  }
}
