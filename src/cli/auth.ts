/**
 * `hark auth login`, `logout`, `status`, `check` and `token`.
 *
 * @module
 */

import { Command } from "@commander-js/extra-typings";
import type { Context } from "../context.ts";
import { AuthError, ValidationError } from "../errors/mod.ts";
import { resolveFormat, writeData } from "../output/output.ts";
import {
  authStatus,
  botStatus,
  checkScopes,
  completeLogin,
  createTokenSource,
  DEFAULT_SCOPES,
  type DeviceAuthorization,
  endpointsOf,
  type LoginResult,
  logout,
  parseScopes,
  SCOPE_OFFLINE,
  startDeviceAuthorization,
  tenantTokenPath,
  tokenPathOf,
  unusableError,
  userTokenPath,
} from "../auth/mod.ts";
import { clearPendingLogin, savePendingLogin, takePendingLogin } from "../auth/pending_login.ts";
import { createSpinner, formatRemaining } from "../auth/spinner.ts";
import { withExamples } from "./help.ts";
import { openSession, previewChange, type Session, wantsJson } from "./session.ts";

/** The flags of `auth login`. */
export interface LoginFlags {
  /** `--scope`, as given (repeatable, space or comma separated). */
  scope: string[];
  /** False with `--no-wait`. */
  wait: boolean;
  /** `--device-code`. */
  deviceCode?: string;
}

/**
 * Signs in with the device flow, or with `--no-wait` prints the device authorization and
 * returns, or with `--device-code` finishes a sign-in started earlier.
 *
 * @param session the command's session
 * @param flags the command's flags
 * @throws {ValidationError} for a bad scope or conflicting flags
 * @throws {AuthError} without a terminal in CI (unless `--no-wait` or `--device-code`), on
 * denial, expiry or a timeout
 */
export async function runAuthLogin(session: Session, flags: LoginFlags): Promise<void> {
  const { ctx, profile } = session;
  // --scope adds to what the profile already holds, so following a permission error's recovery
  // command never takes away the scopes the user had.
  const granted = (session.config.users?.[profile]?.scopes ?? []).filter((s) =>
    s !== SCOPE_OFFLINE
  );
  const scopes = flags.scope.length > 0
    ? [...new Set([...granted, ...parseScopes(flags.scope)])]
    : [...new Set([...DEFAULT_SCOPES, ...granted])];
  const json = wantsJson(session);
  if (flags.deviceCode !== undefined && !flags.wait) {
    throw new ValidationError("Conflicting flags: --no-wait and --device-code", {
      param: "--device-code",
      suggestion: "Use --no-wait to start a sign-in, then --device-code to finish it",
    });
  }
  if (flags.deviceCode !== undefined && flags.deviceCode.trim() === "") {
    throw new ValidationError("Invalid --device-code: empty", { param: "--device-code" });
  }
  const flag = profile === "default" ? "" : ` --profile ${profile}`;
  if (session.globals.dryRun) {
    const endpoints = endpointsOf(session.config.apps?.[profile] ?? {});
    previewChange(
      session,
      flags.deviceCode !== undefined
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
          wait: flags.wait,
        },
    );
    return;
  }
  if (!flags.wait) {
    const auth = await startDeviceAuthorization(ctx, session, scopes);
    await savePendingLogin(ctx, profile, { ...auth, scopes });
    if (json) {
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
  if (flags.deviceCode === undefined && !ctx.stdin.isTerminal && ctx.env.get("CI")) {
    throw new AuthError(
      "Refusing to wait for a browser sign-in in CI without a terminal",
      {
        suggestion: "Start the sign-in with --no-wait, have a person approve it, then finish it " +
          "with --device-code; or pass a token in HARK_USER_ACCESS_TOKEN",
        command: `hark auth login${flag} --no-wait --json  # then: hark auth login${flag} ` +
          "--device-code <device_code>",
      },
    );
  }
  const spinner = createSpinner(ctx);
  let result: LoginResult;
  try {
    const onTick = (p: { remainingMs?: number }) =>
      spinner.update(
        "Waiting for approval in the browser" +
          (p.remainingMs === undefined
            ? ""
            : ` (code expires in ${formatRemaining(p.remainingMs)})`),
      );
    if (flags.deviceCode !== undefined) {
      ctx.stderr.write("Waiting for the sign-in to be approved...\n");
      const deviceCode = flags.deviceCode.trim();
      const pending = await takePendingLogin(ctx, profile, deviceCode);
      const remaining = pending?.expires_at === undefined
        ? undefined
        : Math.max(0, Math.floor((pending.expires_at - ctx.now()) / 1000));
      try {
        result = await completeLogin(ctx, session, {
          deviceCode,
          interval: pending?.interval,
          expiresIn: remaining,
          scopes: pending?.scopes,
          onTick,
        });
      } finally {
        if (pending) await clearPendingLogin(ctx, profile);
      }
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
  for (const warning of result.warnings) ctx.stderr.write(`warning: ${warning}\n`);
  const { warnings: _, ...data } = result;
  if (json) {
    writeData(ctx, session.output, data);
  } else {
    const who = result.user.name ?? result.user.open_id ?? "the user";
    ctx.stderr.write(`Signed in as ${who} to profile "${profile}"\n`);
  }
}

function instructions(auth: DeviceAuthorization): string {
  let text = `To sign in, open ${auth.verification_uri}\nand enter the code: ${auth.user_code}\n`;
  if (auth.verification_uri_complete) {
    text += `(or open ${auth.verification_uri_complete})\n`;
  }
  return text;
}

/**
 * Prints the sign-in state; fails with exit 3 when the profile cannot get a token.
 *
 * @param session the command's session
 * @throws {AuthError} when signed out, or the session has expired
 */
export async function runAuthStatus(session: Session): Promise<void> {
  const status = session.globals.as === "bot"
    ? await botStatus(session.ctx, session)
    : await authStatus(session.ctx, session);
  if (resolveFormat(session.ctx, session.output) === "json") {
    writeData(session.ctx, session.output, status);
  } else {
    writeData(session.ctx, session.output, {
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

/**
 * Checks that the signed-in user holds `scopes`.
 *
 * @param session the command's session
 * @param scopes the `--scope` values
 * @throws {PermissionError} naming the missing scopes, with the upgrade command
 */
export async function runAuthCheck(session: Session, scopes: string[]): Promise<void> {
  const requested = parseScopes(scopes);
  if (requested.length === 0) {
    throw new ValidationError("Missing --scope: name at least one scope to check", {
      param: "--scope",
    });
  }
  const status = await authStatus(session.ctx, session);
  const result = checkScopes(status, requested);
  writeData(session.ctx, session.output, result);
}

/**
 * Signs out: removes the stored tokens and the user entry. Idempotent.
 *
 * @param session the command's session
 */
export async function runAuthLogout(session: Session): Promise<void> {
  if (session.globals.dryRun) {
    const { ctx, config, profile } = session;
    const paths = new Set([
      tokenPathOf(config, profile),
      userTokenPath(profile),
      tenantTokenPath(profile),
    ]);
    const stored = (await ctx.keychain.list()).filter((p) => paths.has(p));
    previewChange(session, {
      action: "auth logout",
      profile,
      keychain_entries: stored,
      user_entry: config.users?.[profile] !== undefined,
    });
    return;
  }
  const result = await logout(session.ctx, session);
  if (wantsJson(session)) {
    writeData(session.ctx, session.output, result);
  } else if (result.keychain_entries.length > 0 || result.user_entry_removed) {
    session.ctx.stderr.write(`Signed out of profile "${session.profile}"\n`);
  } else {
    session.ctx.stderr.write(`Not signed in to profile "${session.profile}"; nothing to do\n`);
  }
}

/**
 * Prints the current access token (refreshed first when needed) and a newline.
 *
 * @param session the command's session
 */
export async function runAuthToken(session: Session): Promise<void> {
  const source = createTokenSource(session.ctx, {
    config: session.config,
    profile: session.profile,
    configPath: session.configPath,
    identity: session.globals.as ?? "user",
  });
  const { token } = await source.getToken();
  session.ctx.stdout.write(`${token}\n`);
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * The `auth` command group.
 *
 * @param ctx the context
 */
export function authCommand(ctx: Context): Command {
  const auth = new Command("auth").description("Sign in and out, and inspect the sign-in");
  withExamples(auth, ["hark auth login", "hark auth status --json"]);

  const login = new Command("login")
    .description("Sign in with the device flow: approve in a browser, on any device")
    .option(
      "--scope <scope>",
      "a permission to add to those already granted (repeatable, or space/comma separated); " +
        "default: all hark needs",
      collect,
    )
    .option("--no-wait", "print the device code and the sign-in URL, and return without waiting")
    .option("--device-code <code>", "finish a sign-in started with --no-wait")
    .action(async (flags, command) => {
      await runAuthLogin(await openSession(ctx, command), { ...flags, scope: flags.scope ?? [] });
    });
  withExamples(login, [
    "hark auth login",
    "hark auth login --scope calendar:calendar:readonly --scope im:message:send",
    "hark auth login --no-wait --json  # hand the URL to a person",
    "hark auth login --device-code <device_code>  # then finish",
  ]);

  const logoutCommand = new Command("logout")
    .description("Sign out: delete the stored tokens and the user entry")
    .action(async (_flags, command) => runAuthLogout(await openSession(ctx, command)));
  withExamples(logoutCommand, ["hark auth logout", "hark auth logout --profile work"]);

  const status = new Command("status")
    .description("Show the sign-in state: valid, needs_refresh, expired or signed_out")
    .action(async (_flags, command) => runAuthStatus(await openSession(ctx, command)));
  withExamples(status, ["hark auth status", "hark auth status --json"]);

  const check = new Command("check")
    .description("Check that the signed-in user granted the given scopes")
    .option(
      "--scope <scope>",
      "a scope to check (repeatable, or space/comma separated)",
      collect,
    )
    .action(async (flags, command) => {
      await runAuthCheck(await openSession(ctx, command), flags.scope ?? []);
    });
  withExamples(check, ["hark auth check --scope calendar:calendar:readonly"]);

  const token = new Command("token")
    .description("Print the current access token, refreshed first if needed (for piping)")
    .action(async (_flags, command) => runAuthToken(await openSession(ctx, command)));
  withExamples(token, [
    "hark auth token",
    'curl -H "Authorization: Bearer $(hark auth token)" https://open.larksuite.com/open-apis/authen/v1/user_info',
  ]);

  return auth
    .addCommand(login)
    .addCommand(logoutCommand)
    .addCommand(status)
    .addCommand(check)
    .addCommand(token) as unknown as Command;
}
