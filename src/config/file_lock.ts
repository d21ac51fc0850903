/**
 * A lock file guarding a read-modify-write across processes.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { HarkError } from "../errors/mod.ts";
import { ExitCode } from "../errors/exit_code.ts";
import { explainWriteFailure } from "./file_error.ts";

/** Options of {@link withFileLock}. */
export interface FileLockOptions {
  /** How long to wait for the lock before failing, in ms; default 15 000. */
  timeoutMs?: number;
  /** Pause between attempts, in ms; default 25. */
  retryMs?: number;
}

/**
 * Runs `fn` while holding the lock file `lockPath`.
 *
 * The lock is an advisory lock on the open file ({@link FileSystem.tryLock}): no one else can
 * take it while it is held, however long the work, and the system lets go of it when the
 * holder dies. So nothing here judges whether a holder is alive, and nothing ever breaks a
 * lock (a lock judged by its holder's pid could be stolen: B reads holder A, A exits, C locks,
 * B finds A dead and breaks C's live lock).
 *
 * @param ctx the context
 * @param lockPath the lock file, such as `<config>.lock`
 * @param fn the work to do under the lock
 * @param options timing
 * @throws {HarkError} of type `lock` when the lock cannot be taken in time, or cannot be created
 * at all (a read-only or missing folder, something else than a file at `lockPath`)
 * @throws {ValidationError} when the lock's folder is unsafe (other users may write to it)
 */
export async function withFileLock<T>(
  ctx: Context,
  lockPath: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const retryMs = options.retryMs ?? 25;
  const deadline = ctx.now() + timeoutMs;
  let release: (() => Promise<void>) | undefined;
  for (let attempt = 0;; attempt++) {
    try {
      release = await ctx.fs.tryLock(lockPath);
    } catch (error) {
      throw cannotLock(ctx, lockPath, error);
    }
    if (release) break;
    if (ctx.now() >= deadline) {
      throw new HarkError(ExitCode.General, "lock", `Cannot take the lock "${lockPath}": busy`, {
        suggestion: "Another hark process holds it; retry once it has finished",
        command: "",
      });
    }
    await ctx.sleep(retryMs + (attempt % 5) * 3, ctx.signal);
  }
  try {
    return await fn();
  } finally {
    await release();
  }
}

function cannotLock(ctx: Context, lockPath: string, error: unknown): HarkError {
  if (error instanceof HarkError) return error;
  if (error instanceof Deno.errors.AlreadyExists) {
    return new HarkError(
      ExitCode.General,
      "lock",
      `Cannot take the lock "${lockPath}": it is not a regular file`,
      { suggestion: `Remove "${lockPath}" (hark creates it afresh)`, command: "" },
      error,
    );
  }
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
