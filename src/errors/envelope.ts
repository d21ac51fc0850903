/**
 * The JSON error envelope of the spec (its text form for a terminal is `src/cli/render_error.ts`'s).
 *
 * @module
 */

import { type HarkError, ValidationError } from "./hark_error.ts";
import { singleLine } from "./service_text.ts";

/** The spec's error envelope. */
export interface ErrorEnvelope {
  error: {
    code: number;
    type: string;
    message: string;
    recovery: {
      suggestion: string;
      command: string;
      /** A page to open when the fix is outside hark (the developer console's scope page). */
      url?: string;
    };
    /** The service's log id, when the error came from an answer (what Lark support asks for). */
    request_id?: string;
    /** What the command warned about before it failed, when anything. */
    warnings?: string[];
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
  // The app's status is fixed in the developer console (the recovery's url); then run it again.
  "app_status",
]);

/**
 * Whether running the same command again is the fix of an error of this type (after waiting,
 * or doing what the suggestion says): a network failure, an unavailable or rate-limited
 * service, an answer hark could not read, Ctrl-C, a held lock, a locked keychain.
 *
 * @param error the error
 */
export function rerunIsTheFix(error: HarkError): boolean {
  return RERUN_TYPES.has(error.type);
}

/**
 * The command to show for an error that names none, by its type: the same command again for
 * the types where retrying is the fix (a 5xx, a timeout, Ctrl-C, …), the same command with
 * `--debug` for a bug, the same command with the switch a validation error names
 * (`rerunWith`, such as `--yes`), and the command's help otherwise (a bad flag or value).
 *
 * @param error the error
 * @param fallbacks the commands of the failed invocation
 */
export function fallbackCommand(error: HarkError, fallbacks: FallbackCommands): string {
  if (fallbacks.rerun === undefined) return fallbacks.help;
  const rerunWith = error instanceof ValidationError ? error.rerunWith : undefined;
  if (rerunWith !== undefined) {
    return fallbacks.rerun.split(" ").includes(rerunWith)
      ? fallbacks.rerun
      : `${fallbacks.rerun} ${rerunWith}`;
  }
  if (error.type === "internal") {
    return fallbacks.rerun.split(" ").includes("--debug")
      ? fallbacks.rerun
      : `${fallbacks.rerun} --debug`;
  }
  return RERUN_TYPES.has(error.type) ? fallbacks.rerun : fallbacks.help;
}

/**
 * The envelope of `error`; when the error names no recovery command, the one
 * {@link fallbackCommand} picks from `fallbacks`. Every text field is one line
 * ({@link singleLine}): whatever an error quotes (the service's text, an id it sent), no field
 * can start a line that reads as another field, in the text a terminal or an MCP host shows.
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
      message: singleLine(error.message),
      recovery: {
        suggestion: singleLine(error.recovery.suggestion),
        command: singleLine(error.recovery.command || fallbackCommand(error, commands)),
      },
    },
  };
  if (error.recovery.url) envelope.error.recovery.url = singleLine(error.recovery.url);
  if (error.requestId) envelope.error.request_id = singleLine(error.requestId);
  if (error.warnings.length > 0) envelope.error.warnings = error.warnings.map(singleLine);
  return envelope;
}
