/**
 * The report of `auth login`: who signed in, and which requested scopes were not granted with
 * the shortcuts that will fail without them.
 *
 * @module
 */

import { type LoginResult, SCOPE_OFFLINE } from "../../auth/mod.ts";
import { writeData } from "../../output/output.ts";
import { terminalSafe } from "../../output/terminal_safe.ts";
import type { Session } from "../../session/session.ts";
import { type ServiceGroup, shortcutsNeeding } from "../../shortcuts/services.ts";
import { formatRfc3339InZone } from "../../time/mod.ts";

/**
 * Reports the sign-in: the warnings, the scopes not granted with the shortcuts they break, and
 * who signed in (the whole result on stdout in JSON mode, one line on stderr otherwise).
 *
 * @param session the command's session
 * @param result what the sign-in stored
 * @param services the shortcuts' services, to name those a missing scope breaks
 */
export async function reportLogin(
  session: Session,
  result: LoginResult,
  services: readonly ServiceGroup[],
): Promise<void> {
  const { ctx, profile } = session;
  for (const warning of result.warnings) {
    ctx.stderr.write(`warning: ${terminalSafe(warning, { breaks: "space" })}\n`);
  }
  const notGranted = result.requested.filter((s) =>
    s !== SCOPE_OFFLINE && !result.scopes.includes(s)
  );
  const affected = shortcutsNeeding(services, notGranted, "user");
  if (notGranted.length > 0) {
    ctx.stderr.write(
      `warning: ${notGranted.length === 1 ? "this scope was" : "these scopes were"} not ` +
        `granted: ${terminalSafe(notGranted.join(", "), { breaks: "space" })}` +
        (affected.length > 0
          ? `; these shortcuts will fail as the user: ${affected.join(", ")}`
          : "") +
        "\n  The app may not have them enabled (developer console), or the user declined them\n",
    );
  }
  const { warnings: _, requested: __, ...data } = result;
  if (session.wantsJson()) {
    const inZone = (iso: string | undefined) =>
      iso === undefined ? undefined : formatRfc3339InZone(Date.parse(iso), ctx.timeZone);
    await writeData(ctx, session.output, {
      ...data,
      expires_at: inZone(data.expires_at),
      refresh_expires_at: inZone(data.refresh_expires_at),
      not_granted: notGranted,
      affected_shortcuts: affected,
    });
  } else {
    const who = result.user.name ?? result.user.open_id ?? "the user";
    ctx.stderr.write(
      `Signed in as ${terminalSafe(who, { breaks: "space" })} to profile "${profile}"\n`,
    );
  }
}
