/**
 * The client of every business call: bearer auth, the retry policy, and the service's answers
 * turned into data or typed errors.
 *
 * @module
 */

import type { Context } from "../context.ts";
import type { ResolvedToken, TokenSource } from "../auth/token_source.ts";
import { maskSecret } from "../config/mod.ts";
import {
  ApiError,
  type ApiErrorBody,
  AuthError,
  CancelledError,
  classifyApiCode,
  errorFromApiCode,
  HarkError,
  neededScopes,
  NetworkError,
  PermissionError,
} from "../errors/mod.ts";
import { classifyFetchFailure, describeChain } from "./fetch_failure.ts";
import { maskFields, maskUrl } from "./mask_fields.ts";
import { type ApiRequest, requestHeaders, requestUrl } from "./request.ts";
import {
  type AttemptResult,
  DEFAULT_RETRY,
  parseRetryAfter,
  retry,
  type RetryOptions,
} from "./retry.ts";

/** How to build an {@link ApiClient}. */
export interface ApiClientOptions {
  /** The service address, such as `https://open.larksuite.com`; no trailing slash. */
  baseUrl: string;
  /** Where bearer tokens come from. */
  tokens: TokenSource;
  /** Log one line per request, response and retry to stderr, secrets masked; default false. */
  debug?: boolean;
  /** The retry policy; default 3 retries, base 500 ms, cap 8 s, full jitter. */
  retry?: RetryOptions;
  /** Milliseconds one attempt (answer and body) may take before a NetworkError; default 30 000. */
  timeoutMs?: number;
}

const IDEMPOTENT = new Set(["GET", "PUT", "DELETE"]);
const DEBUG_BODY_LIMIT = 1_000;

/** A failure that asks for a token refresh rather than a backoff. */
interface Rejection {
  rejected: true;
  error: HarkError;
}

/**
 * Sends business calls. One per command run; the connection pool is the context's `fetch`.
 *
 * Every call sends `Authorization: Bearer <token>`, `User-Agent: hark/<version>` and
 * `Accept: application/json` (and `Content-Type` with a JSON body), then:
 * - HTTP 401 or a token-invalid code: refreshes the token once and retries at once; a second
 *   rejection is an {@link AuthError};
 * - HTTP 403 or a missing-permission code: a {@link PermissionError} naming the needed scopes and
 *   the `hark auth login --scope` command, at once;
 * - HTTP 429 or code 99991400: backs off (honouring `Retry-After`) and retries;
 * - HTTP 5xx or code 500000, a dropped connection, an unreadable answer: retries when the
 *   request is idempotent (GET, PUT, DELETE, or one with an `idempotencyKey`);
 * - DNS failure or refused connection (the request never left): retries, then a
 *   {@link NetworkError};
 * - a timeout: a {@link NetworkError} at once; Ctrl-C: a {@link CancelledError} at once.
 * At most `retries` (3) retries in all, whatever the mix.
 *
 * @example
 * ```ts
 * const client = new ApiClient(ctx, { baseUrl: "https://open.larksuite.com", tokens });
 * const data = await client.request<{ items: unknown[] }>({
 *   method: "GET",
 *   path: "/open-apis/calendar/v4/calendars/primary/events/instance_view",
 *   query: { start_time: "1700000000", end_time: "1700086400" },
 *   scopes: ["calendar:calendar:readonly"],
 * });
 * ```
 */
export class ApiClient {
  readonly #ctx: Context;
  readonly #options: ApiClientOptions;

  /**
   * @param ctx the context (fetch, clock, sleep, stderr, Ctrl-C signal)
   * @param options base URL, token source, debug, retry policy, timeout
   */
  constructor(ctx: Context, options: ApiClientOptions) {
    this.#ctx = ctx;
    this.#options = options;
  }

  /**
   * Sends the request with auth, retries and classification.
   *
   * @param request the call
   * @returns the envelope's `data` (the whole body when the answer has no `data`, `undefined`
   *   when it is empty)
   * @throws {AuthError} no token, or the token was rejected twice
   * @throws {PermissionError} the token lacks a scope
   * @throws {ApiError} the service answered with an error
   * @throws {NetworkError} the service could not be reached, or timed out
   * @throws {CancelledError} Ctrl-C or `request.signal`
   */
  async request<T = unknown>(request: ApiRequest): Promise<T> {
    const ctx = this.#ctx;
    const outer = request.cleanup ? [] : [ctx.signal];
    const signal = AbortSignal.any(request.signal ? [...outer, request.signal] : outer);
    if (signal.aborted) throw cancelled(request);
    const url = requestUrl(this.#options.baseUrl, request);
    const retries = this.#options.retry?.retries ?? DEFAULT_RETRY.retries;
    let token: ResolvedToken = await this.#tokens(signal, () => this.#options.tokens.getToken());
    let refreshed = false;
    try {
      return await retry<T>(async (attempt) => {
        const result = await this.#attempt<T>(url, request, token.token, signal);
        if (!("rejected" in result)) return result;
        if (refreshed || attempt >= retries) {
          return { ok: false, error: result.error, retry: false };
        }
        const rejected = token.token;
        token = await this.#tokens(
          signal,
          () => this.#options.tokens.refreshAfterRejection(rejected),
        );
        refreshed = true;
        return { ok: false, error: result.error, retry: true, immediate: true };
      }, {
        ...this.#options.retry,
        retries,
        sleep: ctx.sleep,
        signal,
        onRetry: ({ attempt, delayMs, error }) =>
          this.#debug(
            `↻ retry ${attempt + 1}/${retries} of ${request.method} ${maskUrl(url)}` +
              ` in ${delayMs} ms: ${error instanceof Error ? error.message : String(error)}`,
          ),
      });
    } catch (error) {
      if (error instanceof HarkError) throw error;
      if (signal.aborted) throw cancelled(request);
      throw error;
    }
  }

  async #tokens(
    signal: AbortSignal,
    get: () => Promise<ResolvedToken>,
  ): Promise<ResolvedToken> {
    const token = await get();
    if (signal.aborted) throw new CancelledError();
    return token;
  }

  async #attempt<T>(
    url: URL,
    request: ApiRequest,
    token: string,
    outer: AbortSignal,
  ): Promise<AttemptResult<T> | Rejection> {
    const ctx = this.#ctx;
    const timeoutMs = this.#options.timeoutMs ?? 30_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([outer, timeout]);
    const idempotent = IDEMPOTENT.has(request.method) || request.idempotencyKey !== undefined;
    const hasBody = request.body !== undefined;
    const started = ctx.now();
    this.#debug(
      `→ ${request.method} ${maskUrl(url)} (Authorization: Bearer ${maskSecret(token)})` +
        (hasBody ? ` ${debugBody(request.body)}` : ""),
    );
    let status = 0;
    let text: string;
    let headers: Headers;
    try {
      const response = await ctx.fetch(url, {
        method: request.method,
        headers: requestHeaders(token, hasBody),
        body: hasBody ? JSON.stringify(request.body) : undefined,
        signal,
      });
      status = response.status;
      headers = response.headers;
      try {
        text = await response.text();
      } catch (error) {
        return this.#brokenAnswer(error, url, request, started, status, idempotent, outer, {
          timeout,
          timeoutMs,
        });
      }
    } catch (error) {
      return this.#noAnswer(error, url, request, started, idempotent, outer, {
        timeout,
        timeoutMs,
      });
    }
    return this.#classify<T>(url, request, started, status, headers, text, idempotent);
  }

  #noAnswer(
    error: unknown,
    url: URL,
    request: ApiRequest,
    started: number,
    idempotent: boolean,
    outer: AbortSignal,
    limit: { timeout: AbortSignal; timeoutMs: number },
  ): AttemptResult<never> {
    const where = `${request.method} ${maskUrl(url)}`;
    const host = url.host;
    this.#debug(`✗ ${where} ${this.#ctx.now() - started} ms: ${describeChain(error)}`);
    if (outer.aborted) return { ok: false, error: cancelled(request), retry: false };
    if (limit.timeout.aborted) {
      return { ok: false, retry: false, error: timedOut(url, limit.timeoutMs, error) };
    }
    const kind = classifyFetchFailure(error);
    if (kind === "dns") {
      return {
        ok: false,
        retry: true,
        error: new NetworkError(`Cannot resolve host "${host}"`, {
          suggestion: `Check the base URL and your DNS or network connection, then retry`,
          command: "hark profile list",
          cause: error,
        }),
      };
    }
    if (kind === "connect") {
      return {
        ok: false,
        retry: true,
        error: new NetworkError(`Cannot connect to "${host}"`, {
          suggestion: `Check that "${host}" is reachable (network, proxy, base URL), then retry`,
          cause: error,
        }),
      };
    }
    return {
      ok: false,
      retry: idempotent,
      error: new NetworkError(
        `Connection to "${host}" was lost during ${request.method} ${url.pathname}`,
        {
          suggestion: idempotent
            ? `Check your connection to "${host}" and retry`
            : "The request may have been applied: check before retrying",
          cause: error,
        },
      ),
    };
  }

  #brokenAnswer(
    error: unknown,
    url: URL,
    request: ApiRequest,
    started: number,
    status: number,
    idempotent: boolean,
    outer: AbortSignal,
    limit: { timeout: AbortSignal; timeoutMs: number },
  ): AttemptResult<never> {
    this.#debug(
      `✗ ${status} ${request.method} ${maskUrl(url)} ${this.#ctx.now() - started} ms: ` +
        `cannot read the answer: ${describeChain(error)}`,
    );
    if (outer.aborted) return { ok: false, error: cancelled(request), retry: false };
    if (limit.timeout.aborted) {
      return { ok: false, retry: false, error: timedOut(url, limit.timeoutMs, error) };
    }
    return {
      ok: false,
      retry: idempotent,
      error: new ApiError(
        `Cannot read the service's answer to ${request.method} ${url.pathname}: the connection ` +
          "broke mid-answer",
        {
          httpStatus: status,
          type: "invalid_response",
          suggestion: idempotent
            ? "Retry"
            : "The request may have been applied: check before retrying",
          cause: error,
        },
      ),
    };
  }

  #classify<T>(
    url: URL,
    request: ApiRequest,
    started: number,
    status: number,
    headers: Headers,
    text: string,
    idempotent: boolean,
  ): AttemptResult<T> | Rejection {
    const requestId = headers.get("x-tt-logid") ?? headers.get("x-request-id") ?? undefined;
    let body: unknown = undefined;
    let readable = true;
    if (text.trim() !== "") {
      try {
        body = JSON.parse(text);
      } catch {
        readable = false;
      }
    }
    const envelope = isEnvelope(body) ? body : undefined;
    const apiCode = envelope?.code;
    this.#debug(
      `← ${status} ${request.method} ${maskUrl(url)} ${this.#ctx.now() - started} ms` +
        (apiCode !== undefined ? ` code=${apiCode}` : "") +
        (requestId ? ` log_id=${requestId}` : "") +
        (readable ? (body === undefined ? "" : ` ${debugBody(body)}`) : " (not JSON)"),
    );
    const where = `${request.method} ${url.pathname}`;
    const success = status >= 200 && status < 300;
    if (success && readable && (apiCode === undefined || apiCode === 0)) {
      const data = envelope && "data" in envelope ? envelope.data : body;
      return { ok: true, value: data as T };
    }
    const context = { httpStatus: status, requestId, scopes: request.scopes };
    const kind = apiCode !== undefined ? classifyApiCode(apiCode) : undefined;
    if (status === 401 || kind === "token_invalid") {
      const error = envelope ? errorFromApiCode(envelope, context) : undefined;
      return {
        rejected: true,
        error: error instanceof AuthError ? error : new AuthError(
          `The service rejected the access token (HTTP ${status}${
            apiCode !== undefined ? `, code ${apiCode}` : ""
          })${envelope?.msg ? `: ${envelope.msg}` : ""}`,
        ),
      };
    }
    if (status === 403 || kind === "permission" || apiCode === 230002) {
      return { ok: false, retry: false, error: permissionError(envelope, context, where) };
    }
    if (status === 429 || kind === "rate_limit") {
      return {
        ok: false,
        retry: true,
        retryAfterMs: parseRetryAfter(headers.get("retry-after"), this.#ctx.now()),
        error: envelope ? errorFromApiCode(envelope, context) : new ApiError(
          `Rate limited by the service (HTTP 429) on ${where}`,
          {
            httpStatus: status,
            requestId,
            type: "rate_limit",
            suggestion: "Wait a moment and retry",
          },
        ),
      };
    }
    if (status >= 500 || apiCode === 500000) {
      return {
        ok: false,
        retry: idempotent,
        retryAfterMs: parseRetryAfter(headers.get("retry-after"), this.#ctx.now()),
        error: envelope ? errorFromApiCode(envelope, context) : new ApiError(
          `The service failed with HTTP ${status} on ${where}`,
          {
            httpStatus: status,
            requestId,
            type: "server_error",
            suggestion: idempotent
              ? "Retry later"
              : "The request may have been applied: check before retrying",
          },
        ),
      };
    }
    if (!readable) {
      return {
        ok: false,
        retry: success && idempotent,
        error: new ApiError(
          `The service's answer to ${where} is not JSON (HTTP ${status}): ${snippet(text)}`,
          {
            httpStatus: status,
            requestId,
            type: "invalid_response",
            suggestion: idempotent
              ? "Check the base URL, then retry"
              : "The request may have been applied: check before retrying",
          },
        ),
      };
    }
    return {
      ok: false,
      retry: false,
      error: envelope
        ? errorFromApiCode(envelope, context)
        : new ApiError(`The service answered HTTP ${status} to ${where}`, {
          httpStatus: status,
          requestId,
        }),
    };
  }

  #debug(line: string): void {
    if (this.#options.debug) this.#ctx.stderr.write(`[debug] ${line}\n`);
  }
}

function isEnvelope(body: unknown): body is ApiErrorBody & { data?: unknown } {
  return typeof body === "object" && body !== null && !Array.isArray(body) &&
    typeof (body as { code?: unknown }).code === "number";
}

function permissionError(
  envelope: (ApiErrorBody & { data?: unknown }) | undefined,
  context: { httpStatus: number; requestId?: string; scopes?: string[] },
  where: string,
): HarkError {
  if (envelope) {
    const error = errorFromApiCode(envelope, context);
    if (error instanceof PermissionError) return error;
  }
  const named = envelope ? neededScopes(envelope) : [];
  const scopes = named.length > 0 ? named : (context.scopes ?? []);
  const detail = envelope?.msg ? `: ${envelope.msg}` : "";
  const code = envelope ? `, code ${envelope.code}` : "";
  return new PermissionError(
    `Permission denied on ${where} (HTTP ${context.httpStatus}${code})${detail}`,
    { scopes },
  );
}

function cancelled(request: ApiRequest): CancelledError {
  return new CancelledError(`Cancelled ${request.method} ${request.path}`);
}

function timedOut(url: URL, timeoutMs: number, cause: unknown): NetworkError {
  return new NetworkError(`No answer from "${url.host}" within ${timeoutMs / 1000} s`, {
    suggestion: `Check your connection to "${url.host}", then retry; the service may be slow`,
    cause,
  });
}

function debugBody(body: unknown): string {
  const text = JSON.stringify(maskFields(body));
  return text.length > DEBUG_BODY_LIMIT ? `${text.slice(0, DEBUG_BODY_LIMIT)}…` : text;
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(flat.length > 80 ? `${flat.slice(0, 80)}…` : flat);
}
