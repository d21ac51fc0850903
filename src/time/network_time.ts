/**
 * Times a service sends, read with care: Lark writes Unix seconds or milliseconds as text
 * (`"1795435200"`), sometimes as a number, and RFC 3339 in free/busy. What cannot be a moment —
 * text that is no whole number (`"abc"`, `"1e308"`, `"1795435200.5"`), or a number beyond the
 * range a clock can show (about ±270,000 years, `"99999999999999"` seconds) — reads as
 * `undefined`, so it is left out with a warning, never passed on unconverted and never thrown
 * at the code that formats it.
 *
 * @module
 */

/** The furthest moment from 1970 that `Date` and `Temporal.Instant` hold: 8.64e15 ms. */
export const MAX_EPOCH_MS = 8.64e15;

/**
 * A moment from a Unix time a service sent, in epoch milliseconds.
 *
 * @param value the time as sent: whole-number text (an optional minus, at most 20 digits) or a
 *   safe whole number
 * @param unit `s` for Unix seconds, `ms` for milliseconds
 * @returns the moment, or `undefined` when `value` is no whole number or beyond the range a
 *   clock can show
 * @example
 * ```ts
 * epochMsOf("1795435200", "s"); // 1795435200000
 * epochMsOf("1e308", "ms"); // undefined
 * epochMsOf("99999999999999", "s"); // undefined: 3 million years from now
 * ```
 */
export function epochMsOf(value: unknown, unit: "s" | "ms"): number | undefined {
  let whole: number;
  if (typeof value === "string" && /^-?\d{1,20}$/.test(value.trim())) whole = Number(value);
  else if (typeof value === "number" && Number.isSafeInteger(value)) whole = value;
  else return undefined;
  const ms = unit === "s" ? whole * 1000 : whole;
  return Number.isSafeInteger(ms) && Math.abs(ms) <= MAX_EPOCH_MS ? ms : undefined;
}

/**
 * A moment from a date-time text a service sent (RFC 3339, as free/busy sends it), in epoch
 * milliseconds, whole (a fraction of a millisecond dropped).
 *
 * @param value the time as sent
 * @returns the moment, or `undefined` when `value` is not text `Date.parse` reads
 */
export function epochMsOfText(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? Math.floor(ms) : undefined;
}

/**
 * The warning for a time that was left out: names the field and quotes (the start of) what
 * was sent. The same field and value give the same text, so a listing warns once per kind.
 *
 * @param field the field, such as `create_time`
 * @param value what the service sent
 * @example
 * ```ts
 * badTimeWarning("create_time", "abc");
 * // 'The service sent a create_time that is not a time ("abc"): hark left it out'
 * ```
 */
export function badTimeWarning(field: string, value: unknown): string {
  const shown = JSON.stringify(value) ?? String(value);
  const clipped = shown.length > 40 ? `${shown.slice(0, 40)}…` : shown;
  return `The service sent a ${field} that is not a time (${clipped}): hark left it out`;
}
