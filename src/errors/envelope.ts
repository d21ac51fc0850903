/**
 * The JSON error envelope of the spec and the readable text form of an error.
 *
 * @module
 */

import { terminalSafe } from "../output/terminal_safe.ts";
import type { HarkError } from "./hark_error.ts";

/** The spec's error envelope. */
export interface ErrorEnvelope {
  error: {
    code: number;
    type: string;
    message: string;
    recovery: { suggestion: string; command: string };
    /** The service's log id, when the error came from an answer (what Lark support asks for). */
    request_id?: string;
  };
}

/**
 * The commands offered when an error names none: the failed command's help, and the failed
 * command line itself, to run again.
 */
export interface FallbackCommands {
  /** The failed command's help, such as `hark calendar +agenda --help`. */
  help: string;
  /**
   * The failed command line as typed, quoted for a shell, such as `hark contact +search-user
   * --query alice`; absent when it cannot be shown (a secret on it).
   */
  rerun?: string;
}

/**
 * Error types whose fix is to run the same command again, after waiting or after doing what the
 * suggestion says: the service was unreachable, unavailable, rate limited or gave a broken
 * answer; Ctrl-C; another hark process held the config lock; the keychain was locked or
 * unreachable; a verification step was pending.
 */
const RERUN_TYPES: ReadonlySet<string> = new Set([
  "network",
  "server_error",
  "rate_limit",
  "invalid_response",
  "cancelled",
  "lock",
  "keychain",
  "mfa",
]);

/**
 * The command to show for an error that names none, by its type: the same command again for
 * the types where retrying is the fix (a 5xx, a timeout, Ctrl-C, …), the same command with
 * `--debug` for a bug, and the command's help otherwise (a bad flag or value).
 *
 * @param error the error
 * @param fallbacks the commands of the failed invocation
 */
export function fallbackCommand(error: HarkError, fallbacks: FallbackCommands): string {
  if (fallbacks.rerun === undefined) return fallbacks.help;
  if (error.type === "internal") {
    return fallbacks.rerun.split(" ").includes("--debug")
      ? fallbacks.rerun
      : `${fallbacks.rerun} --debug`;
  }
  return RERUN_TYPES.has(error.type) ? fallbacks.rerun : fallbacks.help;
}

/**
 * The envelope of `error`; when the error names no recovery command, the one
 * {@link fallbackCommand} picks from `fallbacks`.
 *
 * @param error the error
 * @param fallbacks the failed command's help and command line; a string is the help command
 */
export function toEnvelope(
  error: HarkError,
  fallbacks: FallbackCommands | string = "hark --help",
): ErrorEnvelope {
  const commands = typeof fallbacks === "string" ? { help: fallbacks } : fallbacks;
  const envelope: ErrorEnvelope = {
    error: {
      code: error.code,
      type: error.type,
      message: error.message,
      recovery: {
        suggestion: error.recovery.suggestion,
        command: error.recovery.command || fallbackCommand(error, commands),
      },
    },
  };
  if (error.requestId) envelope.error.request_id = error.requestId;
  return envelope;
}

/**
 * The readable text form for a terminal: the message, then the suggestion and the command, one
 * per line. Messages and suggestions often carry the service's own text (its `msg`, a user
 * name), so every field is made terminal-safe ({@link terminalSafe}): control, bidi and
 * invisible format characters are escaped visibly; line breaks stay in the message and the
 * suggestion, and are escaped in the command, which a user may paste into a shell.
 *
 * @param envelope the envelope to render
 * @param paint colour helpers (identity when colours are off)
 * @returns the text, ending with a newline
 */
export function formatErrorText(
  envelope: ErrorEnvelope,
  paint: { red(s: string): string; bold(s: string): string } = { red: id, bold: id },
): string {
  const { message, recovery, request_id: requestId } = envelope.error;
  const lines = [`${paint.red("error:")} ${terminalSafe(message)}`];
  if (recovery.suggestion) lines.push(`  ${terminalSafe(recovery.suggestion)}`);
  if (recovery.command) {
    lines.push(`  Run: ${paint.bold(terminalSafe(recovery.command, { breaks: "escape" }))}`);
  }
  if (requestId) lines.push(`  Log id (for Lark support): ${terminalSafe(requestId)}`);
  return lines.join("\n") + "\n";
}

function id(s: string): string {
  return s;
}
