/**
 * `hark calendar +agenda`: the events of a calendar between two times, over any span.
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/preview_request.ts";
import { defineShortcut, type ParamSpec, type ShortcutInput } from "../definition.ts";
import { formatLocalDateTime } from "../params.ts";
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
 * The span of `--start` and `--end`, in Unix seconds.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--end` when it is not after `--start`
 */
export function spanOf(input: ShortcutInput): Span {
  const start = Math.floor((input.values.start as number) / 1000);
  const end = Math.floor((input.values.end as number) / 1000);
  if (end <= start) {
    throw new ValidationError(
      `Invalid time range: --end (${new Date(end * 1000).toISOString()}) must be after --start ` +
        `(${new Date(start * 1000).toISOString()})`,
      { param: "--end" },
    );
  }
  return { start, end };
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
 * Seconds since the epoch of an event time; an all-day date counts from its local midnight.
 *
 * @param time the event time
 */
export function eventSeconds(time: EventTime | undefined): number {
  if (time?.timestamp !== undefined) return Number(time.timestamp);
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(time?.date ?? "");
  if (!m) return Number.POSITIVE_INFINITY;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])).getTime() / 1000;
}

/**
 * Merges the pieces' answers: drops cancelled events, removes duplicates (the same event id and
 * start, as an event crossing a piece boundary appears in both pieces), sorts by start (then end,
 * then id).
 *
 * @param pieces each piece's items
 */
export function mergeAgenda(pieces: AgendaItem[][]): AgendaItem[] {
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
    eventSeconds(a.start_time) - eventSeconds(b.start_time) ||
    eventSeconds(a.end_time) - eventSeconds(b.end_time) ||
    a.event_id.localeCompare(b.event_id)
  );
}

/**
 * How a time shows in a table: local `YYYY-MM-DD HH:MM`, or the date of an all-day event.
 *
 * @param time the event time
 */
export function showEventTime(time: EventTime | undefined): string {
  if (time?.date) return time.date;
  if (time?.timestamp !== undefined) return formatLocalDateTime(Number(time.timestamp) * 1000);
  return "";
}

/** `--start` and `--end` of the span-based calendar shortcuts (agenda, free/busy). */
export const SPAN_PARAMS: readonly ParamSpec[] = [
  {
    name: "start",
    type: "datetime",
    description: "the first moment; a date means its beginning",
    default: "today",
    dayEdge: "start",
  },
  {
    name: "end",
    type: "datetime",
    description: "the last moment; a date means its end (23:59:59)",
    default: "today",
    dayEdge: "end",
  },
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
  scopes: ["calendar:calendar.event:read"],
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
    return mergeAgenda(pieces);
  },
  columns: [
    { header: "START", value: (row) => showEventTime(row.start_time as EventTime) },
    { header: "END", value: (row) => showEventTime(row.end_time as EventTime) },
    { header: "SUMMARY", value: "summary" },
    { header: "STATUS", value: "status" },
    { header: "EVENT ID", value: "event_id" },
  ],
});
