/**
 * Character classes for checking text people and the network give hark, written out rather than
 * as Unicode properties: a `\p{…}` class sets up ICU's property tables on first use, about 2.5 M
 * instructions (some 1 ms, measured with valgrind in Deno 2.9), which every command that checks
 * an id paid. `text_classes_test.ts` checks each range against the property it spells, over
 * every code point, so a newer Unicode in Deno that adds to a property fails the test.
 *
 * @module
 */

/** Control characters, `\p{Cc}`: C0, DEL and C1. */
const CONTROL = "\\x00-\\x1f\\x7f-\\x9f";
/**
 * Invisible format characters, `\p{Cf}`: the soft hyphen, Arabic and Syriac marks, bidi
 * controls, zero-width characters, the BOM, interlinear annotation, tags and their kin.
 */
const FORMAT = "\\xad\\u0600-\\u0605\\u061c\\u06dd\\u070f\\u0890\\u0891\\u08e2\\u180e" +
  "\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\ufff9-\\ufffb" +
  "\\u{110bd}\\u{110cd}\\u{13430}-\\u{1343f}\\u{1bca0}-\\u{1bca3}\\u{1d173}-\\u{1d17a}" +
  "\\u{e0001}\\u{e0020}-\\u{e007f}";
/** The line and paragraph separators, `\p{Zl}` and `\p{Zp}`. */
const SEPARATOR = "\\u2028\\u2029";

/** The ranges by the property they spell, for the test. */
export const RANGES = { Cc: CONTROL, Cf: FORMAT, "Zl,Zp": SEPARATOR } as const;

/** Builds a class on first use: no start-up pays for parsing the ones it does not use. */
function lazyClass(ranges: string): (text: string) => boolean {
  let pattern: RegExp | undefined;
  return (text) => (pattern ??= new RegExp(`[${ranges}]`, "u")).test(text);
}

/**
 * Whether `text` holds white space, a control or a format character: no Lark id holds one, and
 * each would hide or reorder what a person reads (`[\s\p{Cc}\p{Cf}]`).
 */
export const hasSpaceControlOrFormat = lazyClass(`\\s${CONTROL}${FORMAT}`);
/** Whether `text` holds white space or a control character (`[\s\p{Cc}]`). */
export const hasSpaceOrControl = lazyClass(`\\s${CONTROL}`);
/** Whether `text` holds a control or a format character (`[\p{Cc}\p{Cf}]`). */
export const hasControlOrFormat = lazyClass(`${CONTROL}${FORMAT}`);
/**
 * Whether `text` holds what cannot be shown as it is in a line: a control or format character,
 * or a line or paragraph separator (`[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]`).
 */
export const hasUnprintable = lazyClass(`${CONTROL}${FORMAT}${SEPARATOR}`);
