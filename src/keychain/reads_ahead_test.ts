import assert from "node:assert/strict";
import { READ_AHEAD_MS, ReadsAhead } from "./keychain.ts";

Deno.test("ReadsAhead gives a read to the first get of its path only, and only soon after it began", async () => {
  let now = 1_000;
  const reads = new ReadsAhead(() => now);
  reads.start("hark/a", Promise.resolve("one"));
  assert.equal(await reads.take("hark/a"), "one");
  assert.equal(reads.take("hark/a"), undefined);
  // A later call of a long-running process is not answered with a read made long before.
  reads.start("hark/a", Promise.resolve("old"));
  now += READ_AHEAD_MS + 1;
  assert.equal(reads.take("hark/a"), undefined);
  // A clock set back does not make an old read look new.
  reads.start("hark/a", Promise.resolve("before"));
  now -= 60_000;
  assert.equal(reads.take("hark/a"), undefined);
});

Deno.test("ReadsAhead replaces an older read of a path, drops one on a write, and keeps a failure for its get", async () => {
  const reads = new ReadsAhead(() => 0);
  reads.start("hark/a", Promise.resolve("first"));
  reads.start("hark/a", Promise.resolve("second"));
  assert.equal(await reads.take("hark/a"), "second");
  reads.start("hark/b", Promise.resolve("b"));
  reads.drop("hark/b");
  assert.equal(reads.take("hark/b"), undefined);
  reads.start("hark/c", Promise.reject(new Error("locked")));
  await assert.rejects(reads.take("hark/c")!, /locked/);
  reads.start("hark/d", Promise.resolve("d"));
  reads.drop();
  assert.equal(reads.take("hark/d"), undefined);
});
