/**
 * Checks shared by the hardening tests: an error run prints exactly one valid JSON envelope on
 * stderr, its code is the exit code, and nothing looks like a stack trace.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { ErrorEnvelope } from "../../src/errors/mod.ts";

/** What a run printed and how it ended. */
export interface Ended {
  code: number;
  stdout: string;
  stderr: string;
}

/** Lines that give a stack trace or an uncaught-error dump away. */
const TRACE_PATTERNS = [
  /^\s+at\s/m,
  /^(\w*Error|Uncaught)\b.*:/m,
  /error: Uncaught/i,
  /\.ts:\d+:\d+/,
];

/**
 * Fails when `text` holds a stack trace or an uncaught-error dump.
 *
 * @param text stdout or stderr
 * @param label names the case in the failure
 */
export function assertNoTrace(text: string, label: string): void {
  for (const pattern of TRACE_PATTERNS) {
    assert.doesNotMatch(text, pattern, `${label}: looks like a stack trace:\n${text}`);
  }
}

/**
 * Checks that stderr is exactly one line holding the spec's envelope, complete, with
 * `error.code` equal to the exit code, that the code is not 5 and that no stack trace shows.
 *
 * @param run the ended run
 * @param label names the case in failures
 * @returns the parsed envelope
 */
export function assertEnvelope(run: Ended, label: string): ErrorEnvelope["error"] {
  const where = `${label} (exit ${run.code}) stderr: ${run.stderr} stdout: ${run.stdout}`;
  assertNoTrace(run.stderr, label);
  assertNoTrace(run.stdout, label);
  assert.notEqual(run.code, 0, `${where}: expected a failure`);
  assert.notEqual(run.code, 5, `${where}: internal error`);
  const lines = run.stderr.split("\n").filter((line) => line.trim() !== "");
  assert.equal(lines.length, 1, `${where}: stderr must be one envelope line`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(lines[0]);
  } catch (error) {
    throw new Error(`${where}: stderr is not JSON`, { cause: error });
  }
  const error = (parsed as Partial<ErrorEnvelope>).error;
  assert.ok(error && typeof error === "object", `${where}: no "error" object`);
  assert.equal(error.code, run.code, `${where}: error.code differs from the exit code`);
  for (const field of ["type", "message"] as const) {
    assert.equal(typeof error[field], "string", `${where}: error.${field}`);
    assert.ok(error[field].length > 0, `${where}: empty error.${field}`);
  }
  assert.ok(error.recovery && typeof error.recovery === "object", `${where}: no recovery`);
  assert.equal(typeof error.recovery.suggestion, "string", `${where}: recovery.suggestion`);
  assert.ok(error.recovery.suggestion.length > 0, `${where}: empty recovery.suggestion`);
  assert.equal(typeof error.recovery.command, "string", `${where}: recovery.command`);
  assert.match(error.recovery.command, /^hark( |$)/, `${where}: recovery.command`);
  return error;
}
