import assert from "node:assert/strict";
import { createTestContext } from "../../tests/support/test_context.ts";
import { ApiError, AuthError, CancelledError } from "../errors/mod.ts";
import { pollDeviceToken } from "./device_flow.ts";
import type { TokenAnswer } from "./token_endpoint.ts";

const TOKENS: TokenAnswer = {
  kind: "tokens",
  grant: { access_token: "u-token", expires_in: 7200 },
};
const pending: TokenAnswer = { kind: "error", error: "authorization_pending", status: 400 };
const slowDown: TokenAnswer = { kind: "error", error: "slow_down", status: 400 };
const transient: TokenAnswer = {
  kind: "transient",
  reason: "HTTP 503",
  error: new ApiError("The token endpoint is unavailable (HTTP 503)", { type: "server_error" }),
};

function scripted(answers: TokenAnswer[]) {
  const queue = [...answers];
  let calls = 0;
  return {
    poll: () => {
      calls++;
      const next = queue.shift();
      if (!next) throw new Error("polled too often");
      return Promise.resolve(next);
    },
    calls: () => calls,
  };
}

Deno.test("pollDeviceToken() waits 5 s before each poll by default and keeps it while pending", async () => {
  const ctx = createTestContext();
  const script = scripted([pending, pending, TOKENS]);
  const grant = await pollDeviceToken(ctx, { poll: script.poll });
  assert.equal(grant.access_token, "u-token");
  assert.deepEqual(ctx.sleeps, [5000, 5000, 5000]);
});

Deno.test("pollDeviceToken() uses the server's interval when it is larger than 5 s", async () => {
  const ctx = createTestContext();
  await pollDeviceToken(ctx, { poll: scripted([pending, TOKENS]).poll, interval: 8 });
  assert.deepEqual(ctx.sleeps, [8000, 8000]);
  const small = createTestContext();
  await pollDeviceToken(small, { poll: scripted([TOKENS]).poll, interval: 1 });
  assert.deepEqual(small.sleeps, [5000]);
});

Deno.test("pollDeviceToken() adds 5 s on slow_down and keeps the new interval", async () => {
  const ctx = createTestContext();
  await pollDeviceToken(ctx, { poll: scripted([slowDown, pending, slowDown, TOKENS]).poll });
  assert.deepEqual(ctx.sleeps, [5000, 10000, 10000, 15000]);
});

Deno.test("pollDeviceToken() doubles the interval on other failures, capped at 60 s", async () => {
  const ctx = createTestContext();
  const answers = [transient, transient, transient, transient, transient, pending, TOKENS];
  await pollDeviceToken(ctx, { poll: scripted(answers).poll });
  assert.deepEqual(ctx.sleeps, [5000, 10000, 20000, 40000, 60000, 60000, 60000]);
});

for (const error of ["access_denied", "expired_token", "invalid_grant"]) {
  Deno.test(`pollDeviceToken() stops at once on ${error}`, async () => {
    const ctx = createTestContext();
    const script = scripted([pending, { kind: "error", error, status: 400 }, TOKENS]);
    await assert.rejects(pollDeviceToken(ctx, { poll: script.poll }), (e) => {
      assert.ok(e instanceof AuthError);
      assert.equal(e.code, 3);
      assert.match(e.message, error === "access_denied" ? /denied/ : /expired|rejected/);
      return true;
    });
    assert.equal(script.calls(), 2);
  });
}

Deno.test("pollDeviceToken() gives up with a timeout error after 200 attempts", async () => {
  const ctx = createTestContext();
  const script = scripted(Array.from({ length: 200 }, () => pending));
  await assert.rejects(pollDeviceToken(ctx, { poll: script.poll }), /after 200 attempts/);
  assert.equal(script.calls(), 200);
  assert.equal(ctx.sleeps.length, 200);
});

Deno.test("pollDeviceToken() stops without polling once the device code has expired", async () => {
  const ctx = createTestContext();
  const script = scripted([pending, pending, TOKENS]);
  await assert.rejects(
    pollDeviceToken(ctx, { poll: script.poll, expiresIn: 12 }),
    /expired before it was approved/,
  );
  assert.equal(script.calls(), 2);
  // The last wait ends at the code's expiry, not a whole interval later.
  assert.deepEqual(ctx.sleeps, [5000, 5000, 2000]);
});

Deno.test("pollDeviceToken() caps a huge server interval at 60 s (issue 12, item 8)", async () => {
  const ctx = createTestContext();
  const script = scripted([pending, slowDown, transient, TOKENS]);
  await pollDeviceToken(ctx, { poll: script.poll, interval: 99_999 });
  assert.deepEqual(ctx.sleeps, [60_000, 60_000, 60_000, 60_000]);
});

Deno.test("pollDeviceToken() never sleeps past expires_in, whatever the interval", async () => {
  const ctx = createTestContext();
  const started = ctx.now();
  const script = scripted([pending, TOKENS]);
  await assert.rejects(
    pollDeviceToken(ctx, { poll: script.poll, interval: 99_999, expiresIn: 3 }),
    /expired before it was approved/,
  );
  assert.deepEqual(ctx.sleeps, [3000]);
  assert.equal(ctx.now() - started, 3000);
  assert.equal(script.calls(), 0);
});

Deno.test("pollDeviceToken() treats a non-numeric interval as absent", async () => {
  const ctx = createTestContext();
  await pollDeviceToken(ctx, { poll: scripted([TOKENS]).poll, interval: Number.NaN });
  assert.deepEqual(ctx.sleeps, [5000]);
});

Deno.test("pollDeviceToken() turns Ctrl-C into a CancelledError and polls no more", async () => {
  const ctx = createTestContext();
  let calls = 0;
  const poll = () => {
    calls++;
    ctx.abort();
    return Promise.resolve(pending);
  };
  await assert.rejects(pollDeviceToken(ctx, { poll }), CancelledError);
  assert.equal(calls, 1);
});

Deno.test("pollDeviceToken() reports the remaining time to onTick in slices", async () => {
  const ctx = createTestContext();
  const seen: (number | undefined)[] = [];
  await pollDeviceToken(ctx, {
    poll: scripted([TOKENS]).poll,
    expiresIn: 600,
    tickMs: 1000,
    onTick: (p) => seen.push(p.remainingMs),
  });
  assert.deepEqual(ctx.sleeps, [1000, 1000, 1000, 1000, 1000]);
  assert.deepEqual(seen, [600_000, 599_000, 598_000, 597_000, 596_000]);
});
