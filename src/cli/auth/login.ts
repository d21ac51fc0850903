/**
 * `hark auth login`: sign in with the device flow, start a sign-in for someone else to approve
 * (`--no-wait`), or finish one (`--device-code`).
 *
 * @module
 */

import {
  beginLogin,
  checkLoginTarget,
  completeLogin,
  type DeviceAuthorization,
  endpointsOf,
  type LoginResult,
  parseScopes,
  type PollProgress,
  SCOPE_OFFLINE,
  scopesToRequest,
  startDeviceAuthorization,
} from "../../auth/mod.ts";
import { clearPendingLogin, pendingLoginPath, takePendingLogin } from "../../auth/pending_login.ts";
import type { Context } from "../../context.ts";
import { colorEnabled } from "../../output/color.ts";
import { createSpinner } from "../../output/spinner.ts";
import { terminalSafe } from "../../output/terminal_safe.ts";
import { formatRfc3339InZone } from "../../time/mod.ts";
import { AuthError, PendingError, shellQuote, ValidationError } from "../../errors/mod.ts";
import { writeData } from "../../output/output.ts";
import type { CommandCall, FlagValuesOf } from "../command_spec.ts";
import type { LOGIN_FLAGS } from "./auth.ts";
import {
  loadServices,
  type ServiceGroup,
  shortcutsNeeding,
  userScopesOf,
} from "../../shortcuts/services.ts";
import { openSession, type Session } from "../../session/session.ts";

/** The parsed flags of `auth login`. */
export type LoginFlags = FlagValuesOf<typeof LOGIN_FLAGS>;

/** The checked flags of `auth login`. */
export interface LoginOptions {
  /** `--scope`, split and checked; empty when none was given. */
  scopes: string[];
  /** False with `--no-wait`. */
  wait: boolean;
  /** `--wait <duration>` in ms: how long to keep polling after the first poll. */
  waitMs?: number;
  /** `--device-code`, trimmed. */
  deviceCode?: string;
  /** `--force`: replace a keychain entry this config does not refer to. */
  force: boolean;
}

/**
 * Checks the flags of `auth login` (no I/O).
 *
 * @param flags the parsed flags
 * @throws {ValidationError} for a bad scope, conflicting flags or an empty device code
 */
export function loginOptions(flags: LoginFlags): LoginOptions {
  const scopes = parseScopes(flags.scope ?? []);
  // `--no-wait` and `--wait <duration>` share the name: false for the one, the text for the other.
  const wait = flags.wait !== false;
  const waitMs = typeof flags.wait === "string" ? parseWait(flags.wait) : undefined;
  const deviceCode = flags["device-code"];
  if (deviceCode !== undefined && !wait) {
    throw new ValidationError("Conflicting flags: --no-wait and --device-code", {
      param: "--device-code",
      suggestion: "Use --no-wait to start a sign-in, then --device-code to finish it",
      command: "hark auth login --help",
    });
  }
  if (deviceCode !== undefined && deviceCode.trim() === "") {
    throw new ValidationError("Invalid --device-code: empty", { param: "--device-code" });
  }
  return { scopes, wait, waitMs, deviceCode: deviceCode?.trim(), force: flags.force === true };
}

const WAIT = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

/**
 * Reads `--wait`: `0`, or hours, minutes and seconds such as `30s`, `2m`, `1m30s`, `1h`.
 *
 * @param text the value as typed
 * @returns milliseconds
 * @throws {ValidationError} naming `--wait` for anything else
 */
export function parseWait(text: string): number {
  const match = WAIT.exec(text.trim());
  if (text.trim() === "0") return 0;
  if (!match || match.slice(1).every((part) => part === undefined)) {
    throw new ValidationError(
      `Invalid --wait "${text}": expected a duration such as 30s, 2m, 1m30s or 0`,
      { param: "--wait", command: "hark auth login --help" },
    );
  }
  const [h, m, sec] = match.slice(1).map((part) => Number(part ?? 0));
  return ((h * 60 + m) * 60 + sec) * 1000;
}

/**
 * Runs `auth login`.
 *
 * @param call the parsed command line
 * @throws {ValidationError} for bad flags
 * @throws {AuthError} without a terminal in CI (unless `--no-wait`, `--device-code` or
 *   `--wait`), on denial, expiry or a timeout
 * @throws {PendingError} when a bounded wait (`--wait`, or one poll for `--device-code` without
 *   a terminal) ends before the sign-in is approved; in JSON mode `{"state": "pending", …}` is
 *   printed first
 */
export async function runLogin(call: CommandCall<LoginFlags>): Promise<void> {
  const options = loginOptions(call.flags);
  await login(await openSession(call.ctx, call.globals), options);
}

/**
 * Signs in on an open session: previews it (`--dry-run`), or checks that the profile can sign
 * in, then either shows the code for a later `--device-code` (`--no-wait`) or waits for the
 * approval and reports who signed in.
 *
 * @param session the command's session
 * @param options the checked flags
 */
export async function login(session: Session, options: LoginOptions): Promise<void> {
  const services = await loadServices();
  const scopes = scopesToRequest(session, options.scopes, userScopesOf(services));
  if (session.globals.dryRun) return previewLogin(session, options, scopes);
  await checkReady(session, options);
  if (!options.wait) return await startForLater(session, scopes);
  const waitMs = waitBound(session.ctx, options);
  refuseUnattendedWait(session, options, waitMs);
  const result = await waitForApproval(session, options, scopes, waitMs);
  reportLogin(session, result, services);
}

/** ` --profile <name>` for a profile other than `default`, for the commands hark suggests. */
function profileFlag(profile: string): string {
  return profile === "default" ? "" : ` --profile ${profile}`;
}

/**
 * `--dry-run`: shows what the sign-in would call (the token endpoint for `--device-code`, else
 * the device authorization with the scopes) and changes nothing.
 */
function previewLogin(session: Session, options: LoginOptions, scopes: string[]): void {
  const { profile } = session;
  const endpoints = endpointsOf(session.service(), session.config.apps?.[profile] ?? {});
  session.previewChange(
    options.deviceCode !== undefined
      ? {
        action: "auth login",
        profile,
        finish: "poll the token endpoint",
        url: endpoints.tokenUrl,
      }
      : {
        action: "auth login",
        profile,
        scopes: [...scopes, SCOPE_OFFLINE],
        device_authorization_url: endpoints.deviceAuthorizationUrl,
        wait: options.wait,
      },
  );
}

/**
 * Checks, before anything reads the keychain (the pending sign-in, the secret), that the profile
 * has an app, a usable service address, and a token path this config may write.
 *
 * @throws {ValidationError} without an app, or for a keychain entry another config may use
 */
async function checkReady(session: Session, options: LoginOptions): Promise<void> {
  session.requireSetup("app");
  session.service();
  await checkLoginTarget(session.ctx, session, options.force);
}

/**
 * `--no-wait`: starts a sign-in, remembers it, and shows the code with the command that finishes
 * it; in JSON mode the codes go to stdout and the instructions to stderr.
 */
async function startForLater(session: Session, scopes: string[]): Promise<void> {
  const { ctx } = session;
  const flag = profileFlag(session.profile);
  const auth = await beginLogin(ctx, session, scopes);
  if (session.wantsJson()) {
    writeData(ctx, session.output, {
      device_code: auth.device_code,
      user_code: auth.user_code,
      verification_uri: auth.verification_uri,
      verification_uri_complete: auth.verification_uri_complete ?? null,
      expires_in: auth.expires_in ?? null,
      interval: auth.interval ?? null,
    });
    ctx.stderr.write(
      instructions(auth) +
        `Then finish the sign-in with: hark auth login${flag} --device-code <device_code>\n`,
    );
  } else {
    ctx.stdout.write(
      instructions(auth) +
        `Then finish the sign-in with:\n  hark auth login${flag} --device-code ${
          shellQuote(auth.device_code)
        }\n`,
    );
  }
}

/**
 * Refuses to start an unbounded wait for a browser in CI without a terminal: nobody would
 * approve it, and the job would hang for the code's lifetime.
 *
 * @throws {AuthError} naming `--no-wait`, `--wait` and `HARK_USER_ACCESS_TOKEN`
 */
function refuseUnattendedWait(
  session: Session,
  options: LoginOptions,
  waitMs: number | undefined,
): void {
  const { ctx } = session;
  if (
    options.deviceCode !== undefined || waitMs !== undefined || ctx.stdin.isTerminal ||
    !ctx.env.get("CI")
  ) {
    return;
  }
  const flag = profileFlag(session.profile);
  throw new AuthError("Refusing to wait for a browser sign-in in CI without a terminal", {
    suggestion: "Start the sign-in with --no-wait, have a person approve it, then finish it " +
      "with --device-code; or bound the wait with --wait; or pass a token in " +
      "HARK_USER_ACCESS_TOKEN",
    command: `hark auth login${flag} --no-wait --json  # then: hark auth login${flag} ` +
      "--device-code <device_code>",
  });
}

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
 * @throws {PendingError} when the bounded wait ends first
 * @throws {AuthError} on denial, expiry or a timeout
 */
async function waitForApproval(
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
 * (exit 75) whose command waits again.
 */
function stillPending(session: Session, state: WaitState): PendingError {
  const { ctx, profile } = session;
  if (session.wantsJson()) {
    writeData(ctx, session.output, {
      state: "pending",
      profile,
      device_code: state.deviceCode ?? null,
      expires_at: state.expiresAt === undefined
        ? null
        : formatRfc3339InZone(state.expiresAt, ctx.timeZone),
    });
  }
  return new PendingError("The sign-in is not approved yet", {
    suggestion: "Approve it in the browser, then run this again (--wait sets how long to wait)",
    command: `hark auth login${profileFlag(profile)}` +
      (state.deviceCode === undefined ? "" : ` --device-code ${shellQuote(state.deviceCode)}`) +
      " --wait 5m",
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
 * Reports the sign-in: the warnings, the scopes not granted with the shortcuts they break, and
 * who signed in (the whole result on stdout in JSON mode, one line on stderr otherwise).
 */
function reportLogin(
  session: Session,
  result: LoginResult,
  services: readonly ServiceGroup[],
): void {
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
    writeData(ctx, session.output, {
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

/**
 * How long a sign-in waits for approval after its first poll, in ms, or `undefined` for as long
 * as the code lives: `--wait` when given; without it, a person at a terminal waits as long as
 * it takes, while `--device-code` without a terminal (or in CI) polls once, so that a script
 * never blocks for the code's ten minutes.
 *
 * @param ctx the context
 * @param options the checked flags
 */
export function waitBound(ctx: Context, options: LoginOptions): number | undefined {
  if (options.waitMs !== undefined) return options.waitMs;
  const person = ctx.stdin.isTerminal && !ctx.env.get("CI");
  return options.deviceCode !== undefined && !person ? 0 : undefined;
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

/** How to approve the sign-in; every part came from the server, so none may drive the terminal. */
function instructions(auth: DeviceAuthorization): string {
  const safe = (text: string) => terminalSafe(text, { breaks: "escape" });
  let text = `To sign in, open ${safe(auth.verification_uri)}\nand enter the code: ` +
    `${safe(auth.user_code)}\n`;
  if (auth.verification_uri_complete) {
    text += `(or open ${safe(auth.verification_uri_complete)})\n`;
  }
  return text;
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
