/**
 * Neutralising text that came from the network before it reaches a terminal, so a user name, an
 * event summary or the service's error `msg` cannot retitle the terminal, clear the screen, paint
 * a fake banner or reorder what is shown.
 *
 * What is escaped, always as visible text (never removed, so an attempt shows):
 * - C0 controls (U+0000–U+001F), DEL (U+007F) and C1 controls (U+0080–U+009F), as `\xHH`
 *   (`ESC` becomes `\x1b`);
 * - bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), as `\uHHHH`;
 * - other invisible format characters that can hide or fake text: U+200B, U+2060–U+2064,
 *   U+206A–U+206F, U+FEFF, U+180E, U+FFF9–U+FFFB, and the line and paragraph separators
 *   U+2028, U+2029, as `\uHHHH`.
 *
 * Left alone: printable text, combining marks, variation selectors, ZWJ and ZWNJ (they shape
 * emoji and scripts), and backslashes (so `\x1b` typed by a person looks like an escaped ESC:
 * harmless, since it is only text). JSON output needs none of this: JSON escapes controls itself.
 *
 * @module
 */

/** Options of {@link terminalSafe}. */
export interface TerminalSafeOptions {
  /**
   * What happens to line feeds, carriage returns and tabs:
   * - `"keep"` (default): LF and TAB stay, CRLF becomes LF, a lone CR is escaped (it would let
   *   text overwrite the start of its line);
   * - `"space"`: each run of them becomes one space, for one-line values (table cells, names in
   *   status lines);
   * - `"escape"`: escaped like every other control, for a command a user may copy into a shell.
   */
  breaks?: "keep" | "space" | "escape";
}

const UNSAFE =
  // deno-lint-ignore no-control-regex
  /[\x00-\x1f\x7f-\x9f\u061c\u180e\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;

/**
 * Returns `text` with every character that could drive a terminal escaped visibly (see the
 * module documentation for the list).
 *
 * @param text untrusted text, such as a name, a summary or a service message
 * @param options what happens to line breaks and tabs; default: kept
 * @returns text that is safe to write to a terminal
 *
 * @example
 * ```ts
 * terminalSafe("\x1b]0;pwned\x07hi"); // "\\x1b]0;pwned\\x07hi"
 * terminalSafe("a\r\nb\tc", { breaks: "space" }); // "a b c"
 * ```
 */
export function terminalSafe(text: string, options: TerminalSafeOptions = {}): string {
  const breaks = options.breaks ?? "keep";
  let value = text;
  if (breaks === "space") value = value.replace(/[\r\n\t]+/g, " ");
  else if (breaks === "keep") value = value.replaceAll("\r\n", "\n");
  return value.replace(UNSAFE, (char) => {
    if (breaks === "keep" && (char === "\n" || char === "\t")) return char;
    const code = char.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
