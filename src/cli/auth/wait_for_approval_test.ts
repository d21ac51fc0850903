import assert from "node:assert/strict";
import { PendingError } from "../../errors/mod.ts";
import { createTestContext } from "../../../tests/support/test_context.ts";
import { formatRemaining, stopWaitingAfter } from "./wait_for_approval.ts";

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

Deno.test("formatRemaining() shows m:ss, rounding up and never below zero", () => {
  assert.equal(formatRemaining(600_000), "10:00");
  assert.equal(formatRemaining(61_001), "1:02");
  assert.equal(formatRemaining(999), "0:01");
  assert.equal(formatRemaining(-5_000), "0:00");
});
