/**
 * The JSON error envelope of the spec (its text form for a terminal is `src/cli/render_error.ts`'s).
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
