import assert from "node:assert/strict";
import { RECLAIM_INTERVAL_MS, reclaimer } from "./reclaimer.ts";

Deno.test("reclaimer() collects at most once per interval, and does nothing without gc", () => {
  let now = 1_000;
  let collections = 0;
  const reclaim = reclaimer(() => now, () => collections++);
  reclaim();
  assert.equal(collections, 0, "not within the first interval");
  now += RECLAIM_INTERVAL_MS;
  reclaim();
  reclaim();
  assert.equal(collections, 1);
  now += RECLAIM_INTERVAL_MS - 1;
  reclaim();
  assert.equal(collections, 1);
  now += 1;
  reclaim();
  assert.equal(collections, 2);
  // Without --expose-gc there is no collector: calls cost nothing and do nothing.
  reclaimer(() => now, undefined)();
});
