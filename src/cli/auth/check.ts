/**
 * `hark auth check`: whether the signed-in user granted some scopes.
 *
 * @module
 */

import { authStatus, checkScopes, parseScopes } from "../../auth/mod.ts";
import { ValidationError } from "../../errors/mod.ts";
import { writeData } from "../../output/output.ts";
import type { CommandCall, FlagValuesOf } from "../command_spec.ts";
import type { CHECK_FLAGS } from "./auth.ts";
import { scopesFor } from "../../shortcuts/definition.ts";
import { loadServices, userScopesOf } from "../../shortcuts/services.ts";
import { openSession } from "../../session/session.ts";

/**
 * Checks that the signed-in user holds the scopes a shortcut needs as the user
 * (`auth check calendar +agenda`) and the `--scope` scopes.
 *
 * @param call the parsed command line
 * @throws {ValidationError} when nothing is named, a shortcut is unknown, or a scope malformed
 * @throws {PermissionError} naming the missing scopes, with the upgrade command
 */
export async function runCheck(
  call: CommandCall<FlagValuesOf<typeof CHECK_FLAGS>>,
): Promise<void> {
  const [service, verb] = call.args;
  const requested = parseScopes(call.flags.scope ?? []);
  if (service !== undefined) {
    for (const scope of await shortcutScopes(service, verb)) {
      if (!requested.includes(scope)) requested.push(scope);
    }
  }
  if (requested.length === 0) {
    throw new ValidationError(
      "Missing what to check: name a shortcut (hark auth check calendar +agenda) or --scope",
      { param: "--scope", command: "hark auth check calendar +agenda" },
    );
  }
  const session = await openSession(call.ctx, call.globals);
  session.requireSetup("user");
  const status = await authStatus(session.ctx, session);
  writeData(session.ctx, session.output, checkScopes(status, requested));
}

/** The scopes the user needs for `service verb`, or for every shortcut of `service`. */
async function shortcutScopes(service: string, verb: string | undefined): Promise<string[]> {
  const groups = await loadServices();
  const group = groups.find((g) => g.name === service);
  if (!group) {
    throw new ValidationError(`Unknown service "${service}"`, {
      param: "service",
      suggestion: `Known services: ${groups.map((g) => g.name).join(", ")}`,
      command: "hark auth check calendar +agenda",
    });
  }
  if (verb === undefined) return userScopesOf([group]);
  const wanted = verb.startsWith("+") ? verb : `+${verb}`;
  const shortcut = group.shortcuts.find((s) => s.verb === wanted);
  if (!shortcut) {
    throw new ValidationError(`Unknown shortcut "${service} ${wanted}"`, {
      param: "verb",
      suggestion: `Shortcuts of ${service}: ${group.shortcuts.map((s) => s.verb).join(", ")}`,
      command: `hark auth check ${service} ${group.shortcuts[0]?.verb ?? ""}`.trim(),
    });
  }
  return [...scopesFor(shortcut, "user")];
}
