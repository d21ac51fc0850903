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
import { logIdNote, logIdOf, serviceMsg } from "./service_text.ts";

/**
 * SPEC's meaning of 230001, which starts its message. Lark's IM service uses the code for an
 * invalid parameter: the IM shortcuts put that meaning in its place.
 */
export const SPEC_230001_MEANING = "Token invalid or expired";

/** How the HTTP layer treats an API code. */
export type ApiCodeClass = "token_invalid" | "permission" | "rate_limit" | "server";

/** The app has not enabled the scope: fixed in the developer console, not by signing in. */
export const APP_SCOPE_NOT_ENABLED = 99991672;
/** The user has not granted the scope: fixed by signing in again with `--scope`. */
export const USER_SCOPE_NOT_GRANTED = 99991679;

const CLASSES: Record<number, ApiCodeClass> = {
  99991663: "token_invalid",
  99991668: "token_invalid",
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
 * (`server`), or `undefined` for an ordinary API error.
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

/**
 * Lark's scope syntax: two or three colon-separated parts of letters, digits, `_`, `.` and `-`
 * (`calendar:calendar.event:read`, `im:message`), at most {@link MAX_SCOPE_LENGTH} characters.
 */
const SCOPE = /^[\w.-]+(:[\w.-]+){1,2}$/;
/** The longest scope name taken from an answer (Lark's are under 60 characters). */
export const MAX_SCOPE_LENGTH = 128;

/**
 * Whether `text` has the shape of a Lark scope name ({@link SCOPE}). A scope the service names
 * ends up in a recovery command that people and agents run: anything else is dropped.
 *
 * @param text a candidate scope
 */
export function isScopeName(text: unknown): text is string {
  return typeof text === "string" && text.length <= MAX_SCOPE_LENGTH && SCOPE.test(text);
}

/**
 * Reads the scopes of a permission error from `error.permission_violations[].subject`, else from
 * a bracketed list in the message (`... one of these privileges: [a, b]`). Lark lists
 * alternatives: any one of them grants access. Only names with the shape of a scope are kept
 * ({@link isScopeName}): the service's text is not trusted to be one.
 *
 * @param body the service's answer
 */
export function neededScopes(body: ApiErrorBody): string[] {
  const violations = Array.isArray(body.error?.permission_violations)
    ? body.error.permission_violations
    : [];
  const fromViolations = violations.map((v) => v?.subject).filter(isScopeName);
  if (fromViolations.length > 0) return [...new Set(fromViolations)];
  const match = /\[([^\]]+)\]/.exec(typeof body.msg === "string" ? body.msg : "");
  if (!match) return [];
  return [...new Set(match[1].split(/[,\s]+/).filter(isScopeName))];
}

/**
 * The one scope to ask for among alternatives: one the call is known to need (the shortcut's
 * declaration names Lark's current fine-grained scope), else the first the service listed.
 *
 * @param alternatives the service's alternatives, in its order
 * @param declared the scopes the call declares
 */
export function recommendedScope(
  alternatives: readonly string[],
  declared: readonly string[] = [],
): string | undefined {
  return alternatives.find((s) => declared.includes(s)) ?? alternatives[0];
}

/**
 * The developer console's scope-application page of an app on the profile's own domain, as
 * lark-cli's `enrichPermissionError` builds it: `<origin>/page/scope-apply?clientID=<app
 * id>&scopes=<scope>`; the console's app list when the app id is unknown.
 *
 * @param caller who made the call
 * @param scope the scope to apply for
 */
export function consoleUrl(caller: CallerFacts | undefined, scope: string | undefined): string {
  const origin = caller?.serviceOrigin ?? "https://open.larksuite.com";
  if (!caller?.appId) return `${origin}/app`;
  const query = new URLSearchParams({ clientID: caller.appId });
  if (scope) query.set("scopes", scope);
  return `${origin}/page/scope-apply?${query}`;
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
  return new ApiError(`The service answered with code ${body.code}${detail}`, common);
}
