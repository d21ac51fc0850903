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
  return zoned(epochMs, timeZone).toString({
    smallestUnit: "second",
    roundingMode: "floor",
    timeZoneName: "never",
  });
}
