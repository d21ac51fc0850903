/**
 * Times shown to people and to programs. Tables, text and error messages show local time the
 * way the user types it (`2026-11-23 09:30`); JSON shows RFC 3339 with the offset, always in the
 * same shape (`2026-11-23T09:30:00+08:00`, never `Z`, never fractions).
 *
 * @module
 */

function zoned(epochMs: number, timeZone: string): Temporal.ZonedDateTime {
  return Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(timeZone);
}

/** Years 1000 through 9999, where `Date`'s ISO text has the four-digit shape Temporal writes. */
const FOUR_DIGIT_YEARS = { from: Date.UTC(1000, 0, 1), to: Date.UTC(10000, 0, 1) };

/**
 * The moment in UTC as `YYYY-MM-DDTHH:MM:SS`, fractions dropped (rounded down), without
 * Temporal: UTC is the zone of most servers, containers and CI jobs, and Temporal's first use in
 * a process costs about 3.7 M instructions and 171 KB of heap (measured with valgrind in Deno
 * 2.9), more than a send's whole output. `undefined` outside {@link FOUR_DIGIT_YEARS}, or for
 * a fraction of a millisecond.
 */
function utcText(epochMs: number): string | undefined {
  // Temporal refuses a fraction of a millisecond: such a moment takes its path, and its error.
  if (!Number.isInteger(epochMs)) return undefined;
  if (epochMs < FOUR_DIGIT_YEARS.from || epochMs >= FOUR_DIGIT_YEARS.to) return undefined;
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().slice(0, 19);
}

/**
 * A moment as local wall-clock time in a zone, the way `--start` accepts it: `2026-11-23 09:30`,
 * or `2026-11-23 09:30:15` when the seconds are not zero. Fractions of a second are dropped.
 *
 * @param epochMs the moment
 * @param timeZone an IANA time zone
 * @throws {RangeError} on an unknown zone
 * @example
 * ```ts
 * formatLocalTime(Date.parse("2026-11-23T01:30:00Z"), "Asia/Shanghai"); // "2026-11-23 09:30"
 * ```
 */
export function formatLocalTime(epochMs: number, timeZone: string): string {
  const utc = timeZone === "UTC" ? utcText(epochMs) : undefined;
  if (utc !== undefined) return (utc.endsWith(":00") ? utc.slice(0, 16) : utc).replace("T", " ");
  const time = zoned(epochMs, timeZone);
  const text = time.toPlainDateTime().toString({
    smallestUnit: time.second === 0 ? "minute" : "second",
    roundingMode: "floor",
  });
  return text.replace("T", " ");
}

/**
 * A moment as RFC 3339 with the zone's offset at that moment, to the second:
 * `2026-11-23T09:30:00+08:00`; UTC gives `+00:00`. Fractions of a second are dropped (rounded
 * down), so the text parses back to the same whole second.
 *
 * @param epochMs the moment
 * @param timeZone an IANA time zone
 * @throws {RangeError} on an unknown zone
 * @example
 * ```ts
 * formatRfc3339InZone(Date.parse("2026-11-23T01:30:00Z"), "Asia/Shanghai");
 * // "2026-11-23T09:30:00+08:00"
 * ```
 */
export function formatRfc3339InZone(epochMs: number, timeZone: string): string {
  const utc = timeZone === "UTC" ? utcText(epochMs) : undefined;
  if (utc !== undefined) return `${utc}+00:00`;
  return zoned(epochMs, timeZone).toString({
    smallestUnit: "second",
    roundingMode: "floor",
    timeZoneName: "never",
  });
}
