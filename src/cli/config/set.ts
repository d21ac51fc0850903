/**
 * `hark config set`: change a setting, checked against its key, atomically.
 *
 * @module
 */

import { requireKnownProfile, updateConfig } from "../../config/mod.ts";
import { findKeySpec } from "../../config/config_keys.ts";
import { ValidationError } from "../../errors/mod.ts";
import { isObject, objectOf } from "../../json/fields.ts";
import { writeData } from "../../output/output.ts";
import type { CommandCall } from "../command_spec.ts";
import { openSession, type Session } from "../../session/session.ts";

/**
 * Runs `config set <key> <value>`.
 *
 * @param call the parsed command line
 */
export async function runConfigSet(call: CommandCall): Promise<void> {
  const [key, value] = call.args;
  await configSet(await openSession(call.ctx, call.globals, { profile: "none" }), { key, value });
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
export async function configSet(session: Session, options: ConfigSetOptions): Promise<void> {
  const { ctx } = session;
  const spec = findKeySpec(options.key);
  const value = spec.parse(options.value, options.key);
  // `active_profile` parses to the profile's name, which must name a profile.
  const profile = options.key === "active_profile" && typeof value === "string" ? value : undefined;
  if (profile !== undefined) requireKnownProfile(session.config, profile, "active_profile");
  if (
    session.previewChange({
      action: "config set",
      key: options.key,
      value,
      config: session.configPath,
    })
  ) return;
  await updateConfig(ctx, (config) => {
    if (profile !== undefined) requireKnownProfile(config, profile, "active_profile");
    const parents = options.key.split(".");
    const leaf = parents.pop() ?? "";
    // The config itself (always an object), seen as a record of unknown fields.
    let node = objectOf(config);
    for (const part of parents) {
      let next = node[part];
      if (next === undefined) next = node[part] = {};
      if (!isObject(next)) {
        throw new ValidationError(`Cannot set "${options.key}": "${part}" is not an object`, {
          param: options.key,
        });
      }
      node = next;
    }
    // A value of `undefined` (`auto`) is the absence of a setting.
    if (value === undefined) delete node[leaf];
    else node[leaf] = value;
  }, session.configPath);
  if (session.wantsJson()) {
    await writeData(ctx, session.output, { key: options.key, value: value ?? null });
  } else if (value === undefined) {
    ctx.stderr.write(`Removed ${options.key}: ${options.value} is the default\n`);
  } else {
    ctx.stderr.write(`Set ${options.key} to ${JSON.stringify(value)}\n`);
  }
}
