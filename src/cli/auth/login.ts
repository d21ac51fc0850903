/**
 * `hark auth login`: sign in with the device flow, start a sign-in for someone else to approve
 * (`--no-wait`), or finish one (`--device-code`). The steps: preview (`--dry-run`), check the
 * profile, then show the code for later, or wait for the approval and report.
 *
 * @module
 */

import {
  beginLogin,
  checkLoginTarget,
  endpointsOf,
  SCOPE_OFFLINE,
  scopesToRequest,
} from "../../auth/mod.ts";
import { PendingError, shellQuote } from "../../errors/mod.ts";
import { writeData } from "../../output/output.ts";
import { openSession, type Session } from "../../session/session.ts";
import { loadServices, userScopesOf } from "../../shortcuts/services.ts";
import type { CommandCall } from "../command_spec.ts";
import { instructions, profileFlag } from "./_login_text.ts";
import {
  attended,
  type LoginFlags,
  type LoginOptions,
  loginOptions,
  waitBound,
} from "./login_options.ts";
import { reportLogin } from "./login_report.ts";
import { waitForApproval } from "./wait_for_approval.ts";

/**
 * Runs `auth login`.
 *
 * @param call the parsed command line
 * @throws {ValidationError} for bad flags
 * @throws {AuthError} on denial, expiry or a timeout
 * @throws {PendingError} without a terminal (or in CI) and without `--wait` or `--device-code`,
 *   after printing the device data as `--no-wait --json` does; and when a bounded wait (`--wait`,
 *   or one poll for `--device-code` without a terminal) ends before the sign-in is approved; in
 *   JSON mode `{"state": "pending", …}` is printed first
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
  if (!options.wait) {
    await startForLater(session, scopes, session.wantsJson());
    return;
  }
  const waitMs = waitBound(session.ctx, options);
  if (options.deviceCode === undefined && waitMs === undefined && !attended(session.ctx)) {
    // Nobody is there to approve while this process waits: start the sign-in for later.
    const deviceCode = await startForLater(session, scopes, true);
    const flag = profileFlag(session.profile);
    throw new PendingError("The sign-in waits for a person to approve its code in a browser", {
      suggestion: "Without a terminal hark never waits for a person: have them open " +
        "verification_uri and enter user_code (or open verification_uri_complete), then finish " +
        "with --device-code (one poll, exit 75 while still pending), or add --wait 5m to poll",
      command: `hark auth login${flag} --device-code ${shellQuote(deviceCode)}`,
    });
  }
  const result = await waitForApproval(session, options, scopes, waitMs);
  await reportLogin(session, result, services);
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
 * it; as JSON the codes go to stdout and the instructions to stderr.
 *
 * @returns the device code
 */
async function startForLater(session: Session, scopes: string[], json: boolean): Promise<string> {
  const { ctx } = session;
  const flag = profileFlag(session.profile);
  const auth = await beginLogin(ctx, session, scopes);
  if (json) {
    await writeData(ctx, { ...session.output, format: "json" }, {
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
  return auth.device_code;
}
