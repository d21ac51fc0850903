/**
 * The client of every business call: bearer auth, the retry policy, and the service's answers
 * turned into data or typed errors. Sending is the transport's job (`transport.ts`), reading an
 * answer `classify_answer.ts`'s, judging a failure `failure_error.ts`'s.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { ApiError, AuthError, type CallerFacts, CancelledError, HarkError } from "../errors/mod.ts";
import { classifyAnswer } from "./classify_answer.ts";
import {
  type DownloadedFile,
  type DownloadTarget,
  MAX_DOWNLOAD_BYTES,
  saveBody,
  TRANSFER_TIMEOUT_MS,
} from "./download.ts";
import { judgeFailure } from "./failure_error.ts";
import { maskUrl } from "./mask_fields.ts";
import { terminalSafe } from "../output/terminal_safe.ts";
import { type MultipartBody, openMultipart } from "./multipart.ts";
import { type ApiRequest, requestHeaders, requestUrl } from "./request.ts";
import { type AttemptResult, DEFAULT_RETRY, retry, type RetryOptions } from "./retry.ts";
import { send, type TransportAnswer, TransportFailure } from "./transport.ts";

/** A bearer token ready to send. */
export interface BearerToken {
  /** The credential, sent as `Authorization: Bearer <token>`. */
  token: string;
  /**
   * The origin the token may be sent to (the service that issued it); a request to any other
   * origin is refused before anything is sent. Absent: no restriction known.
   */
  origin?: string;
}

/**
 * Where the client gets bearer tokens, and how it asks for a new one after the service rejected
 * one. The credential chain (`src/auth/`) implements it; the HTTP layer knows nothing more of it.
 */
export interface BearerTokenSource {
  /**
   * A usable token.
   *
   * @throws {AuthError} when there is none
   */
  getToken(): Promise<BearerToken>;
  /**
   * A new token after the service rejected `rejected` (single-flight in the implementation).
   *
   * @throws {AuthError} when the token cannot be refreshed
   */
  refreshAfterRejection(rejected: string): Promise<BearerToken>;
}

/** How to build an {@link ApiClient}. */
export interface ApiClientOptions {
  /** The service address, such as `https://open.larksuite.com`; no trailing slash. */
  baseUrl: string;
  /** Where bearer tokens come from. */
  tokens: BearerTokenSource;
  /** The retry policy; default 3 retries, base 500 ms, cap 8 s, full jitter. */
  retry?: RetryOptions;
  /** Milliseconds one attempt (answer and body) may take before a NetworkError; default 30 000. */
  timeoutMs?: number;
  /** Who calls (identity, profile, app), for the recovery of permission errors. */
  caller?: CallerFacts;
}

const IDEMPOTENT = new Set(["GET", "PUT", "DELETE"]);

/** The state of one call across its attempts. */
interface Call {
  request: ApiRequest;
  url: URL;
  idempotent: boolean;
  signal: AbortSignal;
  token: BearerToken;
  refreshed: boolean;
}

/** Saves the body of a streamed answer (a download); its TransportFailures may be retried. */
type SaveBody<T> = (
  answer: TransportAnswer & { body: ReadableStream<Uint8Array> },
  url: URL,
) => Promise<T>;

/**
 * Sends business calls. One per identity per command run; the connection pool is the context's
 * `fetch`.
 *
 * Every call sends `Authorization: Bearer <token>`, `User-Agent: hark/<version>` and
 * `Accept: application/json` (and `Content-Type` with a JSON body) to the origin its token was
 * issued for and nowhere else, logs to `ctx.debug`, follows redirects only within
 * the service's origin, then:
 * - HTTP 401 or a token-invalid code: refreshes the token once and retries at once; a second
 *   rejection is an {@link AuthError};
 * - HTTP 403 or a missing-permission code: a {@link PermissionError} naming the needed scopes and
 *   the `hark auth login --scope` command, at once;
 * - HTTP 429 or a rate-limit code (99991400, under HTTP 400 too): waits what the service asked
 *   for (`Retry-After` or Lark's `x-ogw-ratelimit-reset`, at most a minute), else backs off, and
 *   retries;
 * - HTTP 5xx or a server code, a dropped connection, an unreadable answer: retries when the
 *   request is idempotent (GET, PUT, DELETE, or one with an `idempotencyKey`);
 * - DNS failure or refused connection (the request never left): retries, then a
 *   {@link NetworkError};
 * - a timeout: a {@link NetworkError} at once; Ctrl-C: a {@link CancelledError} at once.
 * At most `retries` (3) retries in all, whatever the mix.
 *
 * A request with a `form` is an upload: its file is streamed as `multipart/form-data`, opened
 * again for each attempt, and retried like a GET when the request is `repeatable`. A
 * {@link ApiClient.download} streams the answer's body to disk instead of reading it. Both may
 * take {@link TRANSFER_TIMEOUT_MS}.
 *
 * @example
 * ```ts
 * const client = new ApiClient(ctx, { baseUrl: "https://open.larksuite.com", tokens });
 * const data = await client.request({
 *   method: "GET",
 *   path: "/open-apis/calendar/v4/calendars/primary/events/instance_view",
 *   query: { start_time: "1700000000", end_time: "1700086400" },
 *   scopes: ["calendar:calendar.event:read"],
 * });
 * const items = objectsField(data, "items"); // json/fields.ts: checked, never asserted
 * ```
 */
export class ApiClient {
  readonly #ctx: Context;
  readonly #options: ApiClientOptions;

  /**
   * @param ctx the context (fetch, clock, sleep, stderr, Ctrl-C signal)
   * @param options base URL, token source, retry policy, timeout
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
   *   when it is empty), as `unknown`: read it with the typed readers of `json/fields.ts`. A type
   *   argument `T` is taken on trust, unchecked; it stays only for callers not yet converted
   * @throws {AuthError} no token, or the token was rejected twice
   * @throws {PermissionError} the token lacks a scope
   * @throws {ApiError} the service answered with an error
   * @throws {NetworkError} the service could not be reached, or timed out
   * @throws {CancelledError} Ctrl-C or `request.signal`
   */
  request<T = unknown>(request: ApiRequest): Promise<T> {
    return this.#call<T>(request);
  }

  /**
   * Sends a GET whose answer is a file and streams its body to disk (see `download.ts`): into a
   * temporary file beside the target, its bytes counted as written against `Content-Length`
   * and {@link MAX_DOWNLOAD_BYTES}, renamed into place when whole. A JSON answer is the service's
   * error, classified as for {@link ApiClient.request}. A body that breaks off is downloaded
   * again from the start (GET is idempotent); one that passes the cap or its announced length is
   * not (the same answer would come again). No attempt leaves a partial file.
   *
   * @param request the call
   * @param target where the file goes, and whether it may replace one
   * @returns where the file was written, its size and type
   * @throws what {@link ApiClient.request} throws; `Deno.errors.AlreadyExists` when the target
   *   exists and may not be replaced, and the file system's other errors, as they are
   */
  download(request: ApiRequest, target: DownloadTarget): Promise<DownloadedFile> {
    return this.#call<DownloadedFile>(request, (answer, url) => {
      const where = { method: request.method, url };
      return saveBody(this.#ctx, answer.body, answer.headers, target, {
        readFailure: answer.bodyFailure ??
          ((cause) => new TransportFailure("broken", where, { status: answer.status, cause })),
        tooLarge: () =>
          new TransportFailure("too_large", where, {
            status: answer.status,
            maxBodyBytes: MAX_DOWNLOAD_BYTES,
          }),
        // A size failure: the same answer would come again, so it is final, never retried.
        longerThanAnnounced: (expected) =>
          new ApiError(
            `The service's answer to ${request.method} ${url.pathname} went on past the ` +
              `${expected} bytes its Content-Length announced; hark stopped reading it`,
            {
              httpStatus: answer.status,
              requestId: answer.requestId,
              type: "invalid_response",
              suggestion: "Check the profile's base_url points at the Open Platform; a proxy " +
                "in between may be rewriting answers",
              command: "hark config get apps",
            },
          ),
        wrongLength: (received, expected) =>
          new TransportFailure("broken", where, {
            status: answer.status,
            cause: new Error(`received ${received} of the ${expected} bytes announced`),
          }),
      });
    });
  }

  async #call<T>(request: ApiRequest, save?: SaveBody<T>): Promise<T> {
    const ctx = this.#ctx;
    const signal = AbortSignal.any([
      ...(request.cleanup ? [] : [ctx.signal]),
      ...(request.signal ? [request.signal] : []),
    ]);
    if (signal.aborted) throw cancelled(request, signal.reason);
    const retries = this.#options.retry?.retries ?? DEFAULT_RETRY.retries;
    const call: Call = {
      request,
      url: requestUrl(this.#options.baseUrl, request),
      idempotent: IDEMPOTENT.has(request.method) || request.idempotencyKey !== undefined ||
        request.repeatable === true,
      signal,
      token: await this.#token(signal, () => this.#options.tokens.getToken()),
      refreshed: false,
    };
    try {
      return await retry<T>((attempt) => this.#attempt<T>(call, attempt, retries, save), {
        ...this.#options.retry,
        retries,
        sleep: ctx.sleep,
        signal,
        onRetry: ({ attempt, delayMs, error }) => {
          ctx.debug(() =>
            terminalSafe(
              `↻ retry ${attempt + 1}/${retries} of ${request.method} ${maskUrl(call.url)}` +
                ` in ${delayMs} ms: ${error instanceof Error ? error.message : String(error)}`,
              { breaks: "escape" },
            )
          );
          if (delayMs >= 1000) {
            const what = error instanceof HarkError && error.type === "rate_limit"
              ? "Rate limited"
              : "The service did not answer well";
            ctx.status(
              `${what}, retrying in ${Math.ceil(delayMs / 1000)} s ` +
                `(attempt ${attempt + 2} of ${retries + 1})`,
            );
          }
        },
      });
    } catch (error) {
      if (error instanceof HarkError) throw error;
      if (signal.aborted) throw cancelled(request, error);
      throw error;
    }
  }

  async #attempt<T>(
    call: Call,
    attempt: number,
    retries: number,
    save?: SaveBody<T>,
  ): Promise<AttemptResult<T>> {
    const { request } = call;
    const hasBody = request.body !== undefined;
    const headers = requestHeaders(call.token.token, hasBody);
    let body: string | ReadableStream<Uint8Array> | undefined;
    let form: MultipartBody | undefined;
    if (request.form) {
      form = await openMultipart(this.#ctx, request.form);
      headers["Content-Type"] = form.contentType;
      body = form.stream;
    } else if (hasBody) body = JSON.stringify(request.body);
    const transfer = request.form !== undefined || save !== undefined;
    let answer;
    try {
      answer = await send(this.#ctx, {
        method: request.method,
        url: call.url,
        headers,
        body,
        redirects: "same-origin",
        timeoutMs: this.#options.timeoutMs ?? (transfer ? TRANSFER_TIMEOUT_MS : 30_000),
        signal: request.signal,
        ignoreInterrupt: request.cleanup,
        streamAnswer: save &&
          ((status, headers) => status >= 200 && status < 300 && !isJson(headers)),
      });
      if (save && answer.body) {
        return { ok: true, value: await save({ ...answer, body: answer.body }, call.url) };
      }
    } catch (error) {
      // The file grew past its limit while it was sent: that, not the broken send, is final.
      const stopped = form?.failure();
      if (stopped) throw stopped;
      if (!(error instanceof TransportFailure)) throw error;
      const verdict = judgeFailure(error, call.idempotent);
      return { ok: false, error: verdict.error, retry: verdict.retry };
    }
    const verdict = classifyAnswer(
      {
        status: answer.status,
        retryAfter: answer.headers.get("retry-after"),
        rateLimitReset: answer.headers.get("x-ogw-ratelimit-reset"),
        text: answer.text,
        requestId: answer.requestId,
      },
      {
        method: request.method,
        path: call.url.pathname,
        scopes: request.scopes,
        idempotent: call.idempotent,
        caller: this.#options.caller,
      },
      this.#ctx.now(),
    );
    switch (verdict.kind) {
      case "data":
        if (save) {
          return {
            ok: false,
            retry: false,
            error: new ApiError(
              `The service answered ${request.method} ${call.url.pathname} with JSON, not a file`,
              { type: "invalid_response", requestId: answer.requestId, httpStatus: answer.status },
            ),
          };
        }
        // Why: `request<T>` takes the caller's word for the answer's type (see its doc); with the
        // default `unknown` this asserts nothing. A download (`save`) never gets here.
        return { ok: true, value: verdict.data as T };
      case "error":
        return {
          ok: false,
          error: verdict.error,
          retry: verdict.retry,
          retryAfterMs: verdict.retryAfterMs,
        };
      case "token_rejected": {
        if (call.refreshed || attempt >= retries) {
          return { ok: false, error: verdict.error, retry: false };
        }
        const rejected = call.token.token;
        call.token = await this.#token(
          call.signal,
          () => this.#options.tokens.refreshAfterRejection(rejected),
        );
        call.refreshed = true;
        return { ok: false, error: verdict.error, retry: true, immediate: true };
      }
    }
  }

  async #token(signal: AbortSignal, get: () => Promise<BearerToken>): Promise<BearerToken> {
    const token = await get();
    if (signal.aborted) throw new CancelledError("Cancelled", { cause: signal.reason });
    // A token goes only to the origin that issued it.
    const origin = new URL(this.#options.baseUrl).origin;
    if (token.origin !== undefined && token.origin !== origin) {
      throw new AuthError(`Refusing to send a token issued by "${token.origin}" to "${origin}"`, {
        suggestion: "A token is sent only to the service that issued it: sign in again for " +
          `"${origin}", or point the profile back at "${token.origin}"`,
        command: "hark auth login",
      });
    }
    return token;
  }
}

/** Whether an answer's `Content-Type` says JSON (the service's envelope). */
function isJson(headers: Headers): boolean {
  return /^application\/([\w.+-]*\+)?json\b/i.test(headers.get("content-type") ?? "");
}

function cancelled(request: ApiRequest, cause: unknown): CancelledError {
  return new CancelledError(`Cancelled ${request.method} ${request.path}`, { cause });
}
