/**
 * How an error is shown: the JSON envelope, or readable text, on stderr.
 *
 * @module
 */

import { formatErrorText, type HarkError, toEnvelope } from "../errors/mod.ts";
import type { Paint } from "../output/color.ts";

/** Options of {@link renderError}. */
export interface RenderErrorOptions {
  /** Print the JSON envelope. */
  json: boolean;
  /** Add the stack trace (and causes). */
  debug: boolean;
  /** The failed command's help, offered when the error names no command and retrying is no fix. */
  helpCommand: string;
  /** The failed command line, offered when the error names no command and retrying is the fix. */
  rerunCommand?: string;
  /** Colours for the text form. */
  paint?: Paint;
}

/**
 * Renders an error for stderr. Stack traces appear only with `debug`. An error that names no
 * recovery command gets the failed command line again or its help (see `fallbackCommand`).
 *
 * @param error the error
 * @param options the mode
 */
export function renderError(error: HarkError, options: RenderErrorOptions): string {
  const envelope = toEnvelope(error, {
    help: options.helpCommand,
    rerun: options.rerunCommand,
  });
  let text = options.json
    ? JSON.stringify(envelope) + "\n"
    : formatErrorText(envelope, options.paint);
  if (options.debug) {
    for (let e: unknown = error; e instanceof Error; e = e.cause) {
      text += `\n${e.stack ?? `${e.name}: ${e.message}`}\n`;
    }
  }
  return text;
}
