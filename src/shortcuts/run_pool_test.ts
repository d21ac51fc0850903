import assert from "node:assert/strict";
import { MAX_WORKERS, runPool } from "./run_pool.ts";

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise<void>((resolve) => queueMicrotask(resolve));
async function settle() {
  for (let i = 0; i < 20; i++) await tick();
}

Deno.test("runPool() never has more than the limit in flight and keeps the order", async () => {
  const gates = Array.from({ length: 25 }, () => deferred<number>());
  let inFlight = 0;
  let peak = 0;
  const started: number[] = [];
  const done = runPool(gates, MAX_WORKERS, async (gate, index) => {
    started.push(index);
    inFlight++;
    peak = Math.max(peak, inFlight);
    try {
      return await gate.promise;
    } finally {
      inFlight--;
    }
  });
  await settle();
  assert.equal(started.length, 10);
  // Finish them out of order; a new one starts for each that ends.
  for (const i of [3, 0, 9]) gates[i].resolve(i * 10);
  await settle();
  assert.equal(started.length, 13);
  for (let i = 0; i < gates.length; i++) gates[i].resolve(i * 10);
  const results = await done;
  assert.equal(peak, 10);
  assert.deepEqual(results, gates.map((_, i) => i * 10));
});

Deno.test("runPool() stops starting work after a failure and rejects with it", async () => {
  const started: number[] = [];
  await assert.rejects(
    runPool([0, 1, 2, 3, 4, 5], 2, async (n) => {
      started.push(n);
      await tick();
      if (n === 1) throw new Error("piece 1 failed");
      return n;
    }),
    /piece 1 failed/,
  );
  assert.ok(started.length < 6, `started ${started.join(",")}`);
});

Deno.test("runPool() handles no items and a limit above the item count", async () => {
  assert.deepEqual(await runPool([], 10, () => Promise.resolve(1)), []);
  assert.deepEqual(await runPool([1, 2], 10, (n) => Promise.resolve(n + 1)), [2, 3]);
});
