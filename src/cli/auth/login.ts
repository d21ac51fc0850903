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

/** The parsed flags of `auth login`. */
export type LoginFlags = FlagValuesOf<typeof LOGIN_FLAGS>;
import { loadServices, shortcutsNeeding, userScopesOf } from "../../shortcuts/services.ts";
import { openSession, type Session } from "../session.ts";

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
 * Signs in on an open session.
 *
 * @param session the command's session
 * @param options the checked flags
 */
export async function login(session: Session, options: LoginOptions): Promise<void> {
  const { ctx, profile } = session;
  const services = await loadServices();
  const scopes = scopesToRequest(session, options.scopes, userScopesOf(services));
  const flag = profile === "default" ? "" : ` --profile ${profile}`;
  if (session.globals.dryRun) {
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
    return;
  }
  // Before anything reads the keychain (the pending sign-in, the secret): no app, no sign-in.
  session.requireSetup("app");
  session.service();
  await checkLoginTarget(ctx, session, options.force);
  if (!options.wait) {
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
    return;
  }
  const waitMs = waitBound(ctx, options);
  if (
    options.deviceCode === undefined && waitMs === undefined && !ctx.stdin.isTerminal &&
    ctx.env.get("CI")
  ) {
    throw new AuthError("Refusing to wait for a browser sign-in in CI without a terminal", {
      suggestion: "Start the sign-in with --no-wait, have a person approve it, then finish it " +
        "with --device-code; or bound the wait with --wait; or pass a token in " +
        "HARK_USER_ACCESS_TOKEN",
      command: `hark auth login${flag} --no-wait --json  # then: hark auth login${flag} ` +
        "--device-code <device_code>",
    });
  }
  const spinner = createSpinner(ctx, {
    color: colorEnabled(ctx, ctx.stderr, {
      color: session.globals.color,
      preference: session.config.preferences?.color,
    }),
  });
  let pendingCode = options.deviceCode;
  let pendingExpiry: number | undefined;
  const stopAfter = stopWaitingAfter(ctx, waitMs, () => {
    if (session.wantsJson()) {
      writeData(ctx, session.output, {
        state: "pending",
        profile,
        device_code: pendingCode ?? null,
        expires_at: pendingExpiry === undefined
          ? null
          : formatRfc3339InZone(pendingExpiry, ctx.timeZone),
      });
    }
    return new PendingError("The sign-in is not approved yet", {
      suggestion: "Approve it in the browser, then run this again (--wait sets how long to wait)",
      command: `hark auth login${flag}` +
        (pendingCode === undefined ? "" : ` --device-code ${shellQuote(pendingCode)}`) +
        " --wait 5m",
    });
  });
  const onTick = (p: PollProgress) => {
    stopAfter(p);
    spinner.update(
      "Waiting for approval in the browser" +
        (p.remainingMs === undefined ? "" : ` (code expires in ${formatRemaining(p.remainingMs)})`),
    );
  };
  // A sign-in that ends pending is remembered (`--no-wait`'s record), so a later
  // `--device-code` polls as the server asked; any other end forgets it.
  let remembered = false;
  let pendingPath = pendingLoginPath(profile, session.config.keychain_namespace);
  let result: LoginResult;
  try {
    if (options.deviceCode !== undefined) {
      ctx.stderr.write("Waiting for the sign-in to be approved...\n");
      const pending = await takePendingLogin(ctx, pendingPath, options.deviceCode);
      remembered = pending !== undefined;
      pendingExpiry = pending?.expires_at;
      result = await completeLogin(ctx, session, {
        deviceCode: options.deviceCode,
        interval: pending?.interval,
        expiresIn: pendingExpiry === undefined
          ? undefined
          : Math.max(0, Math.floor((pendingExpiry - ctx.now()) / 1000)),
        scopes: pending?.scopes,
        onTick,
      });
    } else {
      // A bounded wait may end pending: then the sign-in is finished later with --device-code.
      let auth: DeviceAuthorization;
      if (waitMs === undefined) auth = await startDeviceAuthorization(ctx, session, scopes);
      else {
        const begun = await beginLogin(ctx, session, scopes);
        pendingPath = begun.pendingPath;
        auth = begun;
      }
      remembered = waitMs !== undefined;
      pendingCode = auth.device_code;
      pendingExpiry = auth.expires_in === undefined
        ? undefined
        : ctx.now() + auth.expires_in * 1000;
      ctx.stderr.write(instructions(auth) + "Waiting for approval...\n");
      result = await completeLogin(ctx, session, {
        deviceCode: auth.device_code,
        interval: auth.interval,
        expiresIn: auth.expires_in,
        scopes,
        onTick,
      });
    }
  } catch (error) {
    if (remembered && !(error instanceof PendingError)) await clearPendingLogin(ctx, pendingPath);
    throw error;
  } finally {
    spinner.stop();
  }
  if (remembered) await clearPendingLogin(ctx, pendingPath);
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
