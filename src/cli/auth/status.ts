/**
 * `hark auth status`: the sign-in state of the profile.
 *
 * @module
 */

import { authStatus, botStatus, unusableError } from "../../auth/mod.ts";
import { writeData } from "../../output/output.ts";
import type { CommandCall, FlagValuesOf } from "../command_spec.ts";
import type { STATUS_FLAGS } from "./auth.ts";
import { type VerifiedStatus, verifyWithService } from "./verify_session.ts";
import { openSession } from "../../session/session.ts";

/**
 * Prints the sign-in state; fails with exit 3 when the profile cannot get a token. A user
 * sign-in that looks usable is checked with the service (one call, at most 5 s) unless
 * `--offline`; `checked` says whether the service confirmed it (`service`) or only the stored
 * token was read (`local`).
 *
 * @param call the parsed command line
 * @throws {ValidationError} before `hark config init` (and without an environment token)
 * @throws {AuthError} when signed out, or the session has expired
 */
export async function runStatus(
  call: CommandCall<FlagValuesOf<typeof STATUS_FLAGS>>,
): Promise<void> {
  const session = await openSession(call.ctx, call.globals);
  const { ctx } = session;
  session.requireSetup();
  session.service();
  const local = session.globals.as === "bot"
    ? await botStatus(ctx, session)
    : await authStatus(ctx, session);
  // The bot's status asked the service already when it got a tenant token from the app.
  const asked = local.identity === "bot" && local.source === "app_credentials";
  const verified: VerifiedStatus = call.flags.offline === true || local.identity === "bot"
    ? { status: local, checked: asked ? "service" : "local" }
    : await verifyWithService(session, local);
  const { status, checked } = verified;
  const { formatLocalTime, formatRfc3339InZone } = await import("../../time/mod.ts");
  // Times as every command shows them: RFC 3339 in the user's zone in JSON, local in a table.
  const shown = (iso: string | null | undefined, json: boolean) => {
    const ms = iso ? Date.parse(iso) : NaN;
    if (Number.isNaN(ms)) return json ? null : "";
    return json ? formatRfc3339InZone(ms, ctx.timeZone) : formatLocalTime(ms, ctx.timeZone);
  };
  if (session.wantsJson()) {
    await writeData(ctx, session.output, {
      ...status,
      checked,
      expires_at: shown(status.expires_at, true),
      refresh_expires_at: shown(status.refresh_expires_at, true),
    });
  } else {
    await writeData(ctx, session.output, {
      profile: status.profile,
      identity: status.identity,
      state: status.state,
      checked,
      source: status.source ?? "",
      user: status.user?.name ?? status.user?.open_id ?? "",
      scopes: (status.scopes ?? []).join(" "),
      expires_at: shown(status.expires_at, false),
      refresh_expires_at: shown(status.refresh_expires_at, false),
    });
  }
  if (!status.usable) throw verified.error ?? unusableError(status);
}
