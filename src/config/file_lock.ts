/**
 * A lock file guarding a read-modify-write across processes.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { HarkError } from "../errors/mod.ts";
import { ExitCode } from "../errors/exit_code.ts";
import { numberField, stringField } from "../json/fields.ts";
import { explainWriteFailure } from "./file_error.ts";

/** Options of {@link withFileLock}. */
export interface FileLockOptions {
  /** How long to wait for the lock before failing, in ms; default 15 000. */
  timeoutMs?: number;
  /**
   * Age in ms after which a lock whose holder cannot be asked about (Windows, no `kill`) is
   * considered abandoned; default 120 000, well above the longest work done under a lock (a
   * token refresh with its 30 s timeout).
   */
  staleMs?: number;
  /** Pause between attempts, in ms; default 25. */
  retryMs?: number;
}

/** What a lock file holds. */
interface LockHolder {
  pid?: number;
  nonce?: string;
  time?: number;
}

/**
 * Runs `fn` while holding the lock file `lockPath` (created exclusively, removed afterwards).
 *
 * A lock is broken only when its holder is gone: on POSIX `kill -0` says the pid no longer
 * exists (a live holder is never overtaken, however long it works); where that cannot be asked,
 * when the lock is older than `staleMs`. Breaking renames the lock to a unique name first, so of
 * two processes that find the same dead lock only one breaks it. On the way out the lock is
 * removed only if it is still ours.
 *
 * @param ctx the context
 * @param lockPath the lock file, such as `<config>.lock`
 * @param fn the work to do under the lock
 * @param options timing
 * @throws {HarkError} of type `lock` when the lock cannot be taken in time, or cannot be created
 * at all (a read-only or missing folder)
 * @throws {ValidationError} when the lock's folder is unsafe (other users may write to it)
 */
export async function withFileLock<T>(
  ctx: Context,
  lockPath: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const staleMs = options.staleMs ?? 120_000;
  const retryMs = options.retryMs ?? 25;
  const deadline = ctx.now() + timeoutMs;
  const nonce = [...ctx.randomBytes(8)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const mine: LockHolder = { pid: ctx.pid, nonce, time: ctx.now() };
  for (let attempt = 0;; attempt++) {
    try {
      await ctx.fs.createExclusive(lockPath, JSON.stringify(mine));
      break;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw cannotLock(ctx, lockPath, error);
    }
    const holder = await readHolder(ctx, lockPath);
    if (holder && await isAbandoned(ctx, lockPath, holder, staleMs)) {
      await breakLock(ctx, lockPath, holder, nonce);
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
    const holder = await readHolder(ctx, lockPath);
    if (holder?.nonce === nonce) await ctx.fs.remove(lockPath);
  }
}

function cannotLock(ctx: Context, lockPath: string, error: unknown): HarkError {
  if (error instanceof HarkError) return error;
  const { reason, suggestion } = explainWriteFailure(
    error,
    lockPath,
    "use another config file",
    ctx.os,
  );
  return new HarkError(ExitCode.General, "lock", `Cannot take the lock "${lockPath}": ${reason}`, {
    suggestion,
    command: "",
  }, error);
}

async function readHolder(ctx: Context, lockPath: string): Promise<LockHolder | undefined> {
  try {
    const parsed: unknown = JSON.parse(await ctx.fs.readTextFile(lockPath));
    // Another program's file, or another version's: only the fields of the right type count.
    return {
      pid: numberField(parsed, "pid"),
      nonce: stringField(parsed, "nonce"),
      time: numberField(parsed, "time"),
    };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    // Being written this very moment: an empty holder, judged by age alone.
    return {};
  }
}

async function isAbandoned(
  ctx: Context,
  lockPath: string,
  holder: LockHolder,
  staleMs: number,
): Promise<boolean> {
  const pid = holder.pid;
  if (ctx.os !== "windows" && pid !== undefined && Number.isInteger(pid) && pid !== ctx.pid) {
    const alive = await isAlive(ctx, pid);
    if (alive !== undefined) return !alive;
  }
  const mtime = await ctx.fs.mtime(lockPath);
  return mtime !== undefined && ctx.now() - mtime > staleMs;
}

async function breakLock(
  ctx: Context,
  lockPath: string,
  holder: LockHolder,
  nonce: string,
): Promise<void> {
  const aside = `${lockPath}.broken-${nonce}`;
  try {
    await ctx.fs.rename(lockPath, aside);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return; // Someone else broke it first.
    throw error;
  }
  // The rename may have caught a lock taken afresh by another process in between: put it back.
  const moved = await readHolder(ctx, aside);
  if (moved && moved.nonce !== holder.nonce) {
    try {
      await ctx.fs.createExclusive(lockPath, JSON.stringify(moved));
    } catch {
      // A third process took the lock meanwhile; the restored holder will find its lock gone and
      // leave it alone on release, which is the safe side.
    }
  }
  await ctx.fs.remove(aside);
}

/** Whether `pid` runs, by `kill -0`; `undefined` when that cannot be asked. */
async function isAlive(ctx: Context, pid: number): Promise<boolean | undefined> {
  try {
    const result = await ctx.run("kill", ["-0", String(pid)], { timeoutMs: 2_000 });
    return result.code === 0;
  } catch {
    return undefined;
  }
}
