import assert from "node:assert/strict";
import { PendingError, ValidationError } from "../../errors/mod.ts";
import { createTestContext } from "../../../tests/support/test_context.ts";
import { loginOptions, parseWait, stopWaitingAfter, waitBound } from "./login.ts";

Deno.test("parseWait() reads 0 and hours, minutes, seconds; anything else names --wait", () => {
  assert.equal(parseWait("0"), 0);
  assert.equal(parseWait("30s"), 30_000);
  assert.equal(parseWait("2m"), 120_000);
  assert.equal(parseWait("1m30s"), 90_000);
  assert.equal(parseWait("1h"), 3_600_000);
  for (const bad of ["", "30", "soon", "1x", "-5s", "m", "1.5m"]) {
    assert.throws(() => parseWait(bad), (error: unknown) => {
      assert.ok(error instanceof ValidationError, bad);
      assert.equal(error.param, "--wait");
      return true;
    });
  }
});

Deno.test("loginOptions() tells --no-wait from --wait <duration>, which share a name", () => {
  assert.deepEqual(loginOptions({ wait: false }), {
    scopes: [],
    wait: false,
    waitMs: undefined,
    deviceCode: undefined,
    force: false,
  });
  assert.deepEqual(loginOptions({ wait: "5m", "device-code": " dc-1 " }), {
    scopes: [],
    wait: true,
    waitMs: 300_000,
    deviceCode: "dc-1",
    force: false,
  });
});

Deno.test("waitBound(): a person waits until the code expires; a script's --device-code polls once", () => {
  const at = (stdinIsTerminal: boolean, env: Record<string, string> = {}) =>
    createTestContext({ stdinIsTerminal, env });
  const finish = { scopes: [], wait: true, deviceCode: "dc-1", force: false };
  const start = { scopes: [], wait: true, force: false };
  assert.equal(waitBound(at(true), finish), undefined);
  assert.equal(waitBound(at(false), finish), 0);
  assert.equal(waitBound(at(true, { CI: "true" }), finish), 0);
  assert.equal(waitBound(at(false), { ...finish, waitMs: 60_000 }), 60_000);
  assert.equal(waitBound(at(true), { ...finish, waitMs: 0 }), 0);
  // Starting a sign-in keeps today's behaviour (CI without a terminal is refused elsewhere).
  assert.equal(waitBound(at(false), start), undefined);
  assert.equal(waitBound(at(false), { ...start, waitMs: 5_000 }), 5_000);
});

Deno.test("stopWaitingAfter() always lets the first poll happen, then stops at the bound", () => {
  const ctx = createTestContext();
  const pending = () => new PendingError("pending", { command: "hark auth login" });
  // --wait 0: the first wait runs in full (every tick), the wait for the second poll does not.
  const once = stopWaitingAfter(ctx, 0, pending);
  for (let tick = 0; tick < 50; tick++) once({ attempt: 1, intervalS: 5 });
  assert.throws(() => once({ attempt: 2, intervalS: 5 }), PendingError);

  // --wait 12s with a 5 s interval: polls 2 and 3 fit (5 s and 10 s after the first), 4 does not.
  const bounded = stopWaitingAfter(ctx, 12_000, pending);
  const attempts: number[] = [];
  try {
    for (let attempt = 1; attempt < 10; attempt++) {
      bounded({ attempt, intervalS: 5 });
      bounded({ attempt, intervalS: 5 }); // later ticks of the same wait never stop it
      attempts.push(attempt);
      ctx.advance(5_000);
    }
  } catch (error) {
    assert.ok(error instanceof PendingError);
  }
  assert.deepEqual(attempts, [1, 2, 3]);

  // Without a bound nothing ever stops.
  const open = stopWaitingAfter(ctx, undefined, pending);
  for (let attempt = 1; attempt < 200; attempt++) open({ attempt, intervalS: 60 });
});
