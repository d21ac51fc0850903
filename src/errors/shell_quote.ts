/**
 * Quoting words for a POSIX shell, so that a command printed in a recovery can be pasted and run
 * as it is.
 *
 * @module
 */

/**
 * A word as a POSIX shell reads it back: as it is when it holds only characters a shell leaves
 * alone, else in single quotes (a quote inside written `'\\''`).
 *
 * @param word the word
 * @example
 * ```ts
 * shellQuote("--query"); // "--query"
 * shellQuote("2026-11-24 10:00"); // "'2026-11-24 10:00'"
 * ```
 */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
