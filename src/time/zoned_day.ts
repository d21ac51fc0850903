/**
 * Calendar days in a time zone: where a day starts and ends (days of 23 or 25 hours, and days
 * whose midnight does not exist, included), which day an instant falls on, and the instant a
 * wall-clock time of a day is reached.
 *
 * @module
 */

/** Minutes in a day, and the largest minute-of-day accepted (`24:00`, the end of the day). */
export const MINUTES_PER_DAY = 1440;

/**
 * The first instant of a day in a zone: its midnight, or, where the clocks skip midnight (a DST
 * change at 00:00, as in America/Havana or America/Santiago), the first moment that exists.
 *
 * @param date a calendar day, `YYYY-MM-DD`
 * @param timeZone an IANA time zone
 * @returns epoch milliseconds
 * @throws {RangeError} on a malformed date or an unknown zone
 * @example
 * ```ts
 * startOfDay("2026-03-12", "Asia/Shanghai"); // Date.parse("2026-03-11T16:00:00Z")
 * ```
 */
export function startOfDay(date: string, timeZone: string): number {
  return Temporal.PlainDate.from(date).toZonedDateTime({ timeZone }).epochMilliseconds;
}

/**
 * The end of a day in a zone, exclusive: the first instant of the next day. A day is `[start,
 * end)`; subtract 1000 for its last whole second (23:59:59).
 *
 * @param date a calendar day, `YYYY-MM-DD`
 * @param timeZone an IANA time zone
 * @returns epoch milliseconds
 * @throws {RangeError} on a malformed date or an unknown zone
 */
export function endOfDay(date: string, timeZone: string): number {
  return startOfDay(Temporal.PlainDate.from(date).add({ days: 1 }).toString(), timeZone);
}

/**
 * The calendar day an instant falls on in a zone.
 *
 * @param epochMs the instant
 * @param timeZone an IANA time zone
 * @returns `YYYY-MM-DD`
 * @throws {RangeError} on an unknown zone
 */
export function dateIn(epochMs: number, timeZone: string): string {
  return Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(timeZone)
    .toPlainDate().toString();
}

/**
 * The ISO weekday of a calendar day: 1 for Monday … 7 for Sunday.
 *
 * @param date a calendar day, `YYYY-MM-DD`
 */
export function weekdayOf(date: string): number {
  return Temporal.PlainDate.from(date).dayOfWeek;
}

/**
 * The first instant at which the clocks of a zone read a given time of a given day, or a later
 * one. Normally that is simply the wall-clock time. When the clocks skip it (spring forward,
 * 02:30 on a day that jumps from 02:00 to 03:00) it is the moment of the jump; when they show it
 * twice (fall back), the first time. `0` is the start of the day and `1440` (24:00) its end,
 * even where midnight does not exist.
 *
 * @param date a calendar day, `YYYY-MM-DD`
 * @param minuteOfDay minutes after midnight, 0–1440
 * @param timeZone an IANA time zone
 * @returns epoch milliseconds
 * @throws {RangeError} on a minute outside 0–1440, a malformed date or an unknown zone
 */
export function wallTimeToInstant(date: string, minuteOfDay: number, timeZone: string): number {
  if (!Number.isInteger(minuteOfDay) || minuteOfDay < 0 || minuteOfDay > MINUTES_PER_DAY) {
    throw new RangeError(`Cannot place minute ${minuteOfDay} in a day: expected 0 to 1440`);
  }
  if (minuteOfDay === 0) return startOfDay(date, timeZone);
  if (minuteOfDay === MINUTES_PER_DAY) return endOfDay(date, timeZone);
  const wall = Temporal.PlainDate.from(date).toPlainDateTime({
    hour: Math.floor(minuteOfDay / 60),
    minute: minuteOfDay % 60,
  });
  const zoned = wall.toZonedDateTime(timeZone, { disambiguation: "compatible" });
  if (Temporal.PlainDateTime.compare(zoned.toPlainDateTime(), wall) === 0) {
    return zoned.epochMilliseconds;
  }
  // Skipped by a forward jump: the answer is the jump, the first transition after the same wall
  // time read with the offset before it.
  const before = wall.toZonedDateTime(timeZone, { disambiguation: "earlier" });
  return (before.getTimeZoneTransition("next") ?? zoned).epochMilliseconds;
}
