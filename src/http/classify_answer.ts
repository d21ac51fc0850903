/**
 * What a business answer means: data, a rejected token (refresh and retry once), or an error and
 * whether another attempt may help. Pure: the table-driven test in `classify_answer_test.ts`
 * lists every case. What each API code means is decided in `src/errors/api_code_map.ts`.
 *
 * @module
 */

import {
  ApiError,
  type ApiErrorBody,
  AuthError,
  type CallerFacts,
  classifyApiCode,
  errorFromApiCode,
  type HarkError,
  logIdNote,
  logIdOf,
  neededScopes,
  PermissionError,
  permissionError,
  serviceMsg,
} from "../errors/mod.ts";
import { ExitCode } from "../errors/exit_code.ts";
import { parseRetryAfter } from "./retry.ts";

/** The facts of an answer that decide its meaning. */
export interface AnswerFacts {
  /** The HTTP status. */
  status: number;
  /** The `Retry-After` header, when present. */
  retryAfter?: string | null;
  /** The body as text. */
  text: string;
  /** The service's log id. */
  requestId?: string;
}

/** The facts of the request that was answered. */
export interface AnsweredRequest {
  /** The method. */
  method: string;
  /** The path, for messages. */
  path: string;
  /** Scopes the call needs, named when the service names none. */
  scopes?: string[];
  /** Whether sending it again is harmless. */
  idempotent: boolean;
  /** Who made the call (identity, profile, app), for a permission error's recovery. */
  caller?: CallerFacts;
}

/** What an answer means. */
export type AnswerVerdict =
  | { kind: "data"; data: unknown }
  | { kind: "token_rejected"; error: HarkError }
  | { kind: "error"; error: HarkError; retry: boolean; retryAfterMs?: number };

/**
 * Classifies a business answer. A success is `code` 0 (or no `code`) under a 2xx status with a
 * JSON body, and resolves with the envelope's `data` (the whole body without an envelope,
 * `undefined` when empty). Otherwise: HTTP 401 or a token-invalid code asks for a refresh;
 * HTTP 403 or a permission code fails at once naming the scopes; HTTP 429 or a rate-limit code
 * may be retried after `Retry-After`; a 5xx or a server code, and an unreadable 2xx, may be
 * retried when the request is idempotent; any other API error is final.
 *
 * @param answer the answer
 * @param request the request it answers
 * @param now the current time, epoch ms (for a `Retry-After` date)
 */
export function classifyAnswer(
  answer: AnswerFacts,
  request: AnsweredRequest,
  now: number,
): AnswerVerdict {
  const { status, requestId } = answer;
  let body: unknown = undefined;
  let readable = true;
  if (answer.text.trim() !== "") {
    try {
      body = JSON.parse(answer.text);
    } catch {
      readable = false;
    }
  }
  const envelope = isEnvelope(body) ? body : undefined;
  const apiCode = envelope?.code;
  const where = `${request.method} ${request.path}`;
  const success = status >= 200 && status < 300;
  if (success && readable && (apiCode === undefined || apiCode === 0)) {
    return { kind: "data", data: envelope && "data" in envelope ? envelope.data : body };
  }
  const context = { httpStatus: status, requestId, scopes: request.scopes, caller: request.caller };
  const fromCode = () => errorFromApiCode(envelope!, context);
  // A write answered by a server failure may still have been applied.
  const mayHaveApplied = request.method !== "GET" && request.method !== "HEAD";
  const applied = (error: HarkError) => {
    if (mayHaveApplied) error.mayHaveApplied = true;
    return error;
  };
  const kind = apiCode !== undefined ? classifyApiCode(apiCode) : undefined;
  const retryAfterMs = parseRetryAfter(answer.retryAfter ?? null, now);
  const maybeApplied = "The request may have been applied: check before retrying";
  if (status === 401 || kind === "token_invalid") {
    const error = envelope ? fromCode() : undefined;
    const msg = serviceMsg(envelope?.msg);
    return {
      kind: "token_rejected",
      error: error instanceof AuthError ? error : new AuthError(
        `The service rejected the access token (HTTP ${status}${
          apiCode !== undefined ? `, code ${apiCode}` : ""
        })${msg ? `: ${msg}` : ""}${logIdNote(requestId)}`,
        { requestId },
      ),
    };
  }
  if (status === 403 || kind === "permission") {
    return { kind: "error", retry: false, error: permissionErrorOf(envelope, context, where) };
  }
  if (status === 429 || kind === "rate_limit") {
    return {
      kind: "error",
      retry: true,
      retryAfterMs,
      error: envelope ? fromCode() : new ApiError(
        `Rate limited by the service (HTTP 429) on ${where}${logIdNote(requestId)}`,
        {
          httpStatus: status,
          requestId,
          type: "rate_limit",
          suggestion: "Wait a moment and retry",
        },
      ),
    };
  }
  if (status >= 500 || kind === "server") {
    return {
      kind: "error",
      retry: request.idempotent,
      retryAfterMs,
      error: applied(unavailable(envelope ? fromCode() : undefined, answer, request, where)),
    };
  }
  if (status === 404 && (apiCode === undefined || apiCode === 404)) {
    return { kind: "error", retry: false, error: notFound(answer, where) };
  }
  if (!readable) {
    return {
      kind: "error",
      retry: success && request.idempotent,
      error: applied(
        new ApiError(
          `The service's answer to ${where} is not JSON (HTTP ${status}): ${snippet(answer.text)}${
            logIdNote(requestId)
          }`,
          {
            httpStatus: status,
            requestId,
            type: "invalid_response",
            suggestion: request.idempotent ? "Check the base URL, then retry" : maybeApplied,
          },
        ),
      ),
    };
  }
  return {
    kind: "error",
    retry: false,
    error: envelope ? fromCode() : new ApiError(
      `The service answered HTTP ${status} to ${where}${logIdNote(requestId)}`,
      { httpStatus: status, requestId },
    ),
  };
}

/**
 * The error for a 5xx or a server code once retries are spent: the service is unavailable, exit
 * 4 like the spec's code 500000 (the code map's own error when it gives one of that type), the
 * service's code and message kept in the text.
 */
function unavailable(
  fromCode: HarkError | undefined,
  answer: AnswerFacts,
  request: AnsweredRequest,
  where: string,
): HarkError {
  if (fromCode?.type === "server_error") return fromCode;
  const detail = fromCode ? `; ${fromCode.message}` : logIdNote(answer.requestId);
  return new ApiError(`The service is unavailable: HTTP ${answer.status} on ${where}${detail}`, {
    httpStatus: answer.status,
    apiCode: fromCode instanceof ApiError ? fromCode.apiCode : undefined,
    requestId: answer.requestId,
    code: ExitCode.Network,
    type: "server_error",
    suggestion: request.idempotent
      ? "The service may be down or overloaded: try again in a few minutes"
      : "The request may have been applied: check before trying again in a few minutes",
  });
}

/**
 * The error for a 404 that names no service code: no such API at this address. The path of a
 * shortcut is right, so the address is the likely culprit; for `hark api`, the path is.
 */
function notFound(answer: AnswerFacts, where: string): HarkError {
  return new ApiError(`Not found: the service has no ${where} (HTTP 404)`, {
    httpStatus: answer.status,
    requestId: answer.requestId,
    type: "not_found",
    suggestion: "Check the method and path against Lark's API reference, and that the " +
      "profile's base_url is the Open Platform's address (such as https://open.larksuite.com)",
    command: "hark config get apps",
  });
}

function isEnvelope(body: unknown): body is ApiErrorBody & { data?: unknown } {
  return typeof body === "object" && body !== null && !Array.isArray(body) &&
    typeof (body as { code?: unknown }).code === "number";
}

function permissionErrorOf(
  envelope: (ApiErrorBody & { data?: unknown }) | undefined,
  context: { httpStatus: number; requestId?: string; scopes?: string[]; caller?: CallerFacts },
  where: string,
): HarkError {
  if (envelope) {
    const error = errorFromApiCode(envelope, context);
    if (error instanceof PermissionError) return error;
  }
  return permissionError({
    what: `Permission denied on ${where} (HTTP ${context.httpStatus}${
      envelope ? `, code ${envelope.code}` : ""
    })`,
    apiCode: envelope?.code,
    msg: envelope?.msg,
    alternatives: envelope ? neededScopes(envelope) : [],
  }, { ...context, requestId: context.requestId ?? logIdOf(envelope?.error?.log_id) });
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(flat.length > 80 ? `${flat.slice(0, 80)}…` : flat);
}
