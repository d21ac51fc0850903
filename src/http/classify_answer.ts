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
  singleLine,
  USER_TOKEN_INVALID,
} from "../errors/mod.ts";
import { ExitCode } from "../errors/exit_code.ts";
import { isObject } from "../json/fields.ts";
import { NOT_JSON, parseNetworkJson } from "../json/read_json.ts";
import { serviceWait } from "./retry.ts";

/** The facts of an answer that decide its meaning. */
export interface AnswerFacts {
  /** The HTTP status. */
  status: number;
  /** The `Retry-After` header, when present. */
  retryAfter?: string | null;
  /** Lark's gateway header `x-ogw-ratelimit-reset` (seconds), when present. */
  rateLimitReset?: string | null;
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
 * Classifies a business answer. A success is `code` 0 (the number; or no `code` at all) under a
 * 2xx status with a JSON body nested at most `MAX_ANSWER_DEPTH` levels, and resolves with the
 * envelope's `data` (the whole body without an envelope, `undefined` when empty). Otherwise:
 * HTTP 401 or a token-invalid code asks for a refresh; HTTP 403 or a permission code fails at
 * once naming the scopes; HTTP 429 or a rate-limit code may be retried after `Retry-After`; a
 * 5xx or a server code, and a 2xx that is not JSON, may be retried when the request is
 * idempotent; a body nested too deeply or a `code` that is not a number is `invalid_response`;
 * any other API error is final.
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
  const read = readAnswer(answer, request, now);
  return dataOf(read) ?? appRefused(read) ?? tokenRejected(read) ?? permissionDenied(read) ??
    rateLimited(read) ?? serverFailure(read) ?? notFoundOf(read) ?? unreadable(read) ??
    finalError(read);
}

/** An answer as the steps of {@link classifyAnswer} read it. */
interface ReadAnswer {
  /** The answer. */
  answer: AnswerFacts;
  /** The request it answers. */
  request: AnsweredRequest;
  /** The parsed body; `undefined` when empty or unreadable. */
  body: unknown;
  /** Whether the body is empty, or JSON hark can take a verdict from. */
  readable: boolean;
  /** Why it is not: not JSON, nested too deeply, a `code` that is not a number. */
  problem?: string;
  /** The body when it is an envelope with a numeric `code`. */
  envelope?: ApiErrorBody & { data?: unknown };
  /** The envelope's code. */
  apiCode?: number;
  /** What the code map says the code means. */
  kind?: ReturnType<typeof classifyApiCode>;
  /** `METHOD /path`, for messages. */
  where: string;
  /** Whether the status is 2xx. */
  success: boolean;
  /** The wait the answer asks for in ms (`Retry-After`, `x-ogw-ratelimit-reset`), when given. */
  retryAfterMs?: number;
  /** What the code map needs to build an error. */
  context: { httpStatus: number; requestId?: string; scopes?: string[]; caller?: CallerFacts };
}

/** Parses the body and gathers what the classification reads. */
function readAnswer(answer: AnswerFacts, request: AnsweredRequest, now: number): ReadAnswer {
  let body: unknown = undefined;
  let problem: string | undefined;
  if (answer.text.trim() !== "") {
    const parsed = parseNetworkJson(answer.text);
    if (parsed.ok) body = parsed.value;
    else problem = parsed.problem;
  }
  // Success is the number 0 alone: a `code` of another type ("0", true, null) is no verdict.
  if (isObject(body) && "code" in body && typeof body.code !== "number") {
    problem = `its "code" is not a number (${snippet(JSON.stringify(body.code) ?? "")})`;
  }
  const readable = problem === undefined;
  const envelope = readable && isEnvelope(body) ? body : undefined;
  const apiCode = envelope?.code;
  const { status, requestId } = answer;
  return {
    answer,
    request,
    body,
    readable,
    problem,
    envelope,
    apiCode,
    kind: apiCode !== undefined ? classifyApiCode(apiCode) : undefined,
    where: `${request.method} ${request.path}`,
    success: status >= 200 && status < 300,
    retryAfterMs: serviceWait(answer, now),
    context: { httpStatus: status, requestId, scopes: request.scopes, caller: request.caller },
  };
}

/** The code map's error for the envelope; `undefined` without one. */
function fromCode(read: ReadAnswer): HarkError | undefined {
  return read.envelope && errorFromApiCode(read.envelope, read.context);
}

/** Marks `error` as possibly applied when the request was a write (not GET or HEAD). */
function applied(read: ReadAnswer, error: HarkError): HarkError {
  if (read.request.method !== "GET" && read.request.method !== "HEAD") error.mayHaveApplied = true;
  return error;
}

/**
 * A readable 2xx with code 0 or none: the envelope's `data`, else the whole body (`undefined`
 * when empty).
 */
function dataOf(read: ReadAnswer): AnswerVerdict | undefined {
  const { envelope, apiCode } = read;
  if (!read.success || !read.readable || (apiCode !== undefined && apiCode !== 0)) return undefined;
  return { kind: "data", data: envelope && "data" in envelope ? envelope.data : read.body };
}

/**
 * The app's credentials are wrong or the app cannot be used (99991543, 99991662, 99991673), or
 * no token arrived or it is not one of Lark's (99991661, 99991671): final, whatever the status;
 * a refresh would not change it, the config, the console or a sign-in does.
 */
function appRefused(read: ReadAnswer): AnswerVerdict | undefined {
  // The app's tenant token on a user-only API: a new tenant token is refused the same way.
  const botOnUserOnly = read.apiCode === USER_TOKEN_INVALID &&
    read.request.caller?.identity === "bot";
  if (read.kind !== "credentials" && !botOnUserOnly) return undefined;
  const error = fromCode(read);
  return error && { kind: "error", retry: false, error };
}

/** HTTP 401 or a token-invalid code: the token is refreshed and the call tried once more. */
function tokenRejected(read: ReadAnswer): AnswerVerdict | undefined {
  const { envelope, apiCode } = read;
  const { status, requestId } = read.answer;
  if (status !== 401 && read.kind !== "token_invalid") return undefined;
  const error = fromCode(read);
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

/**
 * A permission code, or HTTP 403 naming no other code: final, naming the scopes. A 403 with a
 * code the map does not call a permission code (191002, no access to a calendar; 193003, a
 * deleted event) is about the resource, not a scope: the code map's error says so.
 */
function permissionDenied(read: ReadAnswer): AnswerVerdict | undefined {
  const otherCode = read.apiCode !== undefined && read.apiCode !== 0;
  if (read.kind !== "permission" && (read.answer.status !== 403 || otherCode)) return undefined;
  return {
    kind: "error",
    retry: false,
    error: permissionErrorOf(read.envelope, read.context, read.where),
  };
}

/**
 * HTTP 429 or a rate-limit code (99991400, under HTTP 400 on Lark's older APIs): retried after
 * the wait the service asked for (`Retry-After`, `x-ogw-ratelimit-reset`), else the backoff.
 */
function rateLimited(read: ReadAnswer): AnswerVerdict | undefined {
  const { status, requestId } = read.answer;
  if (status !== 429 && read.kind !== "rate_limit") return undefined;
  const wait = read.retryAfterMs;
  const suggestion = wait !== undefined && wait >= 1000
    ? `The service asked to wait ${Math.ceil(wait / 1000)} s: retry after that`
    : "Wait a moment and retry";
  const error = fromCode(read) ?? new ApiError(
    `Rate limited by the service (HTTP 429) on ${read.where}${logIdNote(requestId)}`,
    { httpStatus: status, requestId, type: "rate_limit" },
  );
  return {
    kind: "error",
    retry: true,
    retryAfterMs: wait,
    error: error.type === "rate_limit"
      ? error.withRecovery({ suggestion, command: error.recovery.command })
      : error,
  };
}

/** A 5xx or a server code: retried when the request is idempotent; a write may be applied. */
function serverFailure(read: ReadAnswer): AnswerVerdict | undefined {
  if (read.answer.status < 500 && read.kind !== "server") return undefined;
  const error = unavailable(
    fromCode(read),
    read.answer,
    read.request,
    read.where,
  );
  return {
    kind: "error",
    retry: read.request.idempotent,
    retryAfterMs: read.retryAfterMs,
    error: applied(read, error),
  };
}

/** A 404 that names no service code (or 404 itself): no such API at this address. */
function notFoundOf(read: ReadAnswer): AnswerVerdict | undefined {
  if (read.answer.status !== 404 || (read.apiCode !== undefined && read.apiCode !== 404)) {
    return undefined;
  }
  return { kind: "error", retry: false, error: notFound(read.answer, read.where) };
}

/**
 * A body hark cannot take a verdict from: not JSON (a 2xx is retried when idempotent: a proxy's
 * page, a cut answer), nested too deeply or with a `code` that is not a number (final: the same
 * answer would come again). A write may have been applied.
 */
function unreadable(read: ReadAnswer): AnswerVerdict | undefined {
  if (read.readable) return undefined;
  const { answer, request } = read;
  const { status, requestId } = answer;
  const notJson = read.problem === NOT_JSON;
  const what = notJson
    ? `is not JSON (HTTP ${status}): ${snippet(answer.text)}`
    : `cannot be read (HTTP ${status}): ${read.problem}`;
  return {
    kind: "error",
    retry: notJson && read.success && request.idempotent,
    error: applied(
      read,
      new ApiError(`The service's answer to ${read.where} ${what}${logIdNote(requestId)}`, {
        httpStatus: status,
        requestId,
        type: "invalid_response",
        suggestion: request.idempotent
          ? "Check the base URL, then retry"
          : "The request may have been applied: check before retrying",
      }),
    ),
  };
}

/** Any other answer: final, the code map's error, else the bare status. */
function finalError(read: ReadAnswer): AnswerVerdict {
  const { status, requestId } = read.answer;
  return {
    kind: "error",
    retry: false,
    error: fromCode(read) ?? new ApiError(
      `The service answered HTTP ${status} to ${read.where}${logIdNote(requestId)}`,
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
  return isObject(body) && typeof body.code === "number";
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
  // JSON escapes C0 controls but not NEL (U+0085) and the other C1 controls.
  return singleLine(JSON.stringify(flat.length > 80 ? `${flat.slice(0, 80)}…` : flat));
}
