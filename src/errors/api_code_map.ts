/**
 * The service's error codes and what hark makes of them: the spec's map exactly as given (its
 * mapped code is the exit code), plus the Lark codes DESIGN.md lists. Every message carries the
 * service's own `msg` and the answer's log id, so a user who meets Lark's meaning of a code that
 * the spec maps otherwise (230001, 230002 in IM) still sees it, bounded and checked as
 * `service_text.ts` cleans it.
 *
 * @module
 */

import { ExitCode } from "./exit_code.ts";
import {
  ApiError,
  AuthError,
  type HarkError,
  loginCommand,
  PermissionError,
} from "./hark_error.ts";
import { shellCommand } from "./shell_quote.ts";
import { logIdNote, logIdOf, serviceMsg } from "./service_text.ts";
import {
  appPageUrl,
  consoleUrl,
  isScopeName,
  MAX_SCOPE_LENGTH,
  neededScopes,
  recommendedScope,
} from "./scope_facts.ts";

export { appPageUrl, consoleUrl, isScopeName, MAX_SCOPE_LENGTH, neededScopes, recommendedScope };

/**
 * SPEC's meaning of 230001, which starts its message. Lark's IM service uses the code for an
 * invalid parameter: the IM shortcuts put that meaning in its place.
 */
export const SPEC_230001_MEANING = "Token invalid or expired";

/** How the HTTP layer treats an API code. */
export type ApiCodeClass =
  | "token_invalid"
  | "permission"
  | "rate_limit"
  | "server"
  | "credentials";

/** The app has not enabled the scope: fixed in the developer console, not by signing in. */
export const APP_SCOPE_NOT_ENABLED = 99991672;
/** The user has not granted the scope: fixed by signing in again with `--scope`. */
export const USER_SCOPE_NOT_GRANTED = 99991679;
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

const CLASSES: Record<number, ApiCodeClass> = {
  [APP_CREDENTIALS_INVALID]: "credentials",
  [APP_NOT_IN_USE]: "credentials",
  [APP_UNAVAILABLE]: "credentials",
  // No token arrived (a proxy dropped the header), or not one of Lark's: a refresh sends the
  // same way, so these are final too.
  [TOKEN_MISSING]: "credentials",
  [TOKEN_MALFORMED]: "credentials",
  99991663: "token_invalid",
  [USER_TOKEN_INVALID]: "token_invalid",
  99991677: "token_invalid",
  [APP_SCOPE_NOT_ENABLED]: "permission",
  99991676: "permission",
  [USER_SCOPE_NOT_GRANTED]: "permission",
  230027: "permission",
  230002: "permission",
  99991400: "rate_limit",
  500000: "server",
};

/**
 * How the HTTP layer treats `apiCode`: refresh and retry (`token_invalid`), fail at once with the
 * needed scope (`permission`), back off (`rate_limit`), retry when the request is idempotent
 * (`server`), fail at once with the fix of the app's credentials or the token's form
 * (`credentials`), or `undefined` for an ordinary API error.
 *
 * @param apiCode the `code` of a service envelope
 */
export function classifyApiCode(apiCode: number): ApiCodeClass | undefined {
  return CLASSES[apiCode];
}

/** The parts of a service error answer that the map reads. */
export interface ApiErrorBody {
  /** The service's `code`. */
  code: number;
  /** The service's `msg`. */
  msg?: string;
  /** The service's `error` object (`permission_violations`, `log_id`, ...). */
  error?: { permission_violations?: { subject?: string }[]; log_id?: string };
}

/** Who made a call, for the recovery of a permission error. */
export interface CallerFacts {
  /** The identity the call acted as. */
  identity: "user" | "bot";
  /** The profile, named in recovery commands when it is not `default`. */
  profile?: string;
  /** The app id, for the developer console's scope page. */
  appId?: string;
  /** The origin of the profile's service (`https://open.feishu.cn`), where its console lives. */
  serviceOrigin?: string;
}

/** Context for {@link errorFromApiCode}. */
export interface ApiErrorContext {
  /** The HTTP status of the answer. */
  httpStatus?: number;
  /** The request id of the answer. */
  requestId?: string;
  /** Scopes the caller knows the call needs (all of them), used when the answer names none. */
  scopes?: string[];
  /** Who made the call. */
  caller?: CallerFacts;
}

/** The facts a permission error is built from. */
export interface PermissionFacts {
  /** What was denied, such as `Permission denied (code 99991679)` or `Permission denied on GET /x`. */
  what: string;
  /** The service's code, when it gave one. */
  apiCode?: number;
  /** The service's `msg`. */
  msg?: string;
  /** The service's alternatives (any one grants access). */
  alternatives: string[];
  /** The exit code, when not 1. */
  code?: number;
}

/**
 * The permission error to show, with the recovery that fits who lacks the scope:
 * - the app (99991672), or any permission error while acting as the bot: the developer console's
 *   scope page for the profile's app on the profile's domain; a user then signs in again
 *   granting the scope;
 * - the user (99991679 and the rest): sign in again with `--scope` for ONE of the alternatives,
 *   or for every one the call declares when the service names several of those: a call's
 *   declared scopes are all needed (Lark's message create as a user needs
 *   im:message.send_as_user and im:message both, and names both when both are missing).
 *
 * @param facts what the service said
 * @param context the answer's status and log id, the declared scopes, the caller
 */
export function permissionError(facts: PermissionFacts, context: ApiErrorContext): PermissionError {
  const { caller } = context;
  const requestId = context.requestId;
  const declared = context.scopes ?? [];
  const scope = recommendedScope(facts.alternatives, declared);
  // The call's declared scopes are all needed: those the service names are all asked for. Else
  // one of the service's alternatives; without any, every declared scope.
  const named = facts.alternatives.filter((s) => declared.includes(s));
  const scopes = named.length > 1 ? named : scope !== undefined ? [scope] : [...declared];
  const login = loginCommand(scopes, caller?.profile);
  const quoted = scopes.map((s) => `"${s}"`).join(", ");
  const choice = scopes.length === 1 && facts.alternatives.length > 1
    ? ` (any one of ${facts.alternatives.map((s) => `"${s}"`).join(", ")} would do)`
    : "";
  const msg = serviceMsg(facts.msg);
  const message = `${facts.what}${msg ? `: ${msg}` : ""}${logIdNote(requestId)}`;
  const common = {
    code: facts.code,
    apiCode: facts.apiCode,
    scopes,
    alternatives: facts.alternatives,
    requestId,
  };
  const appLacks = facts.apiCode === APP_SCOPE_NOT_ENABLED;
  if (appLacks || caller?.identity === "bot") {
    const url = consoleUrl(caller, scopes[0]);
    const app = caller?.appId ? `app "${caller.appId}"` : "the app";
    const enable = scopes.length > 0
      ? `Enable ${quoted}${choice} for ${app} in the developer console`
      : `Enable the scope this call needs for ${app} in the developer console`;
    const userToo = caller?.identity !== "bot";
    return new PermissionError(message, {
      ...common,
      url,
      suggestion: `${enable} (an administrator may have to approve it): ${url}` +
        (userToo ? "; then sign in again granting it" : ""),
      // The bot needs nothing more from hark once the app has the scope.
      command: userToo ? login : "",
    });
  }
  return new PermissionError(message, {
    ...common,
    suggestion: scopes.length > 0
      ? `Sign in again granting ${quoted}${choice}`
      : "Ask an administrator to grant the app the permission, then sign in again",
    command: login,
  });
}

/**
 * The error to show for a service answer with `code != 0`. Its message always holds the
 * service's `msg` and the answer's log id.
 *
 * @param body the service's answer
 * @param context HTTP status, request id, known scopes and the caller
 * @returns a {@link PermissionError}, {@link AuthError} or {@link ApiError}
 */
export function errorFromApiCode(body: ApiErrorBody, context: ApiErrorContext = {}): HarkError {
  const requestId = context.requestId ?? logIdOf(body.error?.log_id);
  const common = { apiCode: body.code, httpStatus: context.httpStatus, requestId };
  const msg = serviceMsg(body.msg);
  const detail = (msg ? `: ${msg}` : "") + logIdNote(requestId);
  const withLogId = { ...context, requestId };
  switch (body.code) {
    case 230001:
      return new AuthError(`${SPEC_230001_MEANING} (code 230001)${detail}`, {
        requestId,
        apiCode: body.code,
        code: ExitCode.Validation,
        suggestion: "Sign in again",
        command: "hark auth login",
      });
    case 230002: {
      const error = permissionError({
        what: "Insufficient permission (code 230002)",
        apiCode: body.code,
        msg: body.msg,
        alternatives: neededScopes(body),
        code: ExitCode.Validation,
      }, {
        ...withLogId,
        // The spec's recovery is a sign-in, whoever made the call.
        caller: context.caller ? { ...context.caller, identity: "user" } : undefined,
      });
      // The spec's recovery: a login with --scope, even when the scope is unknown.
      return error.scopes.length > 0 ? error : error.withRecovery({
        suggestion: "Sign in again granting the scope the call needs",
        command: "hark auth login --scope <scope>",
      });
    }
    case 999914:
      return new ApiError(`Multi-factor verification needed (code 999914)${detail}`, {
        ...common,
        code: ExitCode.Validation,
        type: "mfa",
        suggestion: "Complete the verification in your account's security settings, then retry",
        command: "",
      });
    case 500000:
      return new ApiError(`Service temporarily unavailable (code 500000)${detail}`, {
        ...common,
        code: ExitCode.Network,
        type: "server_error",
        suggestion: "Retry later",
        command: "",
      });
  }
  switch (body.code) {
    case APP_CREDENTIALS_INVALID:
      return new AuthError(`The app id or app secret is wrong (code ${body.code})${detail}`, {
        requestId,
        apiCode: body.code,
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
      return new AuthError(`The app cannot be used in this tenant (code ${body.code})${detail}`, {
        requestId,
        apiCode: body.code,
        type: "app_status",
      }).withRecovery({ suggestion, command: "", url });
    }
    case TOKEN_MISSING:
      return new AuthError(`No access token was sent (code ${body.code})${detail}`, {
        requestId,
        apiCode: body.code,
        suggestion: "The service received no Authorization header: a proxy between hark and " +
          "the service may drop it (check HTTPS_PROXY and the proxy's rules); else sign in again",
        command: callerCommand(["auth", "login"], profileOnly(context.caller)),
      });
    case TOKEN_MALFORMED:
      return new AuthError(`The access token is malformed (code ${body.code})${detail}`, {
        requestId,
        apiCode: body.code,
        suggestion: 'Lark\'s access tokens start with "u-" (a user\'s) or "t-" (the app\'s): ' +
          "check the token in HARK_USER_ACCESS_TOKEN or HARK_TENANT_ACCESS_TOKEN, or sign in again",
        command: callerCommand(["auth", "login"], profileOnly(context.caller)),
      });
  }
  if (body.code === USER_TOKEN_INVALID && context.caller?.identity === "bot") {
    return new AuthError(
      `The app's tenant token was refused where Lark takes a user token (code ${body.code})` +
        detail,
      {
        requestId,
        apiCode: body.code,
        suggestion: "This API takes a user access token only: call it as the user (without " +
          "--as bot), signed in",
        command: callerCommand(["auth", "login"], profileOnly(context.caller)),
      },
    );
  }
  switch (classifyApiCode(body.code)) {
    case "token_invalid":
      return new AuthError(`Access token invalid or expired (code ${body.code})${detail}`, {
        requestId,
        apiCode: body.code,
      });
    case "permission":
      return permissionError({
        what: body.code === APP_SCOPE_NOT_ENABLED
          ? `The app has not enabled the scope this call needs (code ${body.code})`
          : body.code === USER_SCOPE_NOT_GRANTED
          ? `The user has not granted the scope this call needs (code ${body.code})`
          : `Permission denied (code ${body.code})`,
        apiCode: body.code,
        msg: body.msg,
        alternatives: neededScopes(body),
      }, withLogId);
    case "rate_limit":
      return new ApiError(`Rate limited by the service (code ${body.code})${detail}`, {
        ...common,
        type: "rate_limit",
        suggestion: "Wait a moment and retry",
      });
  }
  if (body.code === EVENT_DELETED) {
    return new ApiError(`The event was deleted (code ${body.code})${detail}`, {
      ...common,
      type: "not_found",
      suggestion: "The event no longer exists (it was deleted or cancelled): the events that " +
        "remain are listed by the command below",
      command: callerCommand(["calendar", "+agenda"], context.caller),
    });
  }
  if (body.code === NO_CALENDAR_ACCESS) {
    return new ApiError(`No access to that calendar (code ${body.code})${detail}`, {
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
    return new ApiError(`Access denied (HTTP 403, code ${body.code})${detail}`, {
      ...common,
      type: "permission",
      suggestion: "The service refused this identity access to the resource itself, which no " +
        "scope changes: check the id, and that the resource is shared with this identity",
    });
  }
  return new ApiError(`The service answered with code ${body.code}${detail}`, common);
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
