/**
 * The wait of `auth login`: poll until the sign-in is approved, under a spinner, finishing a
 * sign-in started with `--no-wait` or starting one, and end pending when a bounded wait runs out.
 *
 * @module
 */

import {
  beginLogin,
  completeLogin,
  type DeviceAuthorization,
  type LoginResult,
  type PollProgress,
  startDeviceAuthorization,
} from "../../auth/mod.ts";
import { clearPendingLogin, pendingLoginPath, takePendingLogin } from "../../auth/pending_login.ts";
import type { Context } from "../../context.ts";
import { PendingError, shellQuote } from "../../errors/mod.ts";
import { colorEnabled } from "../../output/color.ts";
import { writeJsonData } from "../../output/output.ts";
import { createSpinner } from "../../output/spinner.ts";
import type { Session } from "../../session/session.ts";
import { formatRfc3339InZone } from "../../time/mod.ts";
import { instructions, profileFlag } from "./_login_text.ts";
import type { LoginOptions } from "./login_options.ts";

/** The sign-in being waited for, as far as it is known; what a pending end reports. */
interface WaitState {
  /** The device code, once known. */
  deviceCode?: string;
  /** When the code expires, epoch ms, when known. */
  expiresAt?: number;
  /** Where the pending sign-in is remembered. */
  pendingPath: string;
  /** Whether it is remembered there (and so must be forgotten unless the wait ends pending). */
  remembered: boolean;
}

/**
 * Waits for the approval under a spinner: finishes the `--device-code` sign-in, or starts one
 * and shows its code. A sign-in that ends pending stays remembered, so a later `--device-code`
 * polls as the server asked; any other end forgets it.
 *
 * @param session the command's session
 * @param options the checked flags
 * @param scopes the scopes to ask for
 * @param waitMs how long to wait after the first poll (`waitBound`), or `undefined`
 * @throws {PendingError} when the bounded wait ends first
 * @throws {AuthError} on denial, expiry or a timeout
 */
export async function waitForApproval(
  session: Session,
  options: LoginOptions,
  scopes: string[],
  waitMs: number | undefined,
): Promise<LoginResult> {
  const { ctx, profile } = session;
  const state: WaitState = {
    deviceCode: options.deviceCode,
    pendingPath: pendingLoginPath(profile, session.config.keychain_namespace),
    remembered: false,
  };
  const spinner = createSpinner(ctx, {
    color: colorEnabled(ctx, ctx.stderr, {
      color: session.globals.color,
      preference: session.config.preferences?.color,
    }),
  });
  const stopAfter = stopWaitingAfter(ctx, waitMs, () => stillPending(session, state));
  const onTick = (p: PollProgress) => {
    stopAfter(p);
    spinner.update(
      "Waiting for approval in the browser" +
        (p.remainingMs === undefined ? "" : ` (code expires in ${formatRemaining(p.remainingMs)})`),
    );
  };
  let result: LoginResult;
  try {
    result = options.deviceCode !== undefined
      ? await finishStarted(session, options.deviceCode, state, onTick)
      : await startAndWait(session, scopes, waitMs, state, onTick);
  } catch (error) {
    if (state.remembered && !(error instanceof PendingError)) {
      await clearPendingLogin(ctx, state.pendingPath);
    }
    throw error;
  } finally {
    spinner.stop();
  }
  if (state.remembered) await clearPendingLogin(ctx, state.pendingPath);
  return result;
}

/**
 * The end of a bounded wait: in JSON mode `{"state": "pending", …}` on stdout, and the error
 * (exit 75) whose command polls again.
 */
function stillPending(session: Session, state: WaitState): PendingError {
  const { ctx, profile } = session;
  if (session.wantsJson()) {
    writeJsonData(ctx, session.output, {
      state: "pending",
      profile,
      device_code: state.deviceCode ?? null,
      expires_at: state.expiresAt === undefined
        ? null
        : formatRfc3339InZone(state.expiresAt, ctx.timeZone),
    });
  }
  return new PendingError("The sign-in is not approved yet", {
    // The command itself never waits without a terminal: one poll, pending again or done.
    suggestion: "Approve it in the browser, then run this again (add --wait 5m to keep polling " +
      "for up to 5 minutes)",
    command: `hark auth login${profileFlag(profile)}` +
      (state.deviceCode === undefined ? "" : ` --device-code ${shellQuote(state.deviceCode)}`),
  });
}

/**
 * `--device-code`: polls with the interval and the time left that `--no-wait` remembered (the
 * defaults when nothing was).
 */
async function finishStarted(
  session: Session,
  deviceCode: string,
  state: WaitState,
  onTick: (progress: PollProgress) => void,
): Promise<LoginResult> {
  const { ctx } = session;
  ctx.stderr.write("Waiting for the sign-in to be approved...\n");
  const pending = await takePendingLogin(ctx, state.pendingPath, deviceCode);
  state.remembered = pending !== undefined;
  state.expiresAt = pending?.expires_at;
  return await completeLogin(ctx, session, {
    deviceCode,
    interval: pending?.interval,
    expiresIn: state.expiresAt === undefined
      ? undefined
      : Math.max(0, Math.floor((state.expiresAt - ctx.now()) / 1000)),
    scopes: pending?.scopes,
    onTick,
  });
}

/**
 * Starts a sign-in, shows its code and polls until it is approved. A bounded wait (`--wait`)
 * remembers the sign-in first, since it may end pending and be finished later with
 * `--device-code`.
 */
async function startAndWait(
  session: Session,
  scopes: string[],
  waitMs: number | undefined,
  state: WaitState,
  onTick: (progress: PollProgress) => void,
): Promise<LoginResult> {
  const { ctx } = session;
  let auth: DeviceAuthorization;
  if (waitMs === undefined) auth = await startDeviceAuthorization(ctx, session, scopes);
  else {
    const begun = await beginLogin(ctx, session, scopes);
    state.pendingPath = begun.pendingPath;
    auth = begun;
  }
  state.remembered = waitMs !== undefined;
  state.deviceCode = auth.device_code;
  state.expiresAt = auth.expires_in === undefined ? undefined : ctx.now() + auth.expires_in * 1000;
  ctx.stderr.write(instructions(auth) + "Waiting for approval...\n");
  return await completeLogin(ctx, session, {
    deviceCode: auth.device_code,
    interval: auth.interval,
    expiresIn: auth.expires_in,
    scopes,
    onTick,
  });
}

/**
 * A poll-progress callback that ends the wait once `waitMs` has passed since the first poll:
 * before each later poll, when that poll would come after the bound, it throws the error
 * `pending()` makes (which the poller passes on). Without a bound it does nothing.
 *
 * @param ctx the context (clock)
 * @param waitMs the bound, or `undefined`
 * @param pending makes the error to end with
 */
export function stopWaitingAfter(
  ctx: Context,
  waitMs: number | undefined,
  pending: () => PendingError,
): (progress: PollProgress) => void {
  let deadline: number | undefined;
  let checked = 1;
  return (progress) => {
    // Once per wait, at its start; the first wait always runs, so there is always one poll.
    if (waitMs === undefined || progress.attempt <= checked) return;
    checked = progress.attempt;
    // One second of slack for the time the polls themselves take.
    deadline ??= ctx.now() + waitMs + 1000;
    if (ctx.now() + progress.intervalS * 1000 > deadline) throw pending();
  };
}

/**
 * A duration as `m:ss`.
 *
 * @param ms milliseconds
 */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}
