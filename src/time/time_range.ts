/**
 * Turning typed times into a span of instants: a date-only start is the beginning of that day, a
 * date-only end the end of that day, and a missing end the end of the start's day.
 *
 * @module
 */

import { invalidRange } from "./_invalid_value.ts";
import type { Interval } from "./intervals.ts";
import type { TimeInput } from "./parse_time_input.ts";
import { dateIn, endOfDay, startOfDay } from "./zoned_day.ts";

/**
 * The instant a typed time stands for. A moment is itself; a day is its first instant
 * (`edge: "start"`) or its exclusive end, the first instant of the next day (`edge: "end"`), in
 * the zone. Days of 23 or 25 hours and days without a midnight are handled.
 *
 * @param input the typed time
 * @param edge which end of a day a date stands for
 * @param timeZone the user's IANA zone
 * @returns epoch milliseconds
 */
export function resolveTimeInput(
  input: TimeInput,
  edge: "start" | "end",
  timeZone: string,
): number {
  if (input.kind === "instant") return input.epochMs;
  return edge === "start" ? startOfDay(input.date, timeZone) : endOfDay(input.date, timeZone);
}

/**
 * The half-open span `[start, end)` of a `--start` / `--end` pair. A date-only `--end` includes
 * that whole day; with no `--end`, the span ends with the day `--start` falls on, so
 * `--start 2026-03-12` alone is that day.
 *
 * @param start the typed start
 * @param end the typed end, if any
 * @param timeZone the user's IANA zone
 * @returns epoch milliseconds
 * @throws {ValidationError} naming the end's flag when the end is not after the start, quoting
 *   both as typed
 * @example
 * ```ts
 * resolveTimeRange(start, undefined, "Europe/Berlin"); // start = 2026-03-12 → that whole day
 * ```
 */
export function resolveTimeRange(
  start: TimeInput,
  end: TimeInput | undefined,
  timeZone: string,
): Interval {
  const from = resolveTimeInput(start, "start", timeZone);
  if (end === undefined) {
    const day = start.kind === "date" ? start.date : dateIn(from, timeZone);
    return { start: from, end: endOfDay(day, timeZone) };
  }
  const to = resolveTimeInput(end, "end", timeZone);
  if (to <= from) {
    throw invalidRange(start, end, "not after");
  }
  return { start: from, end: to };
}
