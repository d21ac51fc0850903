/**
 * Polling the token endpoint for a device code (RFC 8628 §3.4), exactly per the spec's table:
 * start at 5 s or the server's larger `interval`; `authorization_pending` keeps the interval;
 * `slow_down` adds 5 s; a transient failure doubles it; the interval never exceeds the spec's
 * 60 s maximum, whatever the server asks, and no wait runs past the code's `expires_in`;
 * `access_denied`, `expired_token` and `invalid_grant` stop at once; 200 attempts at most;
 * Ctrl-C cancels.
 * Time only passes through `ctx.now()` and `ctx.sleep()`, so tests drive it with a fake clock.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { AuthError, CancelledError, HarkError, NetworkError } from "../errors/mod.ts";
import type { TokenAnswer } from "./token_endpoint.ts";
import type { TokenGrant } from "./token_record.ts";

/** The initial poll interval, in seconds. */
export const INITIAL_POLL_INTERVAL_S = 5;
/** The largest poll interval, in seconds, whatever the server asks (the spec's maximum). */
export const MAX_POLL_INTERVAL_S = 60;
/** What `slow_down` adds to the interval, in seconds. */
export const SLOW_DOWN_STEP_S = 5;
/** The most polls of one device code. */
export const MAX_POLL_ATTEMPTS = 200;

/** What the poller reports before each wait, for a spinner. */
export interface PollProgress {
  /** The attempt about to be made, from 1. */
  attempt: number;
  /** The current interval, in seconds. */
  intervalS: number;
  /** Milliseconds until the device code expires, when known. */
  remainingMs?: number;
}

/** Options of {@link pollDeviceToken}. */
export interface PollOptions {
  /** Calls the token endpoint once with the device code. */
  poll: () => Promise<TokenAnswer>;
  /** The server's `interval`, in seconds; the poller uses at least 5 and at most 60. */
  interval?: number;
  /** The server's `expires_in`, in seconds; after it the poller stops. Default: unknown. */
  expiresIn?: number;
  /** Maximum attempts; default {@link MAX_POLL_ATTEMPTS}. */
  maxAttempts?: number;
  /**
   * Called while waiting; when given, waits are cut into `tickMs` slices and this is called
   * before each, so a spinner can show the remaining time.
   */
  onTick?: (progress: PollProgress) => void;
  /** Slice length for {@link PollOptions.onTick}, in ms; default 100. */
  tickMs?: number;
}

/**
 * Polls until the device code yields tokens, waiting the interval before each poll.
 *
 * @param ctx the context (clock, sleep, Ctrl-C signal)
 * @param options the poll call and the server's timing
 * @returns the token grant
 * @throws {AuthError} on denial, expiry, a rejected code, or after the last attempt
 * @throws {CancelledError} on Ctrl-C
 */
export async function pollDeviceToken(ctx: Context, options: PollOptions): Promise<TokenGrant> {
  const capped = (seconds: number) => Math.min(seconds, MAX_POLL_INTERVAL_S);
  const asked = options.interval !== undefined && Number.isFinite(options.interval)
    ? options.interval
    : 0;
  let intervalS = capped(Math.max(INITIAL_POLL_INTERVAL_S, asked));
  const maxAttempts = options.maxAttempts ?? MAX_POLL_ATTEMPTS;
  const deadline = options.expiresIn === undefined
    ? undefined
    : ctx.now() + options.expiresIn * 1000;
  let lastTransient = "";
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    // Never sleep past the code's expiry: waking at the deadline ends the sign-in at once.
    const left = deadline === undefined ? Infinity : Math.max(0, deadline - ctx.now());
    await wait(ctx, Math.min(intervalS * 1000, left), options, () => ({
      attempt,
      intervalS,
      remainingMs: deadline === undefined ? undefined : Math.max(0, deadline - ctx.now()),
    }));
    if (deadline !== undefined && ctx.now() >= deadline) throw expired();
    const answer = await options.poll();
    switch (answer.kind) {
      case "tokens":
        return answer.grant;
      case "transient":
        lastTransient = answer.reason;
        intervalS = capped(intervalS * 2);
        continue;
      case "error":
        switch (answer.error) {
          case "authorization_pending":
            continue;
          case "slow_down":
            intervalS = capped(intervalS + SLOW_DOWN_STEP_S);
            continue;
          case "access_denied":
            throw new AuthError("Sign-in was denied: the request was not approved", {
              suggestion: "Run the sign-in again and approve it in the browser",
            });
          case "expired_token":
            throw expired();
          default:
            throw new AuthError(
              `Sign-in failed: the server rejected the device code (${answer.error}${
                answer.description ? `: ${answer.description}` : ""
              })`,
              { suggestion: "Start a new sign-in" },
            );
        }
    }
  }
  const detail = lastTransient ? `; last failure: ${lastTransient}` : "";
  throw new AuthError(
    `Timed out waiting for the sign-in to be approved after ${maxAttempts} attempts${detail}`,
    { suggestion: "Start a new sign-in and approve it sooner" },
  );
}

function expired(): AuthError {
  return new AuthError("Sign-in code expired before it was approved", {
    suggestion: "Start a new sign-in and approve it before the code expires",
  });
}

async function wait(
  ctx: Context,
  ms: number,
  options: PollOptions,
  progress: () => PollProgress,
): Promise<void> {
  try {
    if (!options.onTick) {
      await ctx.sleep(ms, ctx.signal);
      return;
    }
    const tick = options.tickMs ?? 100;
    for (let elapsed = 0; elapsed < ms; elapsed += tick) {
      options.onTick(progress());
      await ctx.sleep(Math.min(tick, ms - elapsed), ctx.signal);
    }
  } catch (error) {
    if (error instanceof HarkError) throw error;
    if (ctx.signal.aborted) throw new CancelledError("Sign-in cancelled", { cause: error });
    throw new NetworkError("Sign-in interrupted", { cause: error });
  }
}
