/**
 * The token endpoint (RFC 6749 §3.2): one call with the device-code or the refresh grant, and
 * what its answer means: tokens, a refusal (RFC 6749's `error` or Lark's numeric `code`), or a
 * transient failure worth another attempt.
 *
 * @module
 */

import type { Context } from "../context.ts";
import {
  ApiError,
  classifyApiCode,
  errorFromApiCode,
  type HarkError,
  logIdNote,
  serviceMsg,
} from "../errors/mod.ts";
import { TransportFailure } from "../http/transport.ts";
import {
  type AppCredentials,
  exchange,
  firstText,
  formRequest,
  type HttpAnswer,
  numberOf,
  RATE_LIMITED,
  signInFailure,
} from "./oauth_client.ts";
import type { TokenGrant } from "./token_record.ts";

/** The device-code grant type. */
export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/** How one call of the token endpoint ended. */
export type TokenAnswer =
  | { kind: "tokens"; grant: TokenGrant }
  | {
    kind: "error";
    /** RFC 6749's `error`, else `code_<code>` for an answer with only Lark's numeric code. */
    error: string;
    /** Lark's numeric `code`, when the answer has one (20026, 20037, 20064, 20073, …). */
    code?: number;
    description?: string;
    status: number;
    requestId?: string;
  }
  | {
    kind: "transient";
    /** Why, for a progress line. */
    reason: string;
    /** The error to show when no retry is left: classified as a business call's would be. */
    error: HarkError;
    /** Lark's numeric `code`, when the answer has one (20050: busy). */
    code?: number;
  };

/** Lark's code of a busy token endpoint: worth one retry. */
export const TOKEN_ENDPOINT_BUSY = 20050;

/** A transient {@link TokenAnswer}. */
type Transient = Extract<TokenAnswer, { kind: "transient" }>;

/**
 * Calls the token endpoint once, with client credentials in the form body. A network failure,
 * a rate limit (429), a busy or failing server (5xx, code 20050) or an unreadable answer is
 * `transient`, carrying the error a business call would end with (rate limit exit 1, network
 * exit 4, broken or unreadable answer exit 1); an RFC 6749 error or a Lark code is `error`.
 *
 * @param ctx the context
 * @param url the token URL
 * @param credentials the app credentials
 * @param fields the grant's fields (`grant_type` and its parameters)
 * @throws {CancelledError} on Ctrl-C
 * @throws {ApiError} for a redirect or an oversized answer (never followed, never retried)
 */
export async function callTokenEndpoint(
  ctx: Context,
  url: string,
  credentials: AppCredentials,
  fields: Record<string, string>,
): Promise<TokenAnswer> {
  const answer = await postGrant(ctx, url, credentials, fields);
  if ("kind" in answer) return answer;
  const facts = factsOf(url, answer);
  return rateLimited(facts) ?? serverBusy(facts) ?? unreadable(facts) ?? tokensOf(facts) ??
    refusalOf(facts);
}

/**
 * Posts the grant's fields with the client credentials in the form body. A failure to get an
 * answer is transient, except a redirect or an oversized answer, which is thrown.
 *
 * @throws {ApiError} for a redirect or an oversized answer
 */
async function postGrant(
  ctx: Context,
  url: string,
  credentials: AppCredentials,
  fields: Record<string, string>,
): Promise<HttpAnswer | Transient> {
  const form = { ...fields, client_id: credentials.appId, client_secret: credentials.appSecret };
  try {
    return await exchange(ctx, url, formRequest(form));
  } catch (error) {
    if (!(error instanceof TransportFailure)) throw error;
    const judged = signInFailure(error);
    if (error.reason === "redirect" || error.reason === "too_large") throw judged;
    return { kind: "transient", reason: judged.message, error: judged };
  }
}

/** What the steps of {@link callTokenEndpoint} read from an answer. */
interface AnswerFacts {
  /** The HTTP status. */
  status: number;
  /** The service's log id. */
  requestId?: string;
  /** The JSON body, when the answer is a JSON object. */
  body: Record<string, unknown> | undefined;
  /** Lark's numeric `code`. */
  code?: number;
  /** The service's `msg` or `error_description`. */
  msg?: string;
  /** The message's tail: `: <msg>` and the log id note. */
  detail: string;
  /** The endpoint, for messages. */
  where: string;
}

/** Reads the facts the classification needs from an answer. */
function factsOf(url: string, answer: HttpAnswer): AnswerFacts {
  const { status, requestId, json: body } = answer;
  const msg = firstText(body, "msg", "error_description");
  return {
    status,
    requestId,
    body,
    code: typeof body?.code === "number" ? body.code : undefined,
    msg,
    detail: `${msg ? `: ${msg}` : ""}${logIdNote(requestId)}`,
    where: `the token endpoint "${url}"`,
  };
}

/** HTTP 429 or Lark's rate-limit code: transient, a `rate_limit` error when retries run out. */
function rateLimited(facts: AnswerFacts): Transient | undefined {
  const { status, code, requestId } = facts;
  if (status !== 429 && code !== RATE_LIMITED) return undefined;
  return {
    kind: "transient",
    reason: `rate limited (HTTP ${status})`,
    code,
    error: new ApiError(`Rate limited by ${facts.where} (HTTP ${status})${facts.detail}`, {
      httpStatus: status,
      apiCode: code,
      requestId,
      type: "rate_limit",
      suggestion: "Wait a moment and retry",
    }),
  };
}

/**
 * A 5xx or Lark's busy code (20050): transient, and when retries run out the error a business
 * call would end with: the spec's server code (500000) its own (exit 4), any other failure an
 * {@link ApiError} of type `server_error`.
 */
function serverBusy(facts: AnswerFacts): Transient | undefined {
  const { status, code, requestId, msg } = facts;
  if (status < 500 && code !== TOKEN_ENDPOINT_BUSY) return undefined;
  const what = `HTTP ${status}${code !== undefined ? `, code ${code}` : ""}`;
  return {
    kind: "transient",
    reason: what,
    code,
    error: code !== undefined && classifyApiCode(code) === "server"
      ? errorFromApiCode({ code, msg }, { httpStatus: status, requestId })
      : new ApiError(`The token endpoint is unavailable (${what})${facts.detail}`, {
        httpStatus: status,
        apiCode: code,
        requestId,
        type: "server_error",
        suggestion: "Retry later",
      }),
  };
}

/** A body that is not a JSON object: transient, an `invalid_response` error at the end. */
function unreadable(facts: AnswerFacts): Transient | undefined {
  const { status, requestId } = facts;
  if (facts.body !== undefined) return undefined;
  return {
    kind: "transient",
    reason: `unreadable answer (HTTP ${status})`,
    error: new ApiError(
      `The answer of ${facts.where} is not JSON (HTTP ${status})${logIdNote(requestId)}`,
      {
        httpStatus: status,
        requestId,
        type: "invalid_response",
        suggestion: "Check the base URL, then retry",
      },
    ),
  };
}

/** HTTP 200 with a non-empty `access_token`: the grant, each optional field kept when typed. */
function tokensOf(facts: AnswerFacts): TokenAnswer | undefined {
  const { body } = facts;
  if (facts.status !== 200 || typeof body?.access_token !== "string" || !body.access_token) {
    return undefined;
  }
  const text = (value: unknown) => typeof value === "string" ? value : undefined;
  return {
    kind: "tokens",
    grant: {
      access_token: body.access_token,
      expires_in: numberOf(body.expires_in),
      refresh_token: text(body.refresh_token),
      refresh_token_expires_in: numberOf(body.refresh_token_expires_in),
      scope: text(body.scope),
      token_type: text(body.token_type),
    },
  };
}

/**
 * Any other answer is a refusal: RFC 6749's `error`, else `code_<code>` for Lark's non-zero
 * code, else `invalid_response`.
 */
function refusalOf(facts: AnswerFacts): TokenAnswer {
  const { body, code, status } = facts;
  // The service's own word: cut and on one line, as it reaches messages.
  const error = serviceMsg(body?.error) ??
    (code !== undefined && code !== 0 ? `code_${code}` : "invalid_response");
  return {
    kind: "error",
    error,
    code: code !== 0 ? code : undefined,
    description: facts.msg ?? `HTTP ${status}`,
    status,
    requestId: facts.requestId,
  };
}
