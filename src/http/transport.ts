/**
 * The one way hark sends an HTTP request, for business calls and sign-in alike: a time limit on
 * the context's clock composed with Ctrl-C, the redirect policy, the answer read with a size
 * cap, fetch failures sorted by whether the request may have reached the service, and `--debug`
 * lines with every secret masked. What a status or a body means is the caller's business.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { CancelledError, logIdOf } from "../errors/mod.ts";
import { classifyFetchFailure, describeChain } from "./fetch_failure.ts";
import { maskFields, maskHeaders, maskUrl } from "./mask_fields.ts";
import { terminalSafe } from "../output/terminal_safe.ts";
import { NOT_JSON, parseNetworkJson } from "../json/read_json.ts";

/** The most bytes of a JSON answer hark reads: 8 MiB (Lark's pages are far smaller). */
export const MAX_JSON_BYTES = 8 * 1024 * 1024;

/** How many redirects within one origin are followed at most. */
const MAX_REDIRECTS = 5;

/** The characters of a body shown on a `--debug` line. */
const DEBUG_BODY_LIMIT = 1_000;

/**
 * Which redirects a request follows: `none` (sign-in and token calls, whose bodies carry
 * credentials), or `same-origin` (business calls: a redirect to the same scheme, host and port
 * that keeps the method — 307 and 308, or 301, 302 and 303 for a GET).
 */
export type RedirectPolicy = "none" | "same-origin";

/** One request. */
export interface TransportRequest {
  /** The HTTP method. */
  method: string;
  /** The full URL. */
  url: URL;
  /** The headers; `Authorization` is masked in debug lines. */
  headers: Record<string, string>;
  /**
   * The body: JSON or form text, bytes, a multipart form, or a stream (sent chunked; a redirect
   * of a request with a stream body is never followed, since the stream cannot be sent twice).
   */
  body?: string | Uint8Array<ArrayBuffer> | FormData | ReadableStream<Uint8Array>;
  /** Which redirects are followed. */
  redirects: RedirectPolicy;
  /** Milliseconds the whole exchange (answer and body) may take. */
  timeoutMs: number;
  /** The most bytes of the answer read; default {@link MAX_JSON_BYTES}. */
  maxBodyBytes?: number;
  /**
   * Decides from an answer's status and headers to leave its body unread (a download): the
   * answer's `body` is then the stream, still bound to the time limit and Ctrl-C.
   */
  streamAnswer?: (status: number, headers: Headers) => boolean;
  /** Cancels the request, besides Ctrl-C and the time limit. */
  signal?: AbortSignal;
  /**
   * A clean-up call that must run even after Ctrl-C (undoing half of a two-step change): only
   * `signal` and the time limit end it.
   */
  ignoreInterrupt?: boolean;
}

/** An answer, its body read in full. */
export interface TransportAnswer {
  /** The HTTP status. */
  status: number;
  /** The headers. */
  headers: Headers;
  /** The body as text (UTF-8); empty when the body is streamed. */
  text: string;
  /**
   * The unread body, when {@link TransportRequest.streamAnswer} asked for it: Deno's own stream,
   * so piping it into a file stays out of JavaScript. A failure to read it is explained by
   * `bodyFailure`.
   */
  body?: ReadableStream<Uint8Array>;
  /**
   * What a failure to read `body` means: a {@link TransportFailure} (`broken`, `timeout`) or a
   * {@link CancelledError}.
   */
  bodyFailure?: (cause: unknown) => Error;
  /** The service's log id (`X-Tt-Logid`, else `X-Request-Id`), for support. */
  requestId?: string;
}

/**
 * Why a request got no usable answer:
 * - `dns`, `connect`: it never left (the host did not resolve, no connection opened);
 * - `sent`: the connection broke after the request may have been sent;
 * - `timeout`: no whole answer within the time limit;
 * - `broken`: the answer started but its body broke off;
 * - `too_large`: the body was larger than the cap;
 * - `redirect`: the service redirected somewhere hark does not follow.
 */
export type FailureReason =
  | "dns"
  | "connect"
  | "sent"
  | "timeout"
  | "broken"
  | "too_large"
  | "redirect";

/** A request that got no usable answer; callers turn it into the error their user sees. */
export class TransportFailure extends Error {
  /** Why. */
  readonly reason: FailureReason;
  /** The request's URL. */
  readonly url: URL;
  /** The method. */
  readonly method: string;
  /** The status, when an answer started (`broken`, `too_large`, `redirect`). */
  readonly status?: number;
  /** The redirect's target, for `redirect`. */
  readonly location?: string;
  /** The time limit, for `timeout`. */
  readonly timeoutMs?: number;
  /** The body cap, for `too_large`. */
  readonly maxBodyBytes?: number;

  /**
   * @param reason why
   * @param request the request
   * @param details status, redirect target, limits and the cause
   */
  constructor(
    reason: FailureReason,
    request: Pick<TransportRequest, "method" | "url">,
    details: {
      status?: number;
      location?: string;
      timeoutMs?: number;
      maxBodyBytes?: number;
      cause?: unknown;
    } = {},
  ) {
    super(`${reason}: ${request.method} ${request.url.host}${request.url.pathname}`, {
      cause: details.cause,
    });
    this.name = "TransportFailure";
    this.reason = reason;
    this.url = request.url;
    this.method = request.method;
    this.status = details.status;
    this.location = details.location;
    this.timeoutMs = details.timeoutMs;
    this.maxBodyBytes = details.maxBodyBytes;
  }

  /** Whether the request certainly never reached the service. */
  get neverSent(): boolean {
    return this.reason === "dns" || this.reason === "connect";
  }
}

/**
 * Sends a request and reads the whole answer, of any status.
 *
 * @param ctx the context (fetch, clock, Ctrl-C)
 * @param request the request
 * @returns the answer
 * @throws {TransportFailure} when there is no usable answer
 * @throws {CancelledError} on Ctrl-C (unless `ignoreInterrupt`) or the request's signal
 */
export async function send(ctx: Context, request: TransportRequest): Promise<TransportAnswer> {
  const limit = ctx.timeout(request.timeoutMs);
  const cancels = [
    ...(request.ignoreInterrupt ? [] : [ctx.signal]),
    ...(request.signal ? [request.signal] : []),
  ];
  const cancel = AbortSignal.any(cancels);
  const signal = AbortSignal.any([cancel, limit]);
  const started = ctx.now();
  // URLs, log ids, redirect targets and bodies come from the network: escaped for a terminal.
  // Built only when debug lines are on: masking the URL and the answer's JSON costs a parse.
  const log = (line: () => string) => ctx.debug(() => terminalSafe(line(), { breaks: "escape" }));
  let url = request.url;
  log(() =>
    `→ ${request.method} ${maskUrl(url)}${headerNote(request.headers)}${bodyNote(request)}`
  );
  const fail = (
    reason: FailureReason,
    details: ConstructorParameters<typeof TransportFailure>[2],
  ) => new TransportFailure(reason, { method: request.method, url }, details);
  const stopped = (error: unknown): Error => {
    if (cancel.aborted) {
      return new CancelledError(`Cancelled ${request.method} ${url.pathname}`, { cause: error });
    }
    return fail("timeout", { timeoutMs: request.timeoutMs, cause: error });
  };
  try {
    for (let hop = 0;; hop++) {
      if (signal.aborted) throw stopped(signal.reason);
      let response: Response;
      try {
        response = await ctx.fetch(url, {
          method: request.method,
          headers: request.headers,
          body: request.body,
          redirect: "manual",
          signal,
        });
      } catch (error) {
        if (signal.aborted) throw stopped(error);
        throw fail(classifyFetchFailure(error), { cause: error });
      }
      const location = redirectTarget(response, url);
      if (
        location === undefined && response.body &&
        request.streamAnswer?.(response.status, response.headers)
      ) {
        const headers = response.headers;
        log(() =>
          `← ${response.status} ${request.method} ${maskUrl(url)} ${ctx.now() - started} ms ` +
          `(body streamed, ${headers.get("content-length") ?? "unknown"} bytes)`
        );
        return {
          status: response.status,
          headers,
          text: "",
          requestId: requestIdOf(headers),
          body: response.body,
          bodyFailure: (cause) =>
            signal.aborted ? stopped(cause) : fail("broken", { status: response.status, cause }),
        };
      }
      if (location === undefined) {
        const answer = await readAnswer(response, request, signal, () => stopped(signal.reason));
        log(() =>
          `← ${answer.status} ${request.method} ${maskUrl(url)} ${ctx.now() - started} ms` +
          (answer.requestId ? ` log_id=${answer.requestId}` : "") + answerNote(answer.text)
        );
        return answer;
      }
      await response.body?.cancel();
      const follow = request.redirects === "same-origin" && hop < MAX_REDIRECTS &&
        location.origin === url.origin && keepsMethod(response.status, request.method) &&
        !(request.body instanceof ReadableStream);
      log(() =>
        `← ${response.status} ${request.method} ${maskUrl(url)} redirects to ${maskUrl(location)}` +
        (follow ? "" : " (not followed)")
      );
      if (!follow) {
        throw fail("redirect", { status: response.status, location: maskUrl(location) });
      }
      url = location;
    }
  } catch (error) {
    if (error instanceof TransportFailure) {
      log(() =>
        `✗ ${request.method} ${maskUrl(url)} ${ctx.now() - started} ms: ${error.reason}: ` +
        describeChain(error.cause)
      );
    }
    throw error;
  }
}

/** The target of a redirect answer, or `undefined` when the answer is not a redirect. */
function redirectTarget(response: Response, base: URL): URL | undefined {
  if (response.status < 300 || response.status > 399 || response.status === 304) {
    return undefined;
  }
  const location = response.headers.get("location");
  if (location === null) return undefined;
  try {
    return new URL(location, base);
  } catch {
    return new URL("invalid:redirect");
  }
}

/** Whether following a redirect of `status` keeps `method` (and its body) as it is. */
function keepsMethod(status: number, method: string): boolean {
  return status === 307 || status === 308 || method === "GET" || method === "HEAD";
}

async function readAnswer(
  response: Response,
  request: TransportRequest,
  signal: AbortSignal,
  stopped: () => Error,
): Promise<TransportAnswer> {
  const max = request.maxBodyBytes ?? MAX_JSON_BYTES;
  const status = response.status;
  const fail = (reason: FailureReason, cause?: unknown) =>
    new TransportFailure(reason, request, { status, maxBodyBytes: max, cause });
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel();
    throw fail("too_large");
  }
  let text = "";
  if (response.body) {
    try {
      text = declared <= READ_AT_ONCE_BYTES && framedByLength(response.headers)
        ? await wholeBody(response, max, fail)
        : await cappedBody(response.body, max, fail);
    } catch (error) {
      if (error instanceof TransportFailure) throw error;
      if (signal.aborted) throw stopped();
      throw fail("broken", error);
    }
  }
  const headers = response.headers;
  return { status, headers, text, requestId: requestIdOf(headers) };
}

/**
 * The largest declared body read at once ({@link wholeBody}): a typical answer of one call. A
 * larger one is read chunk by chunk, which holds less at its peak (the agenda's ten pieces of
 * about a megabyte each in flight: 7 MiB more at once, measured).
 */
const READ_AT_ONCE_BYTES = 64 * 1024;

/**
 * Whether the body is exactly its declared length: no transfer coding (with one, even
 * `identity`, the HTTP client frames the body by it and reads on past the declared length) and
 * no compression (fetch inflates it).
 */
function framedByLength(headers: Headers): boolean {
  if (headers.has("transfer-encoding")) return false;
  const encoding = headers.get("content-encoding")?.trim().toLowerCase();
  return encoding === undefined || encoding === "" || encoding === "identity";
}

/**
 * A body of a declared length at most `max`, read at once, as text: the HTTP client ends it at
 * that length (more is a protocol error), and the bytes read are counted again.
 */
async function wholeBody(
  response: Response,
  max: number,
  fail: (reason: FailureReason) => TransportFailure,
): Promise<string> {
  const bytes = await response.bytes();
  if (bytes.byteLength > max) throw fail("too_large");
  return new TextDecoder().decode(bytes);
}

/**
 * A body of unknown length as text, counted as it arrives and abandoned past `max` bytes. Each
 * chunk is decoded as it comes and let go: a long answer is never held as bytes and as text at
 * once (`readCapped` of `read_local_input.ts` gathers bytes; read that way, the 365-day agenda
 * peaked 0.6-0.8 MiB higher, measured twice, 5 and 7 runs).
 */
async function cappedBody(
  body: ReadableStream<Uint8Array>,
  max: number,
  fail: (reason: FailureReason) => TransportFailure,
): Promise<string> {
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw fail("too_large");
    }
    parts.push(decoder.decode(value, { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join("");
}

function requestIdOf(headers: Headers): string | undefined {
  return logIdOf(headers.get("x-tt-logid") ?? headers.get("x-request-id"));
}

function headerNote(headers: Record<string, string>): string {
  const masked = maskHeaders(headers);
  const auth = Object.entries(masked).find(([name]) => name.toLowerCase() === "authorization");
  return auth ? ` (Authorization: ${auth[1]})` : "";
}

function bodyNote(request: TransportRequest): string {
  const { body } = request;
  if (body === undefined) return "";
  if (body instanceof FormData) return " (multipart form)";
  if (body instanceof ReadableStream) return " (streamed body)";
  if (body instanceof Uint8Array) return ` (${body.byteLength} bytes)`;
  const type = Object.entries(request.headers)
    .find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? "";
  if (type.startsWith("application/x-www-form-urlencoded")) {
    return " " + clip(JSON.stringify(maskFields(Object.fromEntries(new URLSearchParams(body)))));
  }
  return " " + clip(jsonNote(body));
}

function answerNote(text: string): string {
  if (text.trim() === "") return "";
  const code = /^\s*\{\s*"code"\s*:\s*(-?\d+)/.exec(text)?.[1];
  return (code !== undefined ? ` code=${code}` : "") + " " + clip(jsonNote(text));
}

/** A JSON text with its secret fields masked; other text is only described. */
function jsonNote(text: string): string {
  const parsed = parseNetworkJson(text);
  return parsed.ok
    ? JSON.stringify(maskFields(parsed.value))
    : `(${parsed.problem === NOT_JSON ? "not JSON" : parsed.problem}, ${text.length} characters)`;
}

function clip(text: string): string {
  return text.length > DEBUG_BODY_LIMIT ? `${text.slice(0, DEBUG_BODY_LIMIT)}…` : text;
}
