/**
 * Runs a keychain tool through the context, turning a missing binary and a hang into a
 * {@link KeychainError} that names the backend. Private to `src/keychain/`.
 *
 * @module
 */

import type { Context, RunResult } from "../context.ts";
import { KeychainError, WAYS_OUT } from "./keychain.ts";

/** Options of {@link runTool}. */
export interface RunToolOptions {
  /** The backend's name, for error messages. */
  backend: string;
  /** Bytes or text for the tool's stdin; the only place a secret may travel. */
  stdin?: string | Uint8Array;
  /** Milliseconds before the tool is killed. */
  timeoutMs: number;
  /** The tool's environment; default the current one. */
  env?: Record<string, string>;
  /** What to install when the tool is missing, such as `the "libsecret-tools" package`. */
  install: string;
}

/**
 * Runs `cmd args` through `ctx.run`.
 *
 * @returns the finished process, whatever its exit code
 * @throws {KeychainError} when the tool is missing, cannot start, or does not finish in time
 */
export async function runTool(
  ctx: Context,
  cmd: string,
  args: string[],
  options: RunToolOptions,
): Promise<RunResult> {
  try {
    return await ctx.run(cmd, args, {
      stdin: options.stdin,
      timeoutMs: options.timeoutMs,
      env: options.env,
    });
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    if (name === "NotFound") {
      throw new KeychainError(
        options.backend,
        `Cannot use the ${options.backend} keychain: "${cmd}" was not found`,
        { suggestion: `Install ${options.install}, ${WAYS_OUT}`, cause: error },
      );
    }
    if (name === "TimedOut") {
      throw new KeychainError(
        options.backend,
        `Cannot use the ${options.backend} keychain: "${cmd}" did not answer within ` +
          `${options.timeoutMs / 1000} s (is the keychain locked or waiting for a prompt?)`,
        { suggestion: `Unlock the keychain, ${WAYS_OUT}`, cause: error },
      );
    }
    throw new KeychainError(
      options.backend,
      `Cannot use the ${options.backend} keychain: "${cmd}" failed to start: ${errorText(error)}`,
      { cause: error },
    );
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
