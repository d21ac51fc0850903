/**
 * What to tell a user whose write may have been applied although it failed (the connection
 * dropped or timed out after the request was sent, the server failed mid-way): the command that
 * runs it again with the same idempotency key, which the service applies at most once. Without
 * the key, a "retry" after a lost answer sends a second message or creates a second event.
 *
 * @module
 */

import { type HarkError, rerunIsTheFix } from "../errors/mod.ts";
import { shellQuote } from "../errors/shell_quote.ts";
import type { AnyShortcut, ParamValues } from "./definition.ts";
import type { ParamSource } from "./input_sources.ts";

/** What the retry command is built from. */
export interface RetryFacts {
  /** The shortcut. */
  definition: AnyShortcut;
  /** The values given on the command line, by parameter name. */
  argv: Record<string, unknown>;
  /** `--input`, when given. */
  input?: string;
  /** The bound values (the key among them). */
  values: ParamValues;
  /** Where each bound value came from. */
  sources: Record<string, ParamSource>;
  /** `--as`, when given. */
  as?: string;
  /** The profile in use. */
  profile: string;
}

/**
 * The same error with the advice to retry with the same idempotency key, when the shortcut
 * names its key parameter and the error says the write may have been applied, or is one that
 * running the command again fixes (a network failure, an answer hark could not read: the
 * command it would offer must not post a second time); else the error as it is.
 *
 * @param error the failure
 * @param facts the shortcut and how it was called
 */
export function withRetryAdvice(error: HarkError, facts: RetryFacts): HarkError {
  const keyParam = facts.definition.idempotencyKey;
  if (keyParam === undefined) return error;
  const key = facts.values[keyParam];
  if (typeof key !== "string") return error;
  if (!error.mayHaveApplied) {
    // The command offered to run again is this one, with the key that was sent.
    if (error.recovery.command !== "" || !rerunIsTheFix(error)) return error;
    return error.withRecovery({
      ...error.recovery,
      command: retryCommand(facts, keyParam, key),
    });
  }
  const fromStdin = Object.values(facts.sources).includes("stdin") || facts.input === "-";
  return error.withRecovery({
    suggestion: "The request may have been applied before its answer was lost: check, or run " +
      "it again with the same idempotency key, which is safe (the service applies one key " +
      `at most once)${fromStdin ? "; give it the same input on stdin again" : ""}`,
    command: retryCommand(facts, keyParam, key),
  });
}

/**
 * The command line that repeats a shortcut call with `--<keyParam> <key>`: the flags given on the
 * command line, `--input`, `--as` and a profile other than `default`.
 *
 * @param facts the shortcut and how it was called
 * @param keyParam the key's parameter
 * @param key the key that was sent
 */
export function retryCommand(facts: RetryFacts, keyParam: string, key: string): string {
  const words = ["hark", facts.definition.service, facts.definition.verb];
  for (const param of facts.definition.params) {
    if (param.name === keyParam) continue;
    const value = facts.argv[param.name];
    if (value === undefined || value === false) continue;
    words.push(`--${param.name}`);
    if (value !== true) words.push(shellQuote(String(value)));
  }
  if (facts.input !== undefined) words.push("--input", shellQuote(facts.input));
  if (facts.as !== undefined) words.push("--as", shellQuote(facts.as));
  if (facts.profile !== "default") words.push("--profile", shellQuote(facts.profile));
  words.push(`--${keyParam}`, shellQuote(key));
  return words.join(" ");
}
