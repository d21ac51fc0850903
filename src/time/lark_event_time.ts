/**
 * Lark's event times, both ways: `{timestamp: "<Unix seconds>", timezone?}` for a timed event,
 * `{date: "YYYY-MM-DD"}` for an all-day one, whose `end_time.date` is exclusive.
 *
 * @module
 */

import { invalidRange } from "./_invalid_value.ts";
import { allDayEndDate, allDayLastDay, isCalendarDate } from "./all_day.ts";
import { formatLocalTime, formatRfc3339InZone } from "./format_time.ts";
import { epochMsOf } from "./network_time.ts";
import type { TimeInput } from "./parse_time_input.ts";
import { resolveTimeInput } from "./time_range.ts";
import { startOfDay } from "./zoned_day.ts";

/** An event time as Lark sends and accepts it. */
export interface LarkEventTime {
  /** Unix seconds, as a string, of a timed event. */
  timestamp?: string;
  /** `YYYY-MM-DD` of an all-day event; exclusive in `end_time`. */
  date?: string;
  /** The IANA zone the event was made in. */
  timezone?: string;
}

/** When an event happens, read from Lark's two event times. */
export type EventSpan =
  | {
    /** A whole-day event. */
    allDay: true;
    /** Its first day, `YYYY-MM-DD`. */
    firstDay: string;
    /** Its real last day (inclusive), `YYYY-MM-DD`. */
    lastDay: string;
  }
  | {
    /** A timed event. */
    allDay: false;
    /** Its start, epoch ms. */
    start: number;
    /** Its end, epoch ms. */
    end: number;
    /** The zone it was made in, when Lark says. */
    timeZone?: string;
  };

/**
 * The moment or day of one Lark event time.
 *
 * @param time Lark's `start_time` or `end_time`
 * @returns epoch ms for a timestamp, the date for a date, `undefined` when neither is readable
 *   (a timestamp that is no whole number, or beyond the range a clock can show, is not)
 */
export function readLarkEventTime(
  time: LarkEventTime | undefined,
): { epochMs: number } | { date: string } | undefined {
  const epochMs = epochMsOf(time?.timestamp, "s");
  if (epochMs !== undefined) return { epochMs };
  if (time?.date !== undefined && isCalendarDate(time.date)) return { date: time.date };
  return undefined;
}

/**
 * When an event happens. An all-day event's exclusive `end_time.date` becomes its real last day.
 * An event that mixes a date and a timestamp (not sent by Lark) is read as timed, its date taken
 * as the start of that day in `timeZone`.
 *
 * @param startTime Lark's `start_time`
 * @param endTime Lark's `end_time`
 * @param timeZone the viewer's IANA zone, for the mixed case
 * @returns the span, or `undefined` when a time is missing or unreadable
 * @example
 * ```ts
 * larkEventSpan({ date: "2026-03-12" }, { date: "2026-03-14" }, "UTC");
 * // { allDay: true, firstDay: "2026-03-12", lastDay: "2026-03-13" }
 * ```
 */
export function larkEventSpan(
  startTime: LarkEventTime | undefined,
  endTime: LarkEventTime | undefined,
  timeZone: string,
): EventSpan | undefined {
  const start = readLarkEventTime(startTime);
  const end = readLarkEventTime(endTime);
  if (start === undefined || end === undefined) return undefined;
  if ("date" in start && "date" in end) {
    return { allDay: true, firstDay: start.date, lastDay: allDayLastDay(end.date, start.date) };
  }
  const ms = (t: { epochMs: number } | { date: string }) =>
    "epochMs" in t ? t.epochMs : startOfDay(t.date, timeZone);
  const zone = startTime?.timezone;
  return {
    allDay: false,
    start: ms(start),
    end: ms(end),
    ...(zone ? { timeZone: zone } : {}),
  };
}

/**
 * An event's start and end as text: `local` for tables and messages (`2026-11-23 09:30`; an
 * all-day event shows its first and real last day), `rfc3339` for JSON
 * (`2026-11-23T09:30:00+08:00`; an all-day event shows its days, `YYYY-MM-DD`, last day
 * inclusive).
 *
 * @param span the event's span
 * @param timeZone the viewer's IANA zone
 * @param style `local` or `rfc3339`
 */
export function formatEventSpan(
  span: EventSpan,
  timeZone: string,
  style: "local" | "rfc3339",
): { start: string; end: string } {
  if (span.allDay) return { start: span.firstDay, end: span.lastDay };
  const format = style === "local" ? formatLocalTime : formatRfc3339InZone;
  return { start: format(span.start, timeZone), end: format(span.end, timeZone) };
}

/**
 * Lark's `start_time` and `end_time` for an event from a typed `--start` and `--end`. Two dates
 * (the same day or a range) make an all-day event: `{date: first}` to `{date: last + 1}`, as
 * Lark's end date is exclusive. Otherwise the event is timed, `{timestamp, timezone}` with the
 * zone, so Lark records it there and not in Asia/Shanghai; a date on one side stands for the
 * start (or end) of that day.
 *
 * @param start the typed start
 * @param end the typed end
 * @param timeZone the user's IANA zone
 * @throws {ValidationError} naming the end's flag when it is not after the start (for dates:
 *   before it), quoting both as typed
 * @example
 * ```ts
 * // --start 2026-03-12 --end 2026-03-13
 * toLarkEventTimes(start, end, "Europe/Berlin");
 * // { start_time: { date: "2026-03-12" }, end_time: { date: "2026-03-14" } }
 * ```
 */
export function toLarkEventTimes(
  start: TimeInput,
  end: TimeInput,
  timeZone: string,
): { start_time: LarkEventTime; end_time: LarkEventTime } {
  if (start.kind === "date" && end.kind === "date") {
    if (end.date < start.date) throw invalidRange(start, end, "before");
    return { start_time: { date: start.date }, end_time: { date: allDayEndDate(end.date) } };
  }
  const from = resolveTimeInput(start, "start", timeZone);
  const to = resolveTimeInput(end, "end", timeZone);
  if (to <= from) throw invalidRange(start, end, "not after");
  const seconds = (ms: number) => String(Math.floor(ms / 1000));
  return {
    start_time: { timestamp: seconds(from), timezone: timeZone },
    end_time: { timestamp: seconds(to), timezone: timeZone },
  };
}
