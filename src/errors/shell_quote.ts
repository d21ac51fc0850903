/**
 * Quoting words for a POSIX shell, so that a command printed in a recovery can be pasted and run
 * as it is, and sends exactly the values it names. Every command hark prints that holds a value
 * (a scope the service named, an id, a text from the command line) is built from words quoted
 * here: a value can never end the command and start another (`; curl … | sh`).
 *
 * @module
 */

import { hasUnprintable } from "../text_classes.ts";

/** A word a shell leaves alone (zsh expands a leading `=`, so it is quoted). */
const PLAIN = /^[A-Za-z0-9_@%+:,./-][A-Za-z0-9_@%+=:,./-]*$/;

const NAMED: Record<string, string> = { "\n": "\\n", "\t": "\\t", "\r": "\\r" };

/**
 * A word as a POSIX shell reads it back:
 * - as it is when it holds only characters a shell leaves alone;
 * - in single quotes (a quote inside written `'\''`) when it holds only printable characters;
 * - in ANSI-C quotes (`$'…'`, read by bash, zsh, ksh and POSIX.1-2024 shells) when it holds a
 *   control or format character: `\n`, `\t`, `\r` by name, every other such character as the
 *   `\xHH` escapes of its UTF-8 bytes (the same in every locale), `\` and `'` escaped.
 *
 * The result holds no control or format character, so it is also safe to print on a terminal.
 *
 * @param word the word
 * @example
 * ```ts
 * shellQuote("--query"); // "--query"
 * shellQuote("2026-11-24 10:00"); // "'2026-11-24 10:00'"
 * shellQuote("a\nb"); // "$'a\\nb'"
 * shellQuote("\u202e"); // "$'\\xe2\\x80\\xae'"
 * ```
 */
export function shellQuote(word: string): string {
  if (PLAIN.test(word)) return word;
  if (!hasUnprintable(word)) return `'${word.replaceAll("'", `'\\''`)}'`;
  let quoted = "";
  for (const char of word) {
    if (char === "\\" || char === "'") quoted += `\\${char}`;
    else if (NAMED[char]) quoted += NAMED[char];
    else if (hasUnprintable(char)) {
      for (const byte of new TextEncoder().encode(char)) {
        quoted += `\\x${byte.toString(16).padStart(2, "0")}`;
      }
    } else quoted += char;
  }
  return `$'${quoted}'`;
}

/**
 * A command line from its words, each quoted with {@link shellQuote}.
 *
 * @param words the program and its arguments, unquoted
 * @example
 * ```ts
 * shellCommand(["hark", "auth", "login", "--scope", "calendar:x:y; rm -rf ~"]);
 * // "hark auth login --scope 'calendar:x:y; rm -rf ~'"
 * ```
 */
export function shellCommand(words: readonly string[]): string {
  return words.map(shellQuote).join(" ");
}
