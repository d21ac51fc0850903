/**
 * How an error is shown: the JSON envelope, or readable text, on stderr.
 *
 * @module
 */

import { type ErrorEnvelope, type HarkError, toEnvelope, unattendedLogin } from "../errors/mod.ts";
import { terminalSafe } from "../output/terminal_safe.ts";
import { escapeJsonText } from "../output/output.ts";
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
 * recovery command gets the failed command line again or its help (see `fallbackCommand`). As
 * JSON, an error whose recovery is a sign-in also names its two steps for a caller without a
 * terminal ({@link unattendedLogin}).
 *
 * @param error the error
 * @param options the mode
 */
export function renderError(error: HarkError, options: RenderErrorOptions): string {
  const envelope = toEnvelope(error, {
    help: options.helpCommand,
    rerun: options.rerunCommand,
  });
  const twoSteps = options.json ? unattendedLogin(envelope.error.recovery.command) : undefined;
  if (twoSteps !== undefined) {
    // A JSON reader is most often a program: it learns the sign-in that waits for nobody.
    const { recovery } = envelope.error;
    recovery.suggestion = `${recovery.suggestion.replace(/\.?$/, ".")} ${twoSteps}`.trim();
  }
  let text = options.json
    ? escapeJsonText(JSON.stringify(envelope)) + "\n"
    : formatErrorText(envelope, options.paint);
  if (options.debug) {
    for (let e: unknown = error; e instanceof Error; e = e.cause) {
      // The messages in a stack can hold the service's text.
      text += `\n${terminalSafe(e.stack ?? `${e.name}: ${e.message}`)}\n`;
    }
  }
  return text;
}

/**
 * The readable text form for a terminal: the message, then the suggestion, the page to open and
 * the command, one per line. Messages and suggestions often carry the service's own text (its
 * `msg`, a user name), so every field is made terminal-safe ({@link terminalSafe}): control,
 * bidi and invisible format characters are escaped visibly, line breaks included, so no field
 * can start a line that looks like hark's own (`  Run: …`).
 * ({@link toEnvelope} makes every field one line already; this holds for any envelope.)
 *
 * @param envelope the envelope to render
 * @param paint colour helpers (identity when colours are off)
 * @returns the text, ending with a newline
 */
export function formatErrorText(
  envelope: ErrorEnvelope,
  paint: { red(s: string): string; bold(s: string): string } = { red: id, bold: id },
): string {
  const { message, recovery, request_id: requestId, warnings = [] } = envelope.error;
  const safe = (text: string) => terminalSafe(text, { breaks: "escape" });
  const lines = [
    ...warnings.map((w) => `warning: ${terminalSafe(w, { breaks: "space" })}`),
    `${paint.red("error:")} ${safe(message)}`,
  ];
  if (recovery.suggestion) lines.push(`  ${safe(recovery.suggestion)}`);
  if (recovery.url) lines.push(`  Open: ${safe(recovery.url)}`);
  if (recovery.command) lines.push(`  Run: ${paint.bold(safe(recovery.command))}`);
  // The message names the log id already when it came from the service's error.
  if (requestId && !message.includes(requestId)) {
    lines.push(`  Log id (for Lark support): ${safe(requestId)}`);
  }
  return lines.join("\n") + "\n";
}

function id(s: string): string {
  return s;
}
