/**
 * `hark profile use`: make a profile the active one.
 *
 * @module
 */

import { requireKnownProfile, updateConfig } from "../../config/mod.ts";
import { writeData } from "../../output/output.ts";
import type { CommandCall } from "../command_spec.ts";
import { openSession, type Session } from "../../session/session.ts";

/**
 * Runs `profile use <name>`.
 *
 * @param call the parsed command line
 */
export async function runProfileUse(call: CommandCall): Promise<void> {
  await profileUse(await openSession(call.ctx, call.globals, { profile: "none" }), call.args[0]);
}

/**
 * Makes a profile active.
 *
 * @param session the command's session
 * @param name the profile
 * @throws {ValidationError} listing the known profiles when `name` is not one
 */
export async function profileUse(session: Session, name: string): Promise<void> {
  requireKnownProfile(session.config, name);
  if (session.previewChange({ action: "profile use", profile: name })) return;
  await updateConfig(session.ctx, (config) => {
    requireKnownProfile(config, name);
    config.active_profile = name;
  }, session.configPath);
  if (session.wantsJson()) {
    await writeData(session.ctx, session.output, { active_profile: name });
  } else {
    session.ctx.stderr.write(`Active profile is now "${name}"\n`);
  }
}
