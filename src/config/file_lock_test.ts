import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestContext } from "../testing/test_context.ts";
import { HarkError } from "../errors/mod.ts";
import { withFileLock } from "./file_lock.ts";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "hark-lock-test-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("withFileLock() holds the lock file while fn runs and removes it after", async () => {
  await withDir(async (dir) => {
    const ctx = createTestContext({ now: Date.now() });
    const lock = join(dir, "config.json.lock");
    const result = await withFileLock(ctx, lock, async () => {
      const holder = JSON.parse(await Deno.readTextFile(lock));
      assert.equal(holder.pid, ctx.pid);
      return 42;
    });
    assert.equal(result, 42);
    assert.equal(await ctx.fs.exists(lock), false);
  });
});

Deno.test("withFileLock() removes the lock when fn throws", async () => {
  await withDir(async (dir) => {
    const ctx = createTestContext({ now: Date.now() });
    const lock = join(dir, "x.lock");
    await assert.rejects(
      withFileLock(ctx, lock, () => Promise.reject(new Error("boom"))),
      /boom/,
    );
    assert.equal(await ctx.fs.exists(lock), false);
  });
});

Deno.test("withFileLock() fails with a lock error when a live process holds it too long", async () => {
  await withDir(async (dir) => {
    const ctx = createTestContext({ now: Date.now() });
    const lock = join(dir, "x.lock");
    // Held by this (live) test process, written just now.
    await Deno.writeTextFile(lock, JSON.stringify({ pid: Deno.pid, time: Date.now() }));
    let ran = false;
    await assert.rejects(
      withFileLock(ctx, lock, () => {
        ran = true;
        return Promise.resolve();
      }, { timeoutMs: 1_000, staleMs: 60_000 }),
      (error: unknown) => {
        assert.ok(error instanceof HarkError);
        assert.equal(error.type, "lock");
        assert.equal(error.code, 1);
        assert.ok(error.message.includes(`"${lock}"`));
        return true;
      },
    );
    assert.equal(ran, false);
    assert.ok(ctx.sleeps.length > 0, "it waited between attempts");
    assert.ok(ctx.sleeps.reduce((a, b) => a + b, 0) >= 1_000);
    assert.equal(await ctx.fs.exists(lock), true, "someone else's lock is left alone");
  });
});

Deno.test("withFileLock() breaks a lock left by a dead process", async () => {
  if (Deno.build.os !== "linux") return;
  await withDir(async (dir) => {
    const ctx = createTestContext({ now: Date.now() });
    const lock = join(dir, "x.lock");
    await Deno.writeTextFile(lock, JSON.stringify({ pid: 2 ** 22 + 12345, time: Date.now() }));
    assert.equal(await withFileLock(ctx, lock, () => Promise.resolve("ok")), "ok");
    assert.equal(await ctx.fs.exists(lock), false);
  });
});

Deno.test("withFileLock() breaks a lock older than staleMs", async () => {
  await withDir(async (dir) => {
    const lock = join(dir, "x.lock");
    await Deno.writeTextFile(lock, "not json");
    // The clock is 20 s past the lock's modification time.
    const ctx = createTestContext({ now: Date.now() + 20_000 });
    assert.equal(
      await withFileLock(ctx, lock, () => Promise.resolve("ok"), { staleMs: 10_000 }),
      "ok",
    );
    assert.equal(await ctx.fs.exists(lock), false);
  });
});
