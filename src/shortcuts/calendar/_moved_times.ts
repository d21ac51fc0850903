/**
 * `+update` with only `--start` or only `--end`: Lark changes an event's start and end together,
 * so the other one is worked out from the event as it is. A moved start keeps the event's
 * length; a new end keeps its start.
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import {
  addDays,
  formatLocalTime,
  larkEventSpan,
  type LarkEventTime,
  resolveTimeInput,
  type TimeInput,
  toLarkEventTimes,
} from "../../time/mod.ts";

/** The event's times as read, before the change. */
export interface EventTimes {
  /** Lark's `start_time`. */
  start_time?: LarkEventTime;
  /** Lark's `end_time`. */
  end_time?: LarkEventTime;
}

/** Days between two calendar days, `YYYY-MM-DD`. */
function daysBetween(from: string, to: string): number {
  return Temporal.PlainDate.from(from).until(Temporal.PlainDate.from(to), { largestUnit: "days" })
    .days;
}

/**
 * The new `start_time` and `end_time` when only one of `--start` and `--end` is given.
 *
 * - Only `--start`: the event moves and keeps its length (an all-day event moved to a day keeps
 *   its number of days; moving it to a time of day needs `--end` too).
 * - Only `--end`: the start stays; the end is checked to come after it.
 *
 * @param before the event's times as read
 * @param change the one time given
 * @param timeZone the user's zone
 * @throws {ValidationError} naming the flag given when the event's times are unreadable, an
 *   all-day event would get a time of day, or the new end is not after the start
 */
export function movedTimes(
  before: EventTimes,
  change: { start: TimeInput; end?: undefined } | { start?: undefined; end: TimeInput },
  timeZone: string,
): { start_time: LarkEventTime; end_time: LarkEventTime } {
  const given = change.start !== undefined ? change.start : change.end;
  const span = larkEventSpan(before.start_time, before.end_time, timeZone);
  if (span === undefined) {
    throw new ValidationError(
      `Cannot work out the event's ${change.start ? "end" : "start"}: the times the service ` +
        "sent for it are unreadable",
      { param: given.param, suggestion: "Give both --start and --end" },
    );
  }
  const { start, end } = change;
  if (start !== undefined) {
    if (span.allDay) {
      if (start.kind !== "date") {
        throw new ValidationError(
          `Cannot move an all-day event to ${JSON.stringify(start.text)}, a time of day, ` +
            "keeping its length",
          { param: "--start", suggestion: "Give a day as --start, or give --end too" },
        );
      }
      const lastDay = addDays(start.date, daysBetween(span.firstDay, span.lastDay));
      const until: TimeInput = { kind: "date", date: lastDay, text: lastDay, param: "--end" };
      return toLarkEventTimes(start, until, timeZone);
    }
    const from = resolveTimeInput(start, "start", timeZone);
    const epochMs = from + (span.end - span.start);
    const until: TimeInput = {
      kind: "instant",
      epochMs,
      text: formatLocalTime(epochMs, timeZone),
      param: "--end",
    };
    return toLarkEventTimes(start, until, timeZone);
  }
  const from: TimeInput = span.allDay
    ? { kind: "date", date: span.firstDay, text: span.firstDay, param: "its start" }
    : {
      kind: "instant",
      epochMs: span.start,
      text: formatLocalTime(span.start, timeZone),
      param: "its start",
    };
  return toLarkEventTimes(from, end, timeZone);
}

/**
 * The times a `--dry-run` preview shows when only one was given: that one as Lark takes it, the
 * other as a placeholder (it comes from the event, which a preview does not read).
 *
 * @param change the one time given
 * @param timeZone the user's zone
 */
export function previewMovedTimes(
  change: { start: TimeInput; end?: undefined } | { start?: undefined; end: TimeInput },
  timeZone: string,
): { start_time: LarkEventTime; end_time: LarkEventTime } {
  const larkTime = (time: TimeInput, edge: "start" | "end"): LarkEventTime =>
    time.kind === "date" && edge === "start" ? { date: time.date } : {
      timestamp: String(Math.floor(resolveTimeInput(time, edge, timeZone) / 1000)),
      timezone: timeZone,
    };
  return change.start !== undefined
    ? {
      start_time: larkTime(change.start, "start"),
      end_time: { timestamp: "{the new start + the event's length}" },
    }
    : { start_time: { timestamp: "{the event's start}" }, end_time: larkTime(change.end, "end") };
}

/**
 * Which one time was given, when only one of `--start` and `--end` was.
 *
 * @param values the values of `+update`
 */
export function oneTimeOf(
  values: { readonly start?: TimeInput; readonly end?: TimeInput },
): { start: TimeInput; end?: undefined } | { start?: undefined; end: TimeInput } | undefined {
  const { start, end } = values;
  if (start !== undefined && end === undefined) return { start };
  if (end !== undefined && start === undefined) return { end };
  return undefined;
}
