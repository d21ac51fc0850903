/**
 * Messages drawn as a conversation for a person at a terminal (`+messages`, `+thread`): oldest
 * to newest, each with its sender, time and message id on one line and its text wrapped below,
 * nothing cut.
 *
 * Pure: rows in, text out. Server text is made terminal-safe before it is measured.
 *
 * @module
 */

import { sanitizeCell } from "../../output/text_width.ts";
import { wrapText } from "../../output/wrap.ts";
import { objectOf, stringField } from "../../json/fields.ts";
import { formatLocalTime } from "../../time/mod.ts";
import { senderLabel } from "./message_rows.ts";

/** Options of {@link drawConversation}. */
export interface ConversationOptions {
  /** The viewer's IANA zone: times are its wall-clock times. */
  timeZone: string;
  /** The terminal width in columns. */
  width: number;
}

/** How far a message's text is indented under its header line. */
const INDENT = "  ";
/** Types whose text says what they are already; others are named on the header line. */
const PLAIN_TYPES = new Set(["text", "post"]);

/**
 * Draws message rows (`messageRow` of `message_rows.ts`) as a conversation: sorted oldest first
 * (whatever order they were read in), a header line `sender · time · message id` (plus the type
 * when it is not text, and the thread id when the message is in a thread), the text wrapped to
 * the width below it, a blank line between messages.
 *
 * @param rows the message rows; anything that is not an object is skipped
 * @param options the zone and the width
 * @returns the drawing, lines ending with `\n`
 * @example
 * ```ts
 * drawConversation(rows, { timeZone: "UTC", width: 80 });
 * ```
 */
export function drawConversation(rows: readonly unknown[], options: ConversationOptions): string {
  const messages = rows.map(objectOf).filter((row) => Object.keys(row).length > 0)
    .map((row, index) => ({ row, index, ms: Date.parse(String(row.create_time)) }))
    // Oldest first; a message without a time keeps its place among its neighbours.
    .sort((a, b) =>
      (Number.isNaN(a.ms) || Number.isNaN(b.ms) ? 0 : a.ms - b.ms) || a.index - b.index
    );
  const blocks = messages.map(({ row, ms }) => {
    const type = stringField(row, "msg_type");
    const thread = stringField(row, "thread_id");
    const head = [
      senderLabel(row) || "(unknown sender)",
      Number.isNaN(ms) ? "" : formatLocalTime(ms, options.timeZone),
      stringField(row, "message_id") ?? "",
      type && !PLAIN_TYPES.has(type) ? type : "",
      thread ? `thread ${thread}` : "",
    ].map((part) => sanitizeCell(part)).filter((part) => part !== "").join(" · ");
    const text = String(row.text ?? "");
    // Each line of the message wraps on its own; its blank lines stay.
    const body = text.split(/\r\n|\r|\n|\u2028|\u2029/).flatMap((line) =>
      wrapText(sanitizeCell(line), options.width - INDENT.length).map((l) => INDENT + l)
    );
    return [head, ...body].map((line) => line.trimEnd()).join("\n") + "\n";
  });
  return blocks.join("\n");
}
