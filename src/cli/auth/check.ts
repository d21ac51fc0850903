/**
 * `hark auth check`: whether the signed-in user granted some scopes.
 *
 * @module
 */

import { authStatus, checkScopes, parseScopes, scopeGranted } from "../../auth/mod.ts";
import { loginCommand, ValidationError } from "../../errors/mod.ts";
import { terminalSafe } from "../../output/mod.ts";
import { writeData } from "../../output/output.ts";
import type { CommandCall, FlagValuesOf } from "../command_spec.ts";
import type { CHECK_FLAGS } from "./auth.ts";
import { loadServices, type UserScopeNeeds, userScopeNeedsOf } from "../../shortcuts/services.ts";
import { openSession } from "../../session/session.ts";
import { verifyWithService } from "./verify_session.ts";

/**
 * Checks that the signed-in user holds the scopes a shortcut needs as the user
 * (`auth check calendar +agenda`) and the `--scope` scopes. A scope the API accepts instead of a
 * needed one counts. For a shortcut, the result also lists the optional scopes (the parts of its
 * output they unlock are left out without them: a warning names those not granted) and the
 * scopes the app needs for the calls only its tenant token may make (uploads), which a user's
 * sign-in cannot show: the developer console does.
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
  const needs = service === undefined ? undefined : await shortcutNeeds(service, verb);
  for (const scope of needs?.required ?? []) {
    if (!requested.includes(scope)) requested.push(scope);
  }
  if (requested.length === 0 && !needs) {
    throw new ValidationError(
      "Missing what to check: name a shortcut (hark auth check calendar +agenda) or --scope",
      { param: "--scope", command: "hark auth check calendar +agenda" },
    );
  }
  const session = await openSession(call.ctx, call.globals);
  session.requireSetup("user");
  // The service says whether the sign-in still works; its refusal says what to do.
  const { status, error } = await verifyWithService(
    session,
    await authStatus(session.ctx, session),
  );
  if (error) throw error;
  const check = checkScopes(status, requested, needs?.alternatives);
  if (!needs) {
    await writeData(session.ctx, session.output, check);
    return;
  }
  const optionalMissing = needs.optional.filter((s) =>
    !scopeGranted(check.granted, s, needs.alternatives)
  );
  const warn = (text: string) =>
    session.ctx.stderr.write(`warning: ${terminalSafe(text, { breaks: "space" })}\n`);
  if (optionalMissing.length > 0) {
    warn(
      `Not granted: ${optionalMissing.join(", ")}; what they unlock is left out of the ` +
        `output. Add them: ${loginCommand(optionalMissing, status.profile)}`,
    );
  }
  for (const tenant of needs.tenantCalls) {
    warn(
      `With ${tenant.when}, ${tenant.shortcut} calls Lark with the app's tenant token: the app ` +
        `must have ${tenant.scopes.join(", ")} enabled (the developer console shows it; a ` +
        "sign-in cannot)",
    );
  }
  await writeData(session.ctx, session.output, {
    ...check,
    optional: needs.optional,
    optional_missing: optionalMissing,
    tenant_calls: needs.tenantCalls,
  });
}

/** What running `service verb`, or every shortcut of `service`, takes as the user. */
async function shortcutNeeds(service: string, verb: string | undefined): Promise<UserScopeNeeds> {
  const groups = await loadServices();
  const group = groups.find((g) => g.name === service);
  if (!group) {
    throw new ValidationError(`Unknown service "${service}"`, {
      param: "service",
      suggestion: `Known services: ${groups.map((g) => g.name).join(", ")}`,
      command: "hark auth check calendar +agenda",
    });
  }
  if (verb === undefined) return userScopeNeedsOf([group]);
  const wanted = verb.startsWith("+") ? verb : `+${verb}`;
  const shortcut = group.shortcuts.find((s) => s.verb === wanted);
  if (!shortcut) {
    throw new ValidationError(`Unknown shortcut "${service} ${wanted}"`, {
      param: "verb",
      suggestion: `Shortcuts of ${service}: ${group.shortcuts.map((s) => s.verb).join(", ")}`,
      command: `hark auth check ${service} ${group.shortcuts[0]?.verb ?? ""}`.trim(),
    });
  }
  return userScopeNeedsOf([{ ...group, shortcuts: [shortcut] }]);
}
