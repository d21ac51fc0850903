/**
 * One record as a key: value card (as `gh … view` shows one): a line per field, the value
 * wrapped under itself to the terminal's width, nothing cut and nothing hidden.
 *
 * @module
 */

import type { ColumnKind } from "./table.ts";
import { sanitizeCell, textWidth } from "./text_width.ts";
import { wrapText } from "./wrap.ts";

/** One field of a card. */
export interface CardField {
  /** The label, as the table's header reads. */
  label: string;
  /** The value as text; an empty one is left out. */
  value: string;
  /** `"id"` and `"time"` values are never broken inside a word; default `"text"`. */
  kind?: ColumnKind;
}

/** Options of {@link renderCard}. */
export interface CardOptions {
  /** The width to wrap values to; no wrapping when absent. */
  maxWidth?: number;
  /** Styles a label (bold on a terminal). */
  label?: (text: string) => string;
}

/**
 * Renders a card: `LABEL:` padded to the longest label, then the value; a value wider than
 * the rest of the line wraps between words onto lines indented under it (an id or a time is
 * never broken: it stays whole, and may pass the width). Labels and values are made safe
 * ({@link sanitizeCell}); empty values are left out.
 *
 * @param fields the fields, in order
 * @param options width and label style
 * @returns the card, each line ending with a newline; empty when no field has a value
 * @example
 * ```ts
 * renderCard([{ label: "NAME", value: "Quentin Anderson" }, { label: "OPEN ID", value: "ou_1" }]);
 * // "NAME:     Quentin Anderson\nOPEN ID:  ou_1\n"
 * ```
 */
export function renderCard(fields: readonly CardField[], options: CardOptions = {}): string {
  const shown = fields
    .map((f) => ({ ...f, label: sanitizeCell(f.label), value: sanitizeCell(f.value).trim() }))
    .filter((f) => f.value !== "");
  const labelWidth = Math.max(0, ...shown.map((f) => textWidth(f.label) + 1));
  const indent = labelWidth + 2;
  const style = options.label ?? ((s: string) => s);
  return shown.map((f) => {
    const room = options.maxWidth === undefined ? Infinity : options.maxWidth - indent;
    const lines = room === Infinity ? [f.value] : wrapText(f.value, Math.max(room, 10), {
      breakWords: (f.kind ?? "text") === "text",
    });
    const label = `${f.label}:`;
    const head = style(label) + " ".repeat(indent - textWidth(label));
    return head + lines.join("\n" + " ".repeat(indent)) + "\n";
  }).join("");
}
