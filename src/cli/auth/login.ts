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
  finishLogin,
  type LoginResult,
  parseScopes,
  SCOPE_OFFLINE,
  scopesToRequest,
  startDeviceAuthorization,
} from "../../auth/mod.ts";
import { colorEnabled } from "../../output/color.ts";
import { createSpinner } from "../../output/spinner.ts";
import { terminalSafe } from "../../output/terminal_safe.ts";
import { AuthError, ValidationError } from "../../errors/mod.ts";
import { writeData } from "../../output/output.ts";
import type { CommandCall } from "../command_spec.ts";
import { loadServices, shortcutsNeeding, userScopesOf } from "../../shortcuts/services.ts";
import { openSession, type Session } from "../session.ts";

/** The checked flags of `auth login`. */
export interface LoginOptions {
  /** `--scope`, split and checked; empty when none was given. */
  scopes: string[];
  /** False with `--no-wait`. */
  wait: boolean;
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
export function loginOptions(flags: CommandCall["flags"]): LoginOptions {
  const scopes = parseScopes((flags.scope as string[] | undefined) ?? []);
  const wait = flags.wait !== false;
  const deviceCode = flags["device-code"] as string | undefined;
  if (deviceCode !== undefined && !wait) {
    throw new ValidationError("Conflicting flags: --no-wait and --device-code", {
      param: "--device-code",
      suggestion: "Use --no-wait to start a sign-in, then --device-code to finish it",
    });
  }
  if (deviceCode !== undefined && deviceCode.trim() === "") {
    throw new ValidationError("Invalid --device-code: empty", { param: "--device-code" });
  }
  return { scopes, wait, deviceCode: deviceCode?.trim(), force: flags.force === true };
}

/**
 * Runs `auth login`.
 *
 * @param call the parsed command line
 * @throws {ValidationError} for bad flags
 * @throws {AuthError} without a terminal in CI (unless `--no-wait` or `--device-code`), on
 *   denial, expiry or a timeout
 */
export async function runLogin(call: CommandCall): Promise<void> {
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
          `Then finish the sign-in with:\n  hark auth login${flag} --device-code ${auth.device_code}\n`,
      );
    }
    return;
  }
  if (options.deviceCode === undefined && !ctx.stdin.isTerminal && ctx.env.get("CI")) {
    throw new AuthError("Refusing to wait for a browser sign-in in CI without a terminal", {
      suggestion: "Start the sign-in with --no-wait, have a person approve it, then finish it " +
        "with --device-code; or pass a token in HARK_USER_ACCESS_TOKEN",
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
  const onTick = (p: { remainingMs?: number }) =>
    spinner.update(
      "Waiting for approval in the browser" +
        (p.remainingMs === undefined ? "" : ` (code expires in ${formatRemaining(p.remainingMs)})`),
    );
  let result: LoginResult;
  try {
    if (options.deviceCode !== undefined) {
      ctx.stderr.write("Waiting for the sign-in to be approved...\n");
      result = await finishLogin(ctx, session, options.deviceCode, onTick);
    } else {
      const auth = await startDeviceAuthorization(ctx, session, scopes);
      ctx.stderr.write(instructions(auth) + "Waiting for approval...\n");
      result = await completeLogin(ctx, session, {
        deviceCode: auth.device_code,
        interval: auth.interval,
        expiresIn: auth.expires_in,
        scopes,
        onTick,
      });
    }
  } finally {
    spinner.stop();
  }
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
    writeData(ctx, session.output, {
      ...data,
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
