/**
 * Display width of text in a terminal, from `fast-string-truncated-width`: emoji (ZWJ
 * sequences, flags, keycaps, skin tones) and wide East Asian characters take two columns,
 * combining marks none.
 *
 * Why this library and not `string-width`: both count emoji, CJK and combining marks right;
 * `string-width` builds `\p{RGI_Emoji}` regular expressions and an `Intl.Segmenter` when it is
 * imported, about 36 ms of start-up, against about 1.5 ms here (figures in the commit that
 * brought it in). Where the two differ (invisible format characters such as U+200B, decomposed
 * Hangul), {@link terminalSafe} escapes the former and {@link sanitizeCell} composes the latter
 * before anything is measured.
 *
 * @module
 */

import truncatedWidth from "fast-string-truncated-width";
import { terminalSafe } from "./terminal_safe.ts";

const ELLIPSIS = "…";

/**
 * The number of terminal columns `text` takes.
 *
 * @param text the text, free of control characters
 * @returns the width in columns
 *
 * @example
 * ```ts
 * textWidth("✅ 日程"); // 5
 * ```
 */
export function textWidth(text: string): number {
  return truncatedWidth(text).width;
}

/**
 * Cuts `text` to at most `max` columns, ending with `…` when it was cut. Never splits an emoji
 * or a wide character.
 *
 * @param text the text, free of control characters
 * @param max the width limit; at least 1 is used
 * @returns `text` itself when it fits, else a prefix and `…`, together at most `max` wide
 */
export function truncateToWidth(text: string, max: number): string {
  const limit = Math.max(1, max);
  const { truncated, index } = truncatedWidth(text, { limit, ellipsis: ELLIPSIS });
  return truncated ? text.slice(0, index).trimEnd() + ELLIPSIS : text;
}

/**
 * Makes a value fit for one table cell: line breaks and tabs become spaces, every control,
 * bidi or invisible format character is escaped visibly ({@link terminalSafe}), and the text is
 * composed (NFC) so that its measured width is the width a terminal shows.
 *
 * @param text untrusted text
 * @returns one line, safe to print and to measure
 */
export function sanitizeCell(text: string): string {
  return terminalSafe(text, { breaks: "space" }).normalize("NFC");
}
