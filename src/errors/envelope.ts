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
    recovery: {
      suggestion: string;
      command: string;
      /** A page to open when the fix is outside hark (the developer console's scope page). */
      url?: string;
    };
    /** The service's log id, when the error came from an answer (what Lark support asks for). */
    request_id?: string;
  };
}

/**
 * The envelope of `error`, with `helpCommand` as the recovery command when the error has none.
 *
 * @param error the error
 * @param helpCommand a fallback command, such as `hark calendar +agenda --help`
 */
export function toEnvelope(error: HarkError, helpCommand = "hark --help"): ErrorEnvelope {
  const envelope: ErrorEnvelope = {
    error: {
      code: error.code,
      type: error.type,
      message: error.message,
      recovery: {
        suggestion: error.recovery.suggestion,
        command: error.recovery.command || helpCommand,
      },
    },
  };
  if (error.recovery.url) envelope.error.recovery.url = error.recovery.url;
  if (error.requestId) envelope.error.request_id = error.requestId;
  return envelope;
}

/**
 * The readable text form for a terminal: the message, then the suggestion, the page to open and
 * the command, one per line. Messages and suggestions often carry the service's own text (its `msg`, a user
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
  if (recovery.url) lines.push(`  Open: ${terminalSafe(recovery.url, { breaks: "escape" })}`);
  if (recovery.command) {
    lines.push(`  Run: ${paint.bold(terminalSafe(recovery.command, { breaks: "escape" }))}`);
  }
  // The message names the log id already when it came from the service's error.
  if (requestId && !message.includes(requestId)) {
    lines.push(`  Log id (for Lark support): ${terminalSafe(requestId)}`);
  }
  return lines.join("\n") + "\n";
}

function id(s: string): string {
  return s;
}
