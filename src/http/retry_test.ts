import assert from "node:assert/strict";
import { backoffDelay, parseRateLimitReset, parseRetryAfter, retry, serviceWait } from "./retry.ts";
import { createTestContext } from "../../tests/support/test_context.ts";

Deno.test("backoffDelay() doubles from 500 ms up to the 8 s cap without jitter", () => {
  const delays = [0, 1, 2, 3, 4, 5, 10].map((n) => backoffDelay(n, { jitter: false }));
  assert.deepEqual(delays, [500, 1000, 2000, 4000, 8000, 8000, 8000]);
});

Deno.test("backoffDelay() takes a random fraction of the delay with full jitter", () => {
  assert.deepEqual([0, 1, 2].map((n) => backoffDelay(n, { random: () => 0.5 })), [250, 500, 1000]);
  assert.equal(backoffDelay(3, { random: () => 0 }), 0);
  assert.equal(backoffDelay(1, { random: () => 0.999, baseDelayMs: 100, maxDelayMs: 150 }), 149);
});

Deno.test("parseRetryAfter() reads delay seconds and HTTP dates", () => {
  const now = Date.UTC(2026, 10, 21, 9, 0, 0);
  assert.equal(parseRetryAfter("3", now), 3000);
  assert.equal(parseRetryAfter(" 1.5 ", now), 1500);
  assert.equal(parseRetryAfter(new Date(now + 4000).toUTCString(), now), 4000);
  assert.equal(parseRetryAfter(new Date(now - 4000).toUTCString(), now), 0);
  assert.equal(parseRetryAfter(null, now), undefined);
  assert.equal(parseRetryAfter("soon", now), undefined);
  assert.equal(parseRetryAfter("-1", now), undefined);
});

Deno.test("parseRateLimitReset() reads Lark's x-ogw-ratelimit-reset seconds", () => {
  assert.equal(parseRateLimitReset("52"), 52_000);
  assert.equal(parseRateLimitReset(" 0.5 "), 500);
  assert.equal(parseRateLimitReset("0"), 0);
  assert.equal(parseRateLimitReset(null), undefined);
  assert.equal(parseRateLimitReset("-3"), undefined);
  assert.equal(parseRateLimitReset("soon"), undefined);
  assert.equal(parseRateLimitReset("1e9"), undefined);
});

Deno.test("serviceWait() takes the longer of Retry-After and x-ogw-ratelimit-reset", () => {
  const now = Date.UTC(2026, 10, 21, 9, 0, 0);
  assert.equal(serviceWait({ rateLimitReset: "7" }, now), 7000);
  assert.equal(serviceWait({ retryAfter: "2", rateLimitReset: "7" }, now), 7000);
  assert.equal(serviceWait({ retryAfter: "9", rateLimitReset: "7" }, now), 9000);
  assert.equal(serviceWait({ retryAfter: "soon", rateLimitReset: null }, now), undefined);
  assert.equal(serviceWait({}, now), undefined);
});

Deno.test("retry() waits the backoff between failures and returns the first success", async () => {
  const ctx = createTestContext();
  const attempts: number[] = [];
  const value = await retry(async (n) => {
    attempts.push(n);
    await Promise.resolve();
    return n < 2
      ? { ok: false, error: new Error(`fail ${n}`), retry: true }
      : { ok: true, value: n };
  }, { sleep: ctx.sleep, random: () => 0.5 });
  assert.equal(value, 2);
  assert.deepEqual(attempts, [0, 1, 2]);
  assert.deepEqual(ctx.sleeps, [250, 500]);
});

Deno.test("retry() fails after three retries by default, with the last error", async () => {
  const ctx = createTestContext();
  let calls = 0;
  await assert.rejects(
    retry(() => Promise.resolve({ ok: false, error: new Error(`fail ${calls++}`), retry: true }), {
      sleep: ctx.sleep,
      jitter: false,
    }),
    { message: "fail 3" },
  );
  assert.equal(calls, 4);
  assert.deepEqual(ctx.sleeps, [500, 1000, 2000]);
});

Deno.test("retry() stops at once on a final failure", async () => {
  const ctx = createTestContext();
  let calls = 0;
  await assert.rejects(
    retry(() => {
      calls++;
      return Promise.resolve({ ok: false, error: new Error("final"), retry: false });
    }, { sleep: ctx.sleep }),
    { message: "final" },
  );
  assert.equal(calls, 1);
  assert.deepEqual(ctx.sleeps, []);
});

Deno.test("retry() honours Retry-After up to its cap, and skips the wait when immediate", async () => {
  const ctx = createTestContext();
  const results = [
    { ok: false as const, error: new Error("a"), retry: true, retryAfterMs: 2000 },
    { ok: false as const, error: new Error("b"), retry: true, retryAfterMs: 600_000 },
    { ok: false as const, error: new Error("c"), retry: true, immediate: true },
    { ok: true as const, value: "done" },
  ];
  const retried: number[] = [];
  const value = await retry((n) => Promise.resolve(results[n]), {
    sleep: ctx.sleep,
    onRetry: ({ delayMs }) => retried.push(delayMs),
  });
  assert.equal(value, "done");
  assert.deepEqual(ctx.sleeps, [2000, 60_000]);
  assert.deepEqual(retried, [2000, 60_000, 0]);
});

Deno.test("retry() with retries 0 makes one attempt", async () => {
  const ctx = createTestContext();
  let calls = 0;
  await assert.rejects(
    retry(() => {
      calls++;
      return Promise.resolve({ ok: false, error: new Error("x"), retry: true });
    }, { sleep: ctx.sleep, retries: 0 }),
  );
  assert.equal(calls, 1);
});

Deno.test("retry() rejects when the signal aborts a wait", async () => {
  const ctx = createTestContext();
  let calls = 0;
  await assert.rejects(
    retry(() => {
      calls++;
      ctx.abort();
      return Promise.resolve({ ok: false, error: new Error("x"), retry: true });
    }, { sleep: ctx.sleep, signal: ctx.signal }),
    { name: "AbortError" },
  );
  assert.equal(calls, 1);
});
