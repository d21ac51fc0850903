/**
 * Events as hark writes them: the one time shape of the calendar shortcuts' JSON, and the cells
 * tables show.
 *
 * JSON keeps Lark's field names, but every time is text: a timed event's `start_time` and
 * `end_time` are RFC 3339 with the offset of the viewer's zone (`2026-11-23T09:30:00+08:00`); an
 * all-day event's are dates (`YYYY-MM-DD`), the end its real last day (Lark's end date is
 * exclusive), with `"all_day": true`. `create_time` (Unix seconds from Lark) is RFC 3339 too. A
 * time the service sent that is not a time (`"abc"`, a number beyond any calendar) is left out,
 * with a warning.
 * The zone Lark keeps with the event (`start_time.timezone`) is kept as `event_timezone`.
 *
 * @module
 */

import {
  allDayLastDay,
  badTimeWarning,
  epochMsOf,
  formatEventSpan,
  formatLocalTime,
  formatRfc3339InZone,
  larkEventSpan,
  readLarkEventTime,
} from "../../time/mod.ts";
import type { LarkEvent } from "./_lark_event.ts";

/**
 * An event as hark's JSON shows it: `start_time` and `end_time` are text when Lark's could be
 * read (absent when they could not be), `all_day` says which kind they are.
 */
export type EventJson = Record<string, unknown> & { event_id: string };

/**
 * An event in hark's JSON time shape (see the module notes). Fields other than the times are
 * kept as Lark sent them; a time that cannot be read is left out, and `warn` told.
 *
 * @param event the event as Lark sent it
 * @param timeZone the viewer's IANA zone
 * @param warn notes a warning (`input.warn`); default none
 * @example
 * ```ts
 * eventJson({ event_id: "e", start_time: { date: "2026-11-23" }, end_time: { date: "2026-11-24" } }, "UTC");
 * // { event_id: "e", start_time: "2026-11-23", end_time: "2026-11-23", all_day: true }
 * ```
 */
export function eventJson(
  event: LarkEvent,
  timeZone: string,
  warn: (message: string) => void = () => {},
): EventJson {
  const out: EventJson = { ...event };
  const span = larkEventSpan(event.start_time, event.end_time, timeZone);
  if (span) {
    const shown = formatEventSpan(span, timeZone, "rfc3339");
    out.start_time = shown.start;
    out.end_time = shown.end;
    out.all_day = span.allDay;
    const zone = event.start_time?.timezone;
    if (zone && !span.allDay) out.event_timezone = zone;
  } else {
    // Each time is shown alone, or left out with a warning when it cannot be read.
    for (const key of ["start_time", "end_time"] as const) {
      const sent = event[key];
      if (sent === undefined) continue;
      const read = readLarkEventTime(sent);
      if (read === undefined) {
        warn(badTimeWarning(key, sent));
        delete out[key];
      } else if ("epochMs" in read) out[key] = formatRfc3339InZone(read.epochMs, timeZone);
      else out[key] = key === "end_time" ? allDayLastDay(read.date) : read.date;
    }
  }
  if (event.create_time !== undefined) {
    const created = epochMsOf(event.create_time, "s");
    if (created === undefined) {
      warn(badTimeWarning("create_time", event.create_time));
      delete out.create_time;
    } else out.create_time = formatRfc3339InZone(created, timeZone);
  }
  return out;
}

/**
 * An event time of hark's JSON as a table shows it: local time in `timeZone`
 * (`2026-11-23 09:30`), or the date of an all-day event.
 *
 * @param value `start_time` or `end_time` of {@link eventJson}
 * @param timeZone the viewer's IANA zone
 */
export function localTime(value: unknown, timeZone: string): string {
  if (typeof value !== "string") return "";
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : formatLocalTime(ms, timeZone);
}

/**
 * The START and END columns of an event table, over rows of {@link eventJson}.
 *
 * @param timeZone the viewer's IANA zone
 * @param priorities how useful each is when the width is short
 */
export function spanColumns(
  timeZone: string,
  priorities: { start: number; end: number },
) {
  return [
    {
      header: "START",
      value: (row: Record<string, unknown>) => localTime(row.start_time, timeZone),
      kind: "time" as const,
      priority: priorities.start,
    },
    {
      header: "END",
      value: (row: Record<string, unknown>) => localTime(row.end_time, timeZone),
      kind: "time" as const,
      priority: priorities.end,
    },
  ];
}

/**
 * The STATUS cell of an event row: the event's own `status`, except that a confirmed event the
 * user declined (`self_rsvp_status: "decline"`, as instance_view and the event answer give it)
 * shows `declined`: to the user it is not happening.
 *
 * @param row a row of {@link eventJson}
 * @returns the status to show
 * @example
 * ```ts
 * statusCell({ status: "confirmed", self_rsvp_status: "decline" }); // "declined"
 * ```
 */
export function statusCell(row: Record<string, unknown>): string {
  const status = typeof row.status === "string" ? row.status : "";
  return status === "confirmed" && row.self_rsvp_status === "decline" ? "declined" : status;
}
