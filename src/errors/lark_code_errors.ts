/**
 * What hark makes of Lark codes beyond SPEC's map that no sign-in or scope fixes: the app's
 * credentials and status, a token that never arrived or is not Lark's, the app's tenant token on
 * a user-only API, and the refusals of a resource (a deleted event, a calendar without an access
 * role, any other code under HTTP 403). `api_code_map.ts` asks here before and after its own
 * classes; each error names the fix that applies, run as the caller.
 *
 * @module
 */

import { ApiError, AuthError, type HarkError } from "./hark_error.ts";
import { shellCommand } from "./shell_quote.ts";
import type { ApiErrorContext, CallerFacts } from "./api_code_map.ts";

/**
 * Calendar: the caller has no access role on the calendar (HTTP 403, "no calendar
 * access_role"; the calendar API's common error table). An ACL, not a scope: only the
 * calendar's owner can share it.
 */
export const NO_CALENDAR_ACCESS = 191002;
/**
 * Calendar: the event was deleted (HTTP 403, "event is deleted"; issue 22's review of the
 * calendar error table). Not a permission problem: the event is gone.
 */
export const EVENT_DELETED = 193003;

/**
 * The app's credentials or status (lark-cli `internal/output/lark_errors.go`, after Lark's
 * generic error codes, server-docs/api-call-guide/generic-error-code): the app id or secret is
 * wrong (99991543); the app is disabled or not installed in this tenant (99991662); the app's
 * status is unavailable, check its installation (99991673). Fixed in the config or the developer
 * console, never by a refresh or a sign-in.
 */
export const APP_CREDENTIALS_INVALID = 99991543;
/** The app is disabled or not installed in this tenant. */
export const APP_NOT_IN_USE = 99991662;
/** The app's status is unavailable (check its installation). */
export const APP_UNAVAILABLE = 99991673;
/**
 * A user access token invalid or expired (lark-cli `lark_errors.go`); also Lark's answer to the
 * app's tenant token on an API that takes user tokens only, which no refresh changes.
 */
export const USER_TOKEN_INVALID = 99991668;
/** No access token was sent (the `Authorization` header is missing or empty). */
export const TOKEN_MISSING = 99991661;
/** The access token is malformed (Lark's start with `t-` or `u-`). */
export const TOKEN_MALFORMED = 99991671;

/**
 * The developer console's page of the profile's app, on the profile's own domain
 * (`<origin>/app/<app id>`); the console's app list when the app id is unknown.
 *
 * @param caller who made the call
 */
export function appPageUrl(caller: CallerFacts | undefined): string {
  const origin = caller?.serviceOrigin ?? "https://open.larksuite.com";
  return caller?.appId ? `${origin}/app/${encodeURIComponent(caller.appId)}` : `${origin}/app`;
}

/**
 * The error for the app's credential and status codes, the token-format codes, and a 99991668
 * while acting as the bot; `undefined` for any other code.
 *
 * @param code the service's code
 * @param context the answer's status and the caller
 * @param detail the service's `msg` and log id, as the message's end
 * @param requestId the answer's log id
 */
export function credentialError(
  code: number,
  context: ApiErrorContext,
  detail: string,
  requestId: string | undefined,
): HarkError | undefined {
  switch (code) {
    case APP_CREDENTIALS_INVALID:
      return new AuthError(`The app id or app secret is wrong (code ${code})${detail}`, {
        requestId,
        apiCode: code,
        type: "config",
        suggestion: "Check the profile's app_id and app_secret against the app's credentials " +
          "page in the developer console, then store them again",
        command: callerCommand(["config", "init", "--force"], profileOnly(context.caller)),
      });
    case APP_NOT_IN_USE:
    case APP_UNAVAILABLE: {
      const url = appPageUrl(context.caller);
      const suggestion = "Check the app's status in the developer console" +
        (context.caller?.appId ? ` (app "${context.caller.appId}")` : "") +
        ": it must be enabled, have a published version and be installed in this tenant " +
        `(an administrator may have to approve it): ${url}`;
      return new AuthError(`The app cannot be used in this tenant (code ${code})${detail}`, {
        requestId,
        apiCode: code,
        type: "app_status",
      }).withRecovery({ suggestion, command: "", url });
    }
    case TOKEN_MISSING:
      return new AuthError(`No access token was sent (code ${code})${detail}`, {
        requestId,
        apiCode: code,
        suggestion: "The service received no Authorization header: a proxy between hark and " +
          "the service may drop it (check HTTPS_PROXY and the proxy's rules); else sign in again",
        command: callerCommand(["auth", "login"], profileOnly(context.caller)),
      });
    case TOKEN_MALFORMED:
      return new AuthError(`The access token is malformed (code ${code})${detail}`, {
        requestId,
        apiCode: code,
        suggestion: 'Lark\'s access tokens start with "u-" (a user\'s) or "t-" (the app\'s): ' +
          "check the token in HARK_USER_ACCESS_TOKEN or HARK_TENANT_ACCESS_TOKEN, or sign in again",
        command: callerCommand(["auth", "login"], profileOnly(context.caller)),
      });
  }
  if (code === USER_TOKEN_INVALID && context.caller?.identity === "bot") {
    return new AuthError(
      `The app's tenant token was refused where Lark takes a user token (code ${code})` +
        detail,
      {
        requestId,
        apiCode: code,
        suggestion: "This API takes a user access token only: call it as the user (without " +
          "--as bot), signed in",
        command: callerCommand(["auth", "login"], profileOnly(context.caller)),
      },
    );
  }
  return undefined;
}

/**
 * The error for a refusal about the resource rather than a scope: 193003 (the event was
 * deleted), 191002 (no access role on the calendar), any other code under HTTP 403;
 * `undefined` otherwise. Call it after the permission codes are handled.
 *
 * @param code the service's code
 * @param context the answer's status and the caller
 * @param detail the service's `msg` and log id, as the message's end
 * @param common the code, status and log id every such error carries
 */
export function resourceError(
  code: number,
  context: ApiErrorContext,
  detail: string,
  common: { apiCode: number; httpStatus?: number; requestId?: string },
): HarkError | undefined {
  if (code === EVENT_DELETED) {
    return new ApiError(`The event was deleted (code ${code})${detail}`, {
      ...common,
      type: "not_found",
      suggestion: "The event no longer exists (it was deleted or cancelled): the events that " +
        "remain are listed by the command below",
      command: callerCommand(["calendar", "+agenda"], context.caller),
    });
  }
  if (code === NO_CALENDAR_ACCESS) {
    return new ApiError(`No access to that calendar (code ${code})${detail}`, {
      ...common,
      type: "permission",
      suggestion: "No scope or sign-in grants access to someone else's calendar: its owner " +
        "has to share it with " +
        (context.caller?.identity === "bot" ? "the app's bot" : "you") +
        "; the calendars this identity can see are listed by the command below",
      command: callerCommand(["calendar", "+calendars"], context.caller),
    });
  }
  if (context.httpStatus === 403) {
    // Only the permission codes above mean a missing scope; any other refusal is about the
    // resource itself (its sharing, its state), which no sign-in changes.
    return new ApiError(`Access denied (HTTP 403, code ${code})${detail}`, {
      ...common,
      type: "permission",
      suggestion: "The service refused this identity access to the resource itself, which no " +
        "scope changes: check the id, and that the resource is shared with this identity",
    });
  }
  return undefined;
}

/** The caller's profile only: for commands that have no `--as`. */
function profileOnly(caller: CallerFacts | undefined): CallerFacts | undefined {
  return caller ? { ...caller, identity: "user" } : undefined;
}

/**
 * A hark command run as the caller: `--as bot` for the bot, `--profile` for a profile other than
 * `default`.
 */
function callerCommand(words: readonly string[], caller: CallerFacts | undefined): string {
  const all = ["hark", ...words];
  if (caller?.identity === "bot") all.push("--as", "bot");
  if (caller?.profile !== undefined && caller.profile !== "default") {
    all.push("--profile", caller.profile);
  }
  return shellCommand(all);
}
