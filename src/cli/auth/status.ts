/**
 * `hark auth status`: the sign-in state of the profile.
 *
 * @module
 */

import { authStatus, botStatus, unusableError } from "../../auth/mod.ts";
import { writeData } from "../../output/output.ts";
import type { CommandCall } from "../command_spec.ts";
import { openSession } from "../session.ts";

/**
 * Prints the sign-in state; fails with exit 3 when the profile cannot get a token.
 *
 * @param call the parsed command line
 * @throws {ValidationError} before `hark config init` (and without an environment token)
 * @throws {AuthError} when signed out, or the session has expired
 */
export async function runStatus(call: CommandCall): Promise<void> {
  const session = await openSession(call.ctx, call.globals);
  const { ctx } = session;
  session.requireSetup();
  session.service();
  const status = session.globals.as === "bot"
    ? await botStatus(ctx, session)
    : await authStatus(ctx, session);
  if (session.wantsJson()) {
    writeData(ctx, session.output, status);
  } else {
    writeData(ctx, session.output, {
      profile: status.profile,
      identity: status.identity,
      state: status.state,
      source: status.source ?? "",
      user: status.user?.name ?? status.user?.open_id ?? "",
      scopes: (status.scopes ?? []).join(" "),
      expires_at: status.expires_at ?? "",
      refresh_expires_at: status.refresh_expires_at ?? "",
    });
  }
  if (!status.usable) throw unusableError(status);
}
