/**
 * `hark config get` and `hark config set`.
 *
 * @module
 */

import { Command } from "@commander-js/extra-typings";
import type { Context } from "../context.ts";
import {
  type Config,
  maskSecret,
  parseSecretInput,
  requireKnownProfile,
  updateConfig,
} from "../config/mod.ts";
import { findKeySpec, SECRET_FIELDS } from "../config/config_keys.ts";
import { HarkError, ValidationError } from "../errors/mod.ts";
import { ExitCode } from "../errors/exit_code.ts";
import { writeData } from "../output/output.ts";
import { configInitCommand } from "./config_init.ts";
import { withExamples } from "./help.ts";
import { openSession, previewChange, type Session, wantsJson } from "./session.ts";

/**
 * The value at a dot path, with secrets shown as references (a literal secret is masked).
 *
 * @param config the config
 * @param key a dot path; empty for the whole config
 */
export function getConfigValue(config: Config, key: string): unknown {
  let value: unknown = config;
  for (const part of key ? key.split(".") : []) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
    if (!Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return redact(value, key.split(".").at(-1) ?? "");
}

function redact(value: unknown, field: string): unknown {
  if (typeof value === "string" && SECRET_FIELDS.has(field)) {
    const kind = parseSecretInput(value).kind;
    return kind === "keychain" || kind === "env" ? value : maskSecret(value);
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
 * Prints a setting: the bare value for a scalar, JSON for objects or with `--json`.
 *
 * @param session the command's session
 * @param options the key
 * @throws {ValidationError} when the key is not a dot path (an empty part, white space or
 *   control characters)
 * @throws {HarkError} of type `not_found` (exit 1) when the key is not set
 */
export function runConfigGet(session: Session, options: ConfigGetOptions): void {
  const { ctx, config, globals } = session;
  if (
    options.key !== "" &&
    (options.key.split(".").includes("") || /[\s\p{Cc}]/u.test(options.key))
  ) {
    const shown = options.key.length > 80 ? `${options.key.slice(0, 80)}…` : options.key;
    throw new ValidationError(`Invalid key ${JSON.stringify(shown)}: expected a dot path`, {
      param: "<key>",
      suggestion: "Give a dot path such as preferences.output_format, or nothing for everything",
    });
  }
  const value = getConfigValue(config, options.key);
  if (value === undefined) {
    throw new HarkError(ExitCode.General, "not_found", `"${options.key}" is not set`, {
      suggestion: `Set it with hark config set ${options.key} <value>`,
      command: "hark config get",
    });
  }
  if (globals.format === "json") {
    writeData(ctx, session.output, { key: options.key, value });
  } else if (value !== null && typeof value === "object") {
    ctx.stdout.write(JSON.stringify(value, null, 2) + "\n");
  } else {
    ctx.stdout.write(`${value}\n`);
  }
}

/** Options of {@link runConfigSet}. */
export interface ConfigSetOptions {
  /** The dot path. */
  key: string;
  /** The value as typed. */
  value: string;
}

/**
 * Validates and stores a setting, atomically.
 *
 * @param session the command's session
 * @param options the key and value
 * @throws {ValidationError} for an unknown key or a bad value
 */
export async function runConfigSet(session: Session, options: ConfigSetOptions): Promise<void> {
  const { ctx } = session;
  const spec = findKeySpec(options.key);
  const value = spec.parse(options.value, options.key);
  if (options.key === "active_profile") {
    requireKnownProfile(session.config, value as string, "active_profile");
  }
  if (
    previewChange(session, {
      action: "config set",
      key: options.key,
      value,
      config: session.configPath,
    })
  ) return;
  await updateConfig(ctx, (config) => {
    if (options.key === "active_profile") {
      requireKnownProfile(config, value as string, "active_profile");
    }
    const parts = options.key.split(".");
    let node = config as Record<string, unknown>;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      if (next === undefined) node[part] = {};
      else if (next === null || typeof next !== "object" || Array.isArray(next)) {
        throw new ValidationError(`Cannot set "${options.key}": "${part}" is not an object`, {
          param: options.key,
        });
      }
      node = node[part] as Record<string, unknown>;
    }
    node[parts.at(-1)!] = value;
  }, session.configPath);
  if (wantsJson(session)) {
    writeData(ctx, session.output, { key: options.key, value });
  } else {
    ctx.stderr.write(`Set ${options.key} to ${JSON.stringify(value)}\n`);
  }
}

/**
 * The `config` command group: `init`, `get` and `set`.
 *
 * @param ctx the context
 */
export function configCommand(ctx: Context): Command {
  const config = new Command("config").description("Read and change settings");
  withExamples(config, [
    "hark config get preferences.output_format",
    "hark config set apps.default.base_url https://open.feishu.cn",
  ]);

  const get = new Command("get")
    .description("Print a setting (secrets show as references, never values)")
    .argument("[key]", "dot path, such as preferences.output_format; omit for all")
    .action(async (key, _flags, command) => {
      runConfigGet(await openSession(ctx, command), { key: key ?? "" });
    });
  withExamples(get, [
    "hark config get preferences.output_format",
    "hark config get apps.default --json",
    "hark config get",
  ]);

  const set = new Command("set")
    .description("Change a setting; the value is checked against the key")
    .argument("<key>", "dot path, such as apps.default.base_url")
    .argument("<value>", "the new value")
    .action(async (key, value, _flags, command) => {
      await runConfigSet(await openSession(ctx, command), { key, value });
    });
  withExamples(set, [
    "hark config set preferences.output_format json",
    "hark config set preferences.color false",
    "hark config set apps.default.base_url https://open.feishu.cn",
    "hark config set apps.work.app_secret @env:WORK_APP_SECRET",
  ]);
  set.addHelpText(
    "after",
    "\nSettable keys:\n  preferences.output_format  table, json or csv\n" +
      "  preferences.color          true or false\n  active_profile             a profile name\n" +
      "  apps.<profile>.app_id, app_secret (@keychain: or @env: reference), base_url,\n" +
      "  accounts_url, device_authorization_path, credential_command (JSON array)\n",
  );

  return config.addCommand(configInitCommand(ctx)).addCommand(get).addCommand(
    set,
  ) as unknown as Command;
}
