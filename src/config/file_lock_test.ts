import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestContext } from "../../tests/support/test_context.ts";
import { HarkError } from "../errors/mod.ts";
import { withFileLock } from "./file_lock.ts";

const posix = Deno.build.os !== "windows";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "hark-lock-test-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function names(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

Deno.test("withFileLock() holds the lock file while fn runs and removes it after", async () => {
  await withDir(async (dir) => {
    const ctx = createTestContext();
    const lock = join(dir, "config.json.lock");
    const result = await withFileLock(ctx, lock, async () => {
      assert.equal((await Deno.lstat(lock)).isFile, true);
      if (posix) assert.equal((await Deno.stat(lock)).mode! & 0o777, 0o600);
      return 42;
    });
    assert.equal(result, 42);
    if (posix) assert.deepEqual(await names(dir), []);
  });
});

Deno.test("withFileLock() removes the lock when fn throws", async () => {
  await withDir(async (dir) => {
    const ctx = createTestContext();
    const lock = join(dir, "x.lock");
    await assert.rejects(
      withFileLock(ctx, lock, () => Promise.reject(new Error("boom"))),
      /boom/,
    );
    if (posix) assert.deepEqual(await names(dir), []);
    // And it can be taken again at once.
    assert.equal(await withFileLock(ctx, lock, () => Promise.resolve("again")), "again");
    assert.deepEqual(ctx.sleeps, []);
  });
});

Deno.test("withFileLock() fails with a lock error when another holder keeps it too long", async () => {
  await withDir(async (dir) => {
    const lock = join(dir, "x.lock");
    const holder = createTestContext();
    const ctx = createTestContext();
    let ran = false;
    await withFileLock(holder, lock, async () => {
      await assert.rejects(
        withFileLock(ctx, lock, () => {
          ran = true;
          return Promise.resolve();
        }, { timeoutMs: 1_000 }),
        (error: unknown) => {
          assert.ok(error instanceof HarkError);
          assert.equal(error.type, "lock");
          assert.equal(error.code, 1);
          assert.equal(error.message, `Cannot take the lock "${lock}": busy`);
          assert.match(error.recovery.suggestion, /Another hark process holds it/);
          return true;
        },
      );
      assert.equal((await Deno.lstat(lock)).isFile, true, "the holder's lock is left alone");
    });
    assert.equal(ran, false);
    assert.ok(ctx.sleeps.length > 0, "it waited between attempts");
    assert.ok(ctx.sleeps.reduce((a, b) => a + b, 0) >= 1_000);
    assert.deepEqual(ctx.runs, [], "no process is asked whether a holder lives");
  });
});

Deno.test("withFileLock() never lets a second holder in while the first works, whatever its pid", async () => {
  await withDir(async (dir) => {
    const lock = join(dir, "config.json.lock");
    // The waiter is told every pid is dead (a holder that exited, a pid reused): the lock must
    // hold all the same, until its holder lets go.
    const base = createTestContext({
      run: () => Promise.resolve({ code: 1, stdout: "", stderr: "No such process" }),
    });
    let letGo = () => {};
    const released = new Promise<void>((resolve) => letGo = resolve);
    let attempts = 0;
    const waiter = {
      ...base,
      pid: 7,
      sleep(ms: number, signal?: AbortSignal) {
        if (++attempts === 20) letGo();
        return base.sleep(ms, signal);
      },
    };
    const order: string[] = [];
    let inside = false;
    let entered = () => {};
    const firstInside = new Promise<void>((resolve) => entered = resolve);
    const first = withFileLock(createTestContext(), lock, async () => {
      inside = true;
      order.push("first in");
      entered();
      await released;
      order.push("first out");
      inside = false;
    });
    await firstInside;
    const second = withFileLock(waiter, lock, () => {
      order.push(inside ? "second in, first still inside" : "second in");
      return Promise.resolve();
    }, { timeoutMs: 600_000 });
    await Promise.all([first, second]);
    assert.deepEqual(order, ["first in", "first out", "second in"]);
    assert.ok(attempts >= 20, "the second waited");
  });
});

Deno.test("withFileLock() takes at once a lock file left behind with no holder", async () => {
  await withDir(async (dir) => {
    const lock = join(dir, "x.lock");
    // A crashed run of an older hark left its lock file, naming a live pid.
    await Deno.writeTextFile(lock, JSON.stringify({ pid: Deno.pid, nonce: "old", time: 0 }));
    const ctx = createTestContext();
    assert.equal(await withFileLock(ctx, lock, () => Promise.resolve("ok")), "ok");
    assert.deepEqual(ctx.sleeps, []);
    assert.deepEqual(ctx.runs, []);
  });
});

Deno.test({
  name: "withFileLock() is free again once a holder process dies holding it",
  ignore: !posix,
  async fn() {
    await withDir(async (dir) => {
      const lock = join(dir, "x.lock");
      const child = new Deno.Command(Deno.execPath(), {
        args: [
          "eval",
          `const f = await Deno.open(${JSON.stringify(lock)}, { read: true, write: true, ` +
          `create: true }); await f.lock(true); console.log("locked"); ` +
          "await new Promise(() => setInterval(() => {}, 1000));",
        ],
        stdout: "piped",
        stderr: "null",
        stdin: "null",
      }).spawn();
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      try {
        assert.equal((await reader.read()).value?.trim(), "locked");
        const ctx = createTestContext();
        await assert.rejects(
          withFileLock(ctx, lock, () => Promise.resolve(), { timeoutMs: 200 }),
          /busy/,
        );
      } finally {
        child.kill("SIGKILL");
        await child.status;
        await reader.cancel();
      }
      const ctx = createTestContext();
      assert.equal(await withFileLock(ctx, lock, () => Promise.resolve("mine")), "mine");
      assert.deepEqual(ctx.sleeps, []);
    });
  },
});

Deno.test({
  name: "withFileLock() refuses a link at the lock's path and never follows it",
  ignore: !posix,
  async fn() {
    await withDir(async (dir) => {
      const victim = join(dir, "victim");
      await Deno.writeTextFile(victim, "precious");
      const lock = join(dir, "config.json.lock");
      await Deno.symlink(victim, lock);
      const dangling = join(dir, "other.lock");
      await Deno.symlink(join(dir, "nowhere"), dangling);
      for (const path of [lock, dangling]) {
        await assert.rejects(
          withFileLock(createTestContext(), path, () => Promise.resolve()),
          (error: unknown) => {
            assert.ok(error instanceof HarkError);
            assert.equal(error.type, "lock");
            assert.equal(error.message, `Cannot take the lock "${path}": it is not a regular file`);
            assert.equal(error.recovery.suggestion, `Remove "${path}" (hark creates it afresh)`);
            return true;
          },
        );
      }
      assert.equal(await Deno.readTextFile(victim), "precious");
      assert.deepEqual(await names(dir), ["config.json.lock", "other.lock", "victim"]);
    });
  },
});
