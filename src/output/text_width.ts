/**
 * Display width of text in a terminal, and making text safe to print.
 *
 * @module
 */

import { terminalSafe } from "./terminal_safe.ts";

/**
 * The number of terminal columns `text` takes: wide East Asian characters and emoji count two,
 * combining marks zero.
 *
 * @param text the text, free of control characters
 */
export function textWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char.codePointAt(0)!);
  return width;
}

/**
 * Cuts `text` to at most `max` columns, ending with `…` when it was cut.
 *
 * @param text the text
 * @param max the width limit, at least 1
 */
export function truncateToWidth(text: string, max: number): string {
  if (textWidth(text) <= max) return text;
  let result = "";
  let width = 0;
  for (const char of text) {
    const w = charWidth(char.codePointAt(0)!);
    if (width + w > max - 1) break;
    result += char;
    width += w;
  }
  return result + "…";
}

/**
 * Makes a value fit for one table cell: line breaks and tabs become spaces, and every control,
 * bidi or invisible format character is escaped visibly ({@link terminalSafe}).
 *
 * @param text untrusted text
 * @returns one line, safe to print
 */
export function sanitizeCell(text: string): string {
  return terminalSafe(text, { breaks: "space" });
}

function charWidth(code: number): number {
  if (code === 0) return 0;
  if (code >= 0x300 && code <= 0x36f) return 0;
  if (code === 0x200b || code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f)) return 0;
  if (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf && code !== 0x303f) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}
