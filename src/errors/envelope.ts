/**
 * The JSON error envelope of the spec and the readable text form of an error.
 *
 * @module
 */

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
  if (error.requestId) envelope.error.request_id = error.requestId;
  return envelope;
}

/**
 * The readable text form: the message, then the suggestion and the command, one per line.
 *
 * @param envelope the envelope to render
 * @param paint colour helpers (identity when colours are off)
 */
export function formatErrorText(
  envelope: ErrorEnvelope,
  paint: { red(s: string): string; bold(s: string): string } = { red: id, bold: id },
): string {
  const { message, recovery, request_id: requestId } = envelope.error;
  const lines = [`${paint.red("error:")} ${message}`];
  if (recovery.suggestion) lines.push(`  ${recovery.suggestion}`);
  if (recovery.command) lines.push(`  Run: ${paint.bold(recovery.command)}`);
  if (requestId) lines.push(`  Log id (for Lark support): ${requestId}`);
  return lines.join("\n") + "\n";
}

function id(s: string): string {
  return s;
}
