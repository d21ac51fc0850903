/**
 * How an error is shown: the JSON envelope, or readable text, on stderr.
 *
 * @module
 */

import { type ErrorEnvelope, type HarkError, toEnvelope, unattendedLogin } from "../errors/mod.ts";
import { terminalSafe } from "../output/terminal_safe.ts";
import { escapeJsonText } from "../output/output.ts";
import { wrapText } from "../output/wrap.ts";
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
  /**
   * The terminal's width: the text form's message and suggestion wrap to it between words, as
   * help does (the command to run and the page to open stay on one line, to be copied whole);
   * no wrapping when absent (stderr is not a terminal).
   */
  width?: number;
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
    : formatErrorText(envelope, options.paint, options.width);
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
 * the command, one per line; with a `width`, the message, the suggestion and the warnings wrap to
 * it between words (a word is never broken), under their own indent. Messages and suggestions often carry the service's own text (its
 * `msg`, a user name), so every field is made terminal-safe ({@link terminalSafe}): control,
 * bidi and invisible format characters are escaped visibly, line breaks included, so no field
 * can start a line that looks like hark's own (`  Run: …`).
 * ({@link toEnvelope} makes every field one line already; this holds for any envelope.)
 *
 * @param envelope the envelope to render
 * @param paint colour helpers (identity when colours are off)
 * @param width the terminal's width to wrap to; none when absent
 * @returns the text, ending with a newline
 */
export function formatErrorText(
  envelope: ErrorEnvelope,
  paint: { red(s: string): string; bold(s: string): string } = { red: id, bold: id },
  width?: number,
): string {
  const { message, recovery, request_id: requestId, warnings = [] } = envelope.error;
  const safe = (text: string) => terminalSafe(text, { breaks: "escape" });
  // A label, then text wrapped under an indent: the label's width for the message, so that it
  // reads as one paragraph, two spaces for the rest.
  const wrapped = (label: string, text: string, indent: number) =>
    width === undefined
      ? [label + text]
      : wrapText(label + text, width - indent, { breakWords: false })
        .map((line, i) => i === 0 ? line : " ".repeat(indent) + line);
  const lines = [
    ...warnings.flatMap((w) => wrapped("warning: ", terminalSafe(w, { breaks: "space" }), 2)),
    ...wrapped("error: ", safe(message), 2).map((line, i) =>
      i === 0 ? paint.red("error:") + line.slice("error:".length) : line
    ),
  ];
  if (recovery.suggestion) {
    lines.push(
      ...wrapped("", safe(recovery.suggestion), 2).map((line, i) => i === 0 ? `  ${line}` : line),
    );
  }
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
