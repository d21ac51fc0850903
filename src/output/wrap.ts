/**
 * Word wrapping by display width, for text shown whole at a terminal (a record's card, a
 * conversation, an error): nothing is cut, lines break between words.
 *
 * @module
 */

import truncatedWidth from "fast-string-truncated-width";
import { textWidth } from "./text_width.ts";

/** Options of {@link wrapText}. */
export interface WrapOptions {
  /**
   * Whether a word wider than the line is broken (default true); false leaves it whole on a
   * line of its own (an id or a URL that must stay copyable), wider than `width`.
   */
  breakWords?: boolean;
}

/**
 * Wraps one line of text to `width` columns, breaking at spaces; runs of spaces between words
 * become one where a line breaks.
 *
 * @param text one line, free of control characters (made safe by the caller)
 * @param width the width in columns; at least 1 is used
 * @param options whether over-long words are broken
 * @returns the lines, at least one (empty for empty text)
 * @example
 * ```ts
 * wrapText("the quick brown fox", 10); // ["the quick", "brown fox"]
 * ```
 */
export function wrapText(text: string, width: number, options: WrapOptions = {}): string[] {
  const limit = Math.max(1, width);
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/ +/).filter((w) => w !== "")) {
    const joined = line === "" ? word : `${line} ${word}`;
    if (textWidth(joined) <= limit) {
      line = joined;
      continue;
    }
    if (line !== "") lines.push(line);
    line = word;
    if (options.breakWords === false) continue;
    while (textWidth(line) > limit) {
      const cut = Math.max(1, truncatedWidth(line, { limit, ellipsis: "" }).index);
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  lines.push(line);
  return lines;
}
