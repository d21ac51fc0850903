/**
 * The retry policy of business calls: at most a few retries, exponential backoff with full
 * jitter and a cap, the service's wait honoured (`Retry-After`, or Lark's gateway header
 * `x-ogw-ratelimit-reset`), every wait capped and abortable. The policy is pure; the waits
 * go through the caller's `sleep` (the context's), so tests check each one exactly.
 *
 * @module
 */

/** How often and how long to retry. */
export interface RetryOptions {
  /** Retries after the first attempt; default 3 (so at most 4 attempts). */
  retries?: number;
  /** The backoff before the first retry, before jitter; default 500 ms. Doubles each retry. */
  baseDelayMs?: number;
  /** The cap of one backoff wait, before jitter; default 8 000 ms. */
  maxDelayMs?: number;
  /**
   * Full jitter: each wait is a uniform random fraction of the exponential delay, so clients
   * that failed together do not retry together; default true.
   */
  jitter?: boolean;
  /** The jitter source, returning a number in [0, 1); default `Math.random`. Tests fix it. */
  random?: () => number;
  /**
   * The longest wait the service may ask for (`Retry-After`, `x-ogw-ratelimit-reset`) that is
   * honoured; a longer one is cut to this; default 60 000 ms.
   */
  maxRetryAfterMs?: number;
}

/** The defaults of {@link RetryOptions}. */
export const DEFAULT_RETRY: Readonly<Required<Omit<RetryOptions, "random">>> = {
  retries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  jitter: true,
  maxRetryAfterMs: 60_000,
};

/**
 * The backoff wait before retry number `attempt + 1`: `min(maxDelayMs, baseDelayMs * 2^attempt)`,
 * times a random fraction with jitter.
 *
 * @param attempt the number of the attempt that failed, from 0
 * @param options the policy
 * @returns milliseconds to wait, a whole number
 * @example
 * ```ts
 * backoffDelay(2, { jitter: false }); // 2000
 * backoffDelay(2, { random: () => 0.5 }); // 1000
 * ```
 */
export function backoffDelay(attempt: number, options: RetryOptions = {}): number {
  const base = options.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs;
  const cap = options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs;
  const exponential = Math.min(cap, base * 2 ** Math.max(0, attempt));
  if (!(options.jitter ?? DEFAULT_RETRY.jitter)) return Math.round(exponential);
  const random = options.random ?? Math.random;
  return Math.floor(exponential * Math.min(Math.max(random(), 0), 1));
}

/**
 * Reads a `Retry-After` header: delay seconds (`"2"`, `"1.5"`) or an HTTP date.
 *
 * @param value the header value, or null when absent
 * @param now the current time, epoch ms (for a date)
 * @returns milliseconds to wait (0 for a date in the past), or `undefined` when absent or
 *   unreadable
 * @example
 * ```ts
 * parseRetryAfter("3", 0); // 3000
 * parseRetryAfter("Wed, 21 Oct 2015 07:28:05 GMT", Date.UTC(2015, 9, 21, 7, 28, 0)); // 5000
 * ```
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (!/[a-z]/i.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Reads Lark's gateway header `x-ogw-ratelimit-reset`: the seconds until the rate-limit window
 * that refused the call opens again (Lark's "Rate limits" guide, server-docs/api-call-guide/
 * frequency-control: sent with HTTP 429, or HTTP 400 on older APIs, and code 99991400).
 *
 * @param value the header value, or null when absent
 * @returns milliseconds to wait, or `undefined` when absent or not a number of seconds
 * @example
 * ```ts
 * parseRateLimitReset("52"); // 52000
 * parseRateLimitReset("soon"); // undefined
 * ```
 */
export function parseRateLimitReset(value: string | null): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (!/^\d{1,9}(\.\d+)?$/.test(text)) return undefined;
  return Math.round(Number(text) * 1000);
}

/**
 * The wait an answer asks for: the longer of its `Retry-After` and its
 * `x-ogw-ratelimit-reset` (retrying before either would only meet the limit again).
 *
 * @param headers the two headers, each null when absent
 * @param now the current time, epoch ms (for a `Retry-After` date)
 * @returns milliseconds, or `undefined` when the answer names no wait
 * @example
 * ```ts
 * serviceWait({ retryAfter: null, rateLimitReset: "3" }, 0); // 3000
 * ```
 */
export function serviceWait(
  headers: { retryAfter?: string | null; rateLimitReset?: string | null },
  now: number,
): number | undefined {
  const waits = [
    parseRetryAfter(headers.retryAfter ?? null, now),
    parseRateLimitReset(headers.rateLimitReset ?? null),
  ].filter((ms) => ms !== undefined);
  return waits.length > 0 ? Math.max(...waits) : undefined;
}

/** The result of one attempt, as {@link retry} sees it. */
export type AttemptResult<T> =
  | { ok: true; value: T }
  | {
    ok: false;
    /** The error to throw when this is the last attempt or the failure is final. */
    error: unknown;
    /** Whether another attempt may help. */
    retry: boolean;
    /** Retry at once, without a wait (after a token refresh). */
    immediate?: boolean;
    /**
     * The wait the service asked for ({@link serviceWait}), in ms; used instead of the backoff
     * when given, cut to `maxRetryAfterMs`.
     */
    retryAfterMs?: number;
  };

/** What {@link retry} needs besides the policy. */
export interface RetryLoopOptions extends RetryOptions {
  /** Waits `ms`; rejects when `signal` aborts. Pass the context's `sleep`. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Aborts a wait; the rejection of `sleep` is passed on. */
  signal?: AbortSignal;
  /** Called before each wait, for logging. */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
}

/**
 * Runs `attempt` until it succeeds, its failure is final, or the retries are used up; between
 * attempts waits what the service asked for (capped) or the backoff.
 *
 * @param attempt one try; gets its number from 0; resolves with an {@link AttemptResult}
 * @param options the policy, `sleep` and `signal`
 * @returns the first successful value
 * @throws the last failure's `error`; or the rejection of `sleep` when `signal` aborts a wait
 * @example
 * ```ts
 * const value = await retry(async () => ({ ok: true, value: 42 }), { sleep: ctx.sleep });
 * ```
 */
export async function retry<T>(
  attempt: (attempt: number) => Promise<AttemptResult<T>>,
  options: RetryLoopOptions,
): Promise<T> {
  const retries = Math.max(0, options.retries ?? DEFAULT_RETRY.retries);
  const maxRetryAfter = options.maxRetryAfterMs ?? DEFAULT_RETRY.maxRetryAfterMs;
  for (let n = 0;; n++) {
    const result = await attempt(n);
    if (result.ok) return result.value;
    if (!result.retry || n >= retries) throw result.error;
    if (result.immediate) {
      options.onRetry?.({ attempt: n, delayMs: 0, error: result.error });
      continue;
    }
    const delayMs = result.retryAfterMs !== undefined
      ? Math.min(result.retryAfterMs, maxRetryAfter)
      : backoffDelay(n, options);
    options.onRetry?.({ attempt: n, delayMs, error: result.error });
    await options.sleep(delayMs, options.signal);
  }
}
