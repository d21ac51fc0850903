/**
 * All-day dates. Lark's `end_time.date` of an all-day event is exclusive: an event on
 * 2026-03-12 alone has `start_time.date` 2026-03-12 and `end_time.date` 2026-03-13. People see
 * and type the real last day; these helpers convert between the two.
 *
 * @module
 */

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Whether a text is a real calendar date `YYYY-MM-DD` (`2026-02-30` is not).
 *
 * @param text the text
 */
export function isCalendarDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  try {
    Temporal.PlainDate.from(text, { overflow: "reject" });
    return true;
  } catch {
    return false;
  }
}

/**
 * A calendar date moved by whole days.
 *
 * @param date `YYYY-MM-DD`
 * @param days how many days to add; negative moves back
 * @returns `YYYY-MM-DD`
 * @throws {RangeError} on a malformed date
 * @example
 * ```ts
 * addDays("2026-02-28", 1); // "2026-03-01"
 * ```
 */
export function addDays(date: string, days: number): string {
  return Temporal.PlainDate.from(date).add({ days }).toString();
}

/**
 * The real last day of an all-day event from Lark's exclusive `end_time.date`: the day before.
 * When the end is not after the start (a malformed event), the start is the last day.
 *
 * @param endDate Lark's `end_time.date`
 * @param startDate Lark's `start_time.date`, to guard against malformed events
 * @returns `YYYY-MM-DD`
 * @example
 * ```ts
 * allDayLastDay("2026-03-13"); // "2026-03-12"
 * ```
 */
export function allDayLastDay(endDate: string, startDate?: string): string {
  const last = addDays(endDate, -1);
  return startDate !== undefined && last < startDate ? startDate : last;
}

/**
 * Lark's exclusive `end_time.date` for an all-day event whose real last day is given: the day
 * after.
 *
 * @param lastDay the last day of the event, `YYYY-MM-DD`
 * @returns `YYYY-MM-DD`
 */
export function allDayEndDate(lastDay: string): string {
  return addDays(lastDay, 1);
}
