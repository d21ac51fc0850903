/**
 * A lock file guarding a read-modify-write across processes.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { HarkError } from "../errors/mod.ts";
import { ExitCode } from "../errors/exit_code.ts";

/** Options of {@link withFileLock}. */
export interface FileLockOptions {
  /** How long to wait for the lock before failing, in ms; default 15 000. */
  timeoutMs?: number;
  /** Age in ms after which a lock is considered abandoned and broken; default 10 000. */
  staleMs?: number;
  /** Pause between attempts, in ms; default 25. */
  retryMs?: number;
}

/**
 * Runs `fn` while holding the lock file `lockPath` (created exclusively, removed afterwards).
 * A lock left by a dead process (`kill -0` says its pid is gone; not on Windows) or older than
 * `staleMs` is broken.
 *
 * @param ctx the context
 * @param lockPath the lock file, such as `<config>.lock`
 * @param fn the work to do under the lock
 * @param options timing
 * @throws {HarkError} of type `lock` when the lock cannot be taken in time
 */
export async function withFileLock<T>(
  ctx: Context,
  lockPath: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const staleMs = options.staleMs ?? 10_000;
  const retryMs = options.retryMs ?? 25;
  const deadline = ctx.now() + timeoutMs;
  for (let attempt = 0;; attempt++) {
    try {
      await ctx.fs.createExclusive(lockPath, JSON.stringify({ pid: ctx.pid, time: ctx.now() }));
      break;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
    if (await isStale(ctx, lockPath, staleMs)) {
      await ctx.fs.remove(lockPath);
      continue;
    }
    if (ctx.now() >= deadline) {
      throw new HarkError(ExitCode.General, "lock", `Cannot take the lock "${lockPath}": busy`, {
        suggestion: `Another hark process holds it; retry, or delete "${lockPath}" if none runs`,
        command: "",
      });
    }
    await ctx.sleep(retryMs + (attempt % 5) * 3, ctx.signal);
  }
  try {
    return await fn();
  } finally {
    await ctx.fs.remove(lockPath);
  }
}

async function isStale(ctx: Context, lockPath: string, staleMs: number): Promise<boolean> {
  let holder: { pid?: number } = {};
  try {
    holder = JSON.parse(await ctx.fs.readTextFile(lockPath));
  } catch {
    // Being written right now, or gone: judge by age alone.
  }
  if (ctx.os !== "windows" && Number.isInteger(holder.pid) && holder.pid !== ctx.pid) {
    if (!(await isAlive(ctx, holder.pid!))) return true;
  }
  const mtime = await ctx.fs.mtime(lockPath);
  return mtime !== undefined && ctx.now() - mtime > staleMs;
}

async function isAlive(ctx: Context, pid: number): Promise<boolean> {
  try {
    const result = await ctx.run("kill", ["-0", String(pid)], { timeoutMs: 2_000 });
    return result.code === 0;
  } catch {
    // No `kill` to ask: assume alive and let the age decide.
    return true;
  }
}
