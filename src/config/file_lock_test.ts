import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestContext } from "../../tests/support/test_context.ts";
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
  await withDir(async (dir) => {
    const asked: string[][] = [];
    const ctx = createTestContext({
      now: Date.now(),
      run: (cmd, args) => {
        asked.push([cmd, ...args]);
        return Promise.resolve({
          code: 1,
          stdout: "",
          stderr: "kill: (4206657) - No such process",
        });
      },
    });
    const lock = join(dir, "x.lock");
    await Deno.writeTextFile(
      lock,
      JSON.stringify({ pid: 4206657, nonce: "dead", time: Date.now() }),
    );
    assert.equal(await withFileLock(ctx, lock, () => Promise.resolve("ok")), "ok");
    assert.deepEqual(asked, [["kill", "-0", "4206657"]]);
    assert.equal(await ctx.fs.exists(lock), false);
    assert.deepEqual((await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name), []);
  });
});

Deno.test("withFileLock() never breaks the lock of a live process, however old", async () => {
  await withDir(async (dir) => {
    const lock = join(dir, "x.lock");
    await Deno.writeTextFile(lock, JSON.stringify({ pid: 4242_0, nonce: "live", time: 0 }));
    // Ten minutes past the lock's time, far beyond staleMs, but kill -0 says it lives.
    const ctx = createTestContext({
      now: Date.now() + 600_000,
      run: () => Promise.resolve({ code: 0, stdout: "", stderr: "" }),
    });
    await assert.rejects(
      withFileLock(ctx, lock, () => Promise.resolve("ran"), { timeoutMs: 500, staleMs: 1_000 }),
      /Cannot take the lock/,
    );
    assert.equal(JSON.parse(await Deno.readTextFile(lock)).nonce, "live");
  });
});

Deno.test("withFileLock() leaves a lock that is no longer its own", async () => {
  await withDir(async (dir) => {
    const ctx = createTestContext({ now: Date.now() });
    const lock = join(dir, "x.lock");
    await withFileLock(ctx, lock, async () => {
      // Someone broke our lock and took it: on the way out we must not remove theirs.
      await Deno.writeTextFile(lock, JSON.stringify({ pid: 1, nonce: "theirs" }));
    });
    assert.equal(JSON.parse(await Deno.readTextFile(lock)).nonce, "theirs");
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

Deno.test("withFileLock() judges a holder whose pid is not a number by age alone", async () => {
  await withDir(async (dir) => {
    const lock = join(dir, "x.lock");
    await Deno.writeTextFile(lock, JSON.stringify({ pid: "4242", nonce: 7, time: "now" }));
    const ctx = createTestContext({
      now: Date.now() + 20_000,
      run: () => Promise.reject(new Error("kill -0 must not be asked about a pid of another type")),
    });
    assert.equal(
      await withFileLock(ctx, lock, () => Promise.resolve("ok"), { staleMs: 10_000 }),
      "ok",
    );
    assert.equal(await ctx.fs.exists(lock), false);
  });
});
