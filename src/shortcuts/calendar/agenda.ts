/**
 * `hark calendar +agenda`: the events of a calendar between two times, over any span.
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { defineShortcut, type ParamSpec, type ShortcutInput } from "../definition.ts";
import {
  formatEventSpan,
  larkEventSpan,
  readLarkEventTime,
  resolveTimeRange,
  startOfDay,
  type TimeInput,
} from "../../time/mod.ts";
import { queryAcrossSpan, type Span, splitSpan } from "./split_span.ts";

/** An event time as the service gives it: Unix seconds, or a date for all-day events. */
export interface EventTime {
  /** Unix seconds, as a string. */
  timestamp?: string;
  /** `YYYY-MM-DD` of an all-day event. */
  date?: string;
  /** The time zone. */
  timezone?: string;
}

/** One event instance of `instance_view`. */
export interface AgendaItem {
  /** The event id. */
  event_id: string;
  /** The title. */
  summary?: string;
  /** The start. */
  start_time: EventTime;
  /** The end. */
  end_time: EventTime;
  /** `confirmed`, `tentative` or `cancelled`. */
  status?: string;
  [key: string]: unknown;
}

/**
 * Checks `--calendar-id`: an empty or blank id would address no calendar.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--calendar-id`
 */
export function checkCalendarId(input: ShortcutInput): void {
  const id = input.values["calendar-id"];
  if (typeof id === "string" && id.trim() === "") {
    throw new ValidationError(`Invalid value ${JSON.stringify(id)} for --calendar-id`, {
      param: "--calendar-id",
      suggestion: "Give a calendar id, or leave the flag out for your primary calendar",
    });
  }
}

/**
 * The path of `instance_view` for a calendar.
 *
 * @param calendarId a calendar id or `primary`
 */
export function instanceViewPath(calendarId: string): string {
  return `/open-apis/calendar/v4/calendars/${encodeURIComponent(calendarId)}/events/instance_view`;
}

/**
 * The span of `--start` and `--end`, in Unix seconds: a date-only `--end` includes that day, and
 * without `--end` the span is the rest of `--start`'s day.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--end` when it is not after `--start`, quoting both as typed
 */
export function spanOf(input: ShortcutInput): Span {
  const range = resolveTimeRange(
    input.values.start as TimeInput,
    input.values.end as TimeInput | undefined,
    input.timeZone,
  );
  return { start: Math.floor(range.start / 1000), end: Math.ceil(range.end / 1000) };
}

function pieceRequest(calendarId: string, piece: Span): ApiRequest {
  return {
    method: "GET",
    path: instanceViewPath(calendarId),
    query: { start_time: piece.start, end_time: piece.end },
    scopes: ["calendar:calendar.event:read"],
  };
}

/**
 * Seconds since the epoch of an event time; an all-day date counts from its midnight in
 * `timeZone`.
 *
 * @param time the event time
 * @param timeZone the viewer's IANA zone
 */
export function eventSeconds(time: EventTime | undefined, timeZone: string): number {
  const read = readLarkEventTime(time);
  if (read === undefined) return Number.POSITIVE_INFINITY;
  return ("epochMs" in read ? read.epochMs : startOfDay(read.date, timeZone)) / 1000;
}

/**
 * Merges the pieces' answers: drops cancelled events, removes duplicates (the same event id and
 * start, as an event crossing a piece boundary appears in both pieces), sorts by start (then end,
 * then id).
 *
 * @param pieces each piece's items
 * @param timeZone the viewer's IANA zone (where all-day events begin)
 */
export function mergeAgenda(pieces: AgendaItem[][], timeZone: string): AgendaItem[] {
  const seen = new Set<string>();
  const merged: AgendaItem[] = [];
  for (const item of pieces.flat()) {
    if (item.status === "cancelled") continue;
    const key = `${item.event_id}|${item.start_time?.timestamp ?? ""}|${
      item.start_time?.date ?? ""
    }`;
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(item);
  }
  return merged.sort((a, b) =>
    eventSeconds(a.start_time, timeZone) - eventSeconds(b.start_time, timeZone) ||
    eventSeconds(a.end_time, timeZone) - eventSeconds(b.end_time, timeZone) ||
    a.event_id.localeCompare(b.event_id)
  );
}

/**
 * An event's start and end as a table shows them: local time in `timeZone`, or the first and the
 * real last day of an all-day event (Lark's end date is exclusive).
 *
 * @param row an event with Lark's `start_time` and `end_time`
 * @param timeZone the viewer's IANA zone
 */
export function showEventSpan(
  row: { start_time?: EventTime; end_time?: EventTime },
  timeZone: string,
): { start: string; end: string } {
  const span = larkEventSpan(row.start_time, row.end_time, timeZone);
  return span ? formatEventSpan(span, timeZone, "local") : { start: "", end: "" };
}

/** `--timezone` of the calendar shortcuts. */
export const TIMEZONE_PARAM: ParamSpec = {
  name: "timezone",
  type: "string",
  description: "the IANA time zone times are read and shown in (default: $TZ, the system's)",
  valueName: "<zone>",
};

/** `--start`, `--end` and `--timezone` of the span-based calendar shortcuts (agenda, free/busy). */
export const SPAN_PARAMS: readonly ParamSpec[] = [
  {
    name: "start",
    type: "datetime",
    description: "the first moment; a date means its beginning",
    default: "today",
  },
  {
    name: "end",
    type: "datetime",
    description: "the end; a date includes that whole day (default: the end of --start's day)",
  },
  TIMEZONE_PARAM,
];

/** `--calendar-id` of the calendar shortcuts. */
export const CALENDAR_ID_PARAM: ParamSpec = {
  name: "calendar-id",
  type: "string",
  description: "the calendar",
  default: "primary",
  valueName: "<id>",
};

/** `calendar +agenda`. */
export const agenda = defineShortcut<AgendaItem[]>({
  service: "calendar",
  verb: "+agenda",
  description: "List the events of a calendar between two times (any span; split into 40-day " +
    "queries)",
  examples: [
    "hark calendar +agenda",
    "hark calendar +agenda --start 2026-11-01 --end 2026-11-30",
    "hark calendar +agenda --start 2026-01-01 --end 2026-12-31 --format csv",
  ],
  identities: ["user", "bot"],
  scopes: { user: ["calendar:calendar.event:read"], bot: ["calendar:calendar.event:read"] },
  effect: "read",
  params: [...SPAN_PARAMS, CALENDAR_ID_PARAM],
  validate(input) {
    checkCalendarId(input);
    spanOf(input);
  },
  requests(input) {
    const calendarId = input.values["calendar-id"] as string;
    return splitSpan(spanOf(input)).map((piece) => pieceRequest(calendarId, piece));
  },
  async run(input, client) {
    const calendarId = input.values["calendar-id"] as string;
    const pieces = await queryAcrossSpan(spanOf(input), async (piece) => {
      const data = await client.request<{ items?: AgendaItem[] }>(pieceRequest(calendarId, piece));
      return data?.items ?? [];
    });
    return mergeAgenda(pieces, input.timeZone);
  },
  columns: (input) => [
    {
      header: "START",
      value: (row) => showEventSpan(row, input.timeZone).start,
      kind: "time",
      priority: 5,
    },
    {
      header: "END",
      value: (row) => showEventSpan(row, input.timeZone).end,
      kind: "time",
      priority: 3,
    },
    { header: "SUMMARY", value: "summary", priority: 4 },
    { header: "STATUS", value: "status", priority: 1 },
    { header: "EVENT ID", value: "event_id", kind: "id", priority: 2 },
  ],
});
