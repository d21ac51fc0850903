/**
 * The service's error codes and what hark makes of them: the spec's map exactly as given (its
 * mapped code is the exit code), plus the Lark codes DESIGN.md lists.
 *
 * @module
 */

import { ExitCode } from "./exit_code.ts";
import { ApiError, AuthError, type HarkError, PermissionError } from "./hark_error.ts";

/** How the HTTP layer treats an API code. */
export type ApiCodeClass = "token_invalid" | "permission" | "rate_limit" | "server";

const CLASSES: Record<number, ApiCodeClass> = {
  99991663: "token_invalid",
  99991668: "token_invalid",
  99991677: "token_invalid",
  99991672: "permission",
  99991679: "permission",
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

/** Context for {@link errorFromApiCode}. */
export interface ApiErrorContext {
  /** The HTTP status of the answer. */
  httpStatus?: number;
  /** The request id of the answer. */
  requestId?: string;
  /** Scopes the caller knows the call needs, used when the answer names none. */
  scopes?: string[];
}

/**
 * Reads the needed scopes of a permission error from `error.permission_violations[].subject`,
 * else from a bracketed list in the message (`... scopes is required: [im:message:send]`).
 *
 * @param body the service's answer
 */
export function neededScopes(body: ApiErrorBody): string[] {
  const fromViolations = (body.error?.permission_violations ?? [])
    .map((v) => v.subject)
    .filter((s): s is string => typeof s === "string" && s.length > 0);
  if (fromViolations.length > 0) return [...new Set(fromViolations)];
  const match = /\[([^\]]+)\]/.exec(body.msg ?? "");
  if (!match) return [];
  return match[1].split(/[,\s]+/).filter((s) => /^[\w.-]+(:[\w.-]+){1,2}$/.test(s));
}

/**
 * The error to show for a service answer with `code != 0`.
 *
 * @param body the service's answer
 * @param context HTTP status, request id and known scopes
 * @returns a {@link PermissionError}, {@link AuthError} or {@link ApiError}
 */
export function errorFromApiCode(body: ApiErrorBody, context: ApiErrorContext = {}): HarkError {
  const common = {
    apiCode: body.code,
    httpStatus: context.httpStatus,
    requestId: context.requestId ?? body.error?.log_id,
  };
  const detail = body.msg ? `: ${body.msg}` : "";
  switch (body.code) {
    case 230001:
      return new AuthError(`Token invalid or expired (code 230001)${detail}`, {
        requestId: common.requestId,
        code: ExitCode.Validation,
        suggestion: "Sign in again",
        command: "hark auth login",
      });
    case 230002: {
      const scopes = pickScopes(body, context);
      return new PermissionError(`Insufficient permission (code 230002)${detail}`, {
        apiCode: body.code,
        requestId: common.requestId,
        code: ExitCode.Validation,
        scopes,
        command: scopes.length > 0 ? undefined : "hark auth login --scope <scope>",
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
        requestId: common.requestId,
      });
    case "permission":
      return new PermissionError(
        `Permission denied (code ${body.code})${detail}`,
        { scopes: pickScopes(body, context), requestId: common.requestId, apiCode: body.code },
      );
    case "rate_limit":
      return new ApiError(`Rate limited by the service (code ${body.code})${detail}`, {
        ...common,
        type: "rate_limit",
        suggestion: "Wait a moment and retry",
      });
  }
  return new ApiError(`The service answered with code ${body.code}${detail}`, common);
}

function pickScopes(body: ApiErrorBody, context: ApiErrorContext): string[] {
  const scopes = neededScopes(body);
  return scopes.length > 0 ? scopes : (context.scopes ?? []);
}
