/**
 * Quoting words for a POSIX shell, so that a command printed in a recovery can be pasted and run
 * as it is, and sends exactly the values it names. Every command hark prints that holds a value
 * (a scope the service named, an id, a text from the command line) is built from words quoted
 * here: a value can never end the command and start another (`; curl … | sh`).
 *
 * @module
 */

/** A word a shell leaves alone (zsh expands a leading `=`, so it is quoted). */
const PLAIN = /^[A-Za-z0-9_@%+:,./-][A-Za-z0-9_@%+=:,./-]*$/;

/**
 * Characters that must not reach a terminal raw, and that single quotes would carry raw: control
 * characters (C0, DEL, C1), format characters (bidi controls, zero-width characters, BOM, …) and
 * the line and paragraph separators. Built on first use: a Unicode property class sets up ICU's
 * tables (about 3 M instructions), which every start-up that loads this module (`--version`
 * does, for its errors) would otherwise pay.
 */
let unprintable: RegExp | undefined;
const isUnprintable = (text: string) => (unprintable ??= /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u).test(text);

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
  if (!isUnprintable(word)) return `'${word.replaceAll("'", `'\\''`)}'`;
  let quoted = "";
  for (const char of word) {
    if (char === "\\" || char === "'") quoted += `\\${char}`;
    else if (NAMED[char]) quoted += NAMED[char];
    else if (isUnprintable(char)) {
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
