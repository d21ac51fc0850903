/**
 * `hark auth check`: whether the signed-in user granted some scopes.
 *
 * @module
 */

import { authStatus, checkScopes, parseScopes } from "../../auth/mod.ts";
import { ValidationError } from "../../errors/mod.ts";
import { writeData } from "../../output/output.ts";
import type { CommandCall } from "../command_spec.ts";
import { openSession } from "../session.ts";

/**
 * Checks that the signed-in user holds the `--scope` scopes.
 *
 * @param call the parsed command line
 * @throws {ValidationError} when no scope is named, or one is malformed
 * @throws {PermissionError} naming the missing scopes, with the upgrade command
 */
export async function runCheck(call: CommandCall): Promise<void> {
  const requested = parseScopes((call.flags.scope as string[] | undefined) ?? []);
  if (requested.length === 0) {
    throw new ValidationError("Missing --scope: name at least one scope to check", {
      param: "--scope",
    });
  }
  const session = await openSession(call.ctx, call.globals);
  const status = await authStatus(session.ctx, session);
  writeData(session.ctx, session.output, checkScopes(status, requested));
}
