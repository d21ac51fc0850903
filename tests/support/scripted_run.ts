/**
 * A strict, scripted subprocess runner for the keychain adapters' unit tests: each call must
 * match the next expected command, arguments and stdin exactly; an unexpected call fails, and
 * {@link ScriptedRun.verify} fails when an expected call never came.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { RunOptions, RunResult } from "../../src/context.ts";

/** One expected subprocess call and its recorded answer. */
export interface ExpectedRun {
  /** The program. */
  cmd: string;
  /** Its exact arguments. */
  args: string[];
  /** Its exact stdin; `undefined` means none. */
  stdin?: string;
  /** The answer; missing fields are empty, `code` defaults to 0. */
  result?: Partial<RunResult>;
  /** An error to throw instead, such as a `NotFound` or `TimedOut`. */
  error?: Error;
}

/** A scripted runner. */
export interface ScriptedRun {
  /** The runner to give `createTestContext({ run })`. */
  run(cmd: string, args: string[], options: RunOptions): Promise<RunResult>;
  /** Throws when an expected call never came. */
  verify(): void;
}

/**
 * Builds a strict runner from the expected calls, in order.
 *
 * @param expected the calls and their answers
 */
export function scriptedRun(expected: ExpectedRun[]): ScriptedRun {
  const queue = [...expected];
  return {
    run(cmd, args, options) {
      const next = queue.shift();
      if (!next) throw new Error(`Unexpected subprocess: ${cmd} ${args.join(" ")}`);
      assert.equal(cmd, next.cmd);
      assert.deepEqual(args, next.args);
      const stdin = options.stdin instanceof Uint8Array
        ? new TextDecoder().decode(options.stdin)
        : options.stdin;
      assert.equal(stdin, next.stdin, `stdin of ${cmd} ${args.join(" ")}`);
      assert.ok(options.timeoutMs !== undefined && options.timeoutMs <= 30_000, "has a timeout");
      if (next.error) return Promise.reject(next.error);
      return Promise.resolve({ code: 0, stdout: "", stderr: "", ...next.result });
    },
    verify() {
      if (queue.length > 0) {
        const left = queue.map((e) => `${e.cmd} ${e.args.join(" ")}`).join("; ");
        throw new Error(`Expected subprocesses never run: ${left}`);
      }
    },
  };
}

/** An error shaped like the one `Deno.Command` throws for a missing program. */
export function notFoundError(cmd: string): Error {
  const error = new Error(`Failed to spawn '${cmd}': No such file or directory (os error 2)`);
  error.name = "NotFound";
  return error;
}

/** An error shaped like the one the real `ctx.run` throws on its timeout. */
export function timedOutError(cmd: string, ms: number): Error {
  const error = new Error(`"${cmd}" did not finish within ${ms} ms`);
  error.name = "TimedOut";
  return error;
}

/**
 * Asserts that no secret, nor its base64 or hex form, appears in the arguments of any recorded
 * subprocess.
 */
export function assertNoSecretInArgv(
  runs: { cmd: string; args: string[] }[],
  secrets: string[],
): void {
  const argv = runs.map((r) => [r.cmd, ...r.args].join("\u0000")).join("\n");
  for (const secret of secrets.filter((s) => s.length >= 4)) {
    const bytes = new TextEncoder().encode(secret);
    for (const form of [secret, bytes.toBase64(), bytes.toHex()]) {
      assert.ok(!argv.includes(form), `a secret appeared in argv: ${JSON.stringify(secret)}`);
    }
  }
}
