/**
 * `hark calendar +agenda`: the events of a calendar between two times, over a span read in 40-day
 * pieces (at most `--max-pieces`).
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { terminalWidth } from "../../output/mod.ts";
import { type ApiCaller, defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import {
  addDays,
  dateIn,
  endOfDay,
  formatEventSpan,
  larkEventSpan,
  type LarkEventTime,
  readLarkEventTime,
  startOfDay,
  type TimeInput,
  weekdayOf,
} from "../../time/mod.ts";
import { type EventJson, eventJson, spanColumns, statusCell } from "./_event_json.ts";
import { type LarkEvent, larkEventsField } from "./_lark_event.ts";
import {
  CALENDAR_ID_PARAM,
  checkCalendarId,
  SPAN_PARAMS,
  spanOf,
  type SpanValues,
} from "./_params.ts";
import { planPieces, type Span, streamAcrossSpan } from "./split_span.ts";
import { agendaCursorOf, agendaToken, pageThrough, resumedPiece } from "./_agenda_pages.ts";
import { byCodeUnits, drawWeekGrid } from "./week_grid.ts";
import { continueNote } from "../paging.ts";

/**
 * The path of `instance_view` for a calendar.
 *
 * @param calendarId a calendar id or `primary`
 */
export function instanceViewPath(calendarId: string): string {
  return `/open-apis/calendar/v4/calendars/${encodeURIComponent(calendarId)}/events/instance_view`;
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
export function eventSeconds(time: LarkEventTime | undefined, timeZone: string): number {
  const read = readLarkEventTime(time);
  if (read === undefined) return Number.POSITIVE_INFINITY;
  return ("epochMs" in read ? read.epochMs : startOfDay(read.date, timeZone)) / 1000;
}

/** The key that tells instances apart: the event id and where it starts. */
function itemKey(item: LarkEvent): string {
  return `${item.event_id}|${item.start_time?.timestamp ?? ""}|${item.start_time?.date ?? ""}`;
}

/**
 * Slack for all-day events at a piece boundary, in seconds: the service may place an all-day
 * date in any zone from UTC-12 to UTC+14.
 */
const ALL_DAY_SLACK_SECONDS = 14 * 3600;

/**
 * One event of an answer as a piece keeps it until its turn to be written: what is written, and
 * the little the merge reads (so that the service's answer can go as soon as it is read).
 */
export interface PieceEntry<T> {
  /** What is written (hark's row, or the event itself). */
  value: T;
  /** The key that tells instances apart ({@link itemKey}). */
  key: string;
  /** The event id, the last tie-break of the order. */
  id: string;
  /** Where it starts, in seconds (all-day dates from their midnight in the viewer's zone). */
  start: number;
  /** Where it ends, likewise. */
  end: number;
  /**
   * The latest second it may reach, in seconds: its end, and for an all-day event 14 hours
   * more ({@link ALL_DAY_SLACK_SECONDS}). An event reaching a boundary may be in the piece after
   * it too.
   */
  reach: number;
}

/**
 * The entry of an event, or nothing for a cancelled one (an agenda never shows those).
 *
 * @param item the event, as the service returned it
 * @param value what to write for it
 * @param timeZone the viewer's IANA zone (where all-day events begin, for sorting)
 */
export function pieceEntry<T>(
  item: LarkEvent,
  value: T,
  timeZone: string,
): PieceEntry<T> | undefined {
  if (item.status === "cancelled") return undefined;
  const end = item.end_time;
  const allDay = end?.date !== undefined && end.timestamp === undefined;
  return {
    value,
    key: itemKey(item),
    id: item.event_id,
    start: eventSeconds(item.start_time, timeZone),
    end: eventSeconds(end, timeZone),
    reach: eventSeconds(end, "UTC") + (allDay ? ALL_DAY_SLACK_SECONDS : 0),
  };
}

/** What {@link orderPiece} keeps of a piece, and what it carries to the next one. */
export interface OrderedPiece<T> {
  /** The piece's values: no duplicates, none of the carried ones; sorted. */
  items: T[];
  /** The key of each of `items`. */
  keys: string[];
  /** The keys of events that may show up in the next piece too (they cross its start). */
  carry: Set<string>;
}

/**
 * Orders one piece of an agenda and removes what an earlier piece already gave: drops
 * duplicates (an event crossing a piece boundary is in both pieces, and a halved piece may
 * repeat one), sorts by start (then end, then id). Only the keys of events that cross a boundary
 * are remembered between pieces, so memory does not grow with the span.
 *
 * @param entries the piece's events ({@link pieceEntry}), as the service returned them
 * @param piece the piece's span, Unix seconds
 * @param carried the keys the previous piece carried
 */
export function orderPiece<T>(
  entries: readonly PieceEntry<T>[],
  piece: Span,
  carried: ReadonlySet<string>,
): OrderedPiece<T> {
  const seen = new Set<string>();
  const carry = new Set<string>();
  const kept: PieceEntry<T>[] = [];
  for (const entry of entries) {
    if (seen.has(entry.key)) continue;
    seen.add(entry.key);
    if (entry.reach >= piece.end) carry.add(entry.key);
    if (!carried.has(entry.key)) kept.push(entry);
  }
  kept.sort((a, b) => a.start - b.start || a.end - b.end || byCodeUnits(a.id, b.id));
  return { items: kept.map((e) => e.value), keys: kept.map((e) => e.key), carry };
}

/** What {@link mergePiece} keeps of a piece, and what it carries to the next one. */
export interface MergedPiece {
  /** The piece's events: no cancelled ones, no duplicates, none of the carried ones; sorted. */
  items: LarkEvent[];
  /** The keys of events that may show up in the next piece too (they cross its start). */
  carry: Set<string>;
}

/**
 * {@link orderPiece} of the service's events: drops cancelled events and duplicates, sorts,
 * and leaves out what the previous piece carried.
 *
 * @param items the piece's events, as the service returned them
 * @param piece the piece's span, Unix seconds
 * @param carried the keys the previous piece carried
 * @param timeZone the viewer's IANA zone (where all-day events begin, for sorting)
 */
export function mergePiece(
  items: readonly LarkEvent[],
  piece: Span,
  carried: ReadonlySet<string>,
  timeZone: string,
): MergedPiece {
  const entries = items.flatMap((item) => pieceEntry(item, item, timeZone) ?? []);
  const { items: kept, carry } = orderPiece(entries, piece, carried);
  return { items: kept, carry };
}

/**
 * An event's start and end as a table shows them: local time in `timeZone`, or the first and the
 * real last day of an all-day event (Lark's end date is exclusive).
 *
 * @param row an event with Lark's `start_time` and `end_time`
 * @param timeZone the viewer's IANA zone
 */
export function showEventSpan(
  row: { start_time?: LarkEventTime; end_time?: LarkEventTime },
  timeZone: string,
): { start: string; end: string } {
  const span = larkEventSpan(row.start_time, row.end_time, timeZone);
  return span ? formatEventSpan(span, timeZone, "local") : { start: "", end: "" };
}

/** `--view` of `+agenda`: a list, or a grid of one day or one week on a terminal. */
export const AGENDA_VIEWS = ["list", "day", "week"] as const;

/** One of {@link AGENDA_VIEWS}. */
export type AgendaView = typeof AGENDA_VIEWS[number];

const PARAMS = {
  ...SPAN_PARAMS,
  "calendar-id": CALENDAR_ID_PARAM,
  view: param.enumOf(AGENDA_VIEWS, {
    description: "list, or a grid of the day or the Monday-to-Sunday week of --start " +
      "(drawn on a terminal; otherwise the same events as a list)",
    default: "list",
  }),
  limit: param.int({
    description: "the most events to print; when more follow, a warning gives the " +
      "--page-token that continues",
  }),
  "page-token": param.string({
    description: "continue an agenda cut by --limit: the token it printed (same other flags)",
    valueName: "<token>",
  }),
};

/** The values of `+agenda`. */
export type AgendaValues = ValuesOf<typeof PARAMS>;

/** The values {@link viewDays} reads. */
export interface ViewValues {
  /** `--start`. */
  readonly start: TimeInput;
  /** `--view`. */
  readonly view?: AgendaView;
}

/**
 * The span `+agenda` reads: `--start`/`--end` for the list; with `--view day` the day of
 * `--start`, with `--view week` the Monday-to-Sunday week of `--start`, in the viewer's zone.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--end` when it is not after `--start`, or when it is given
 *   with a day or week view
 */
export function agendaSpan(input: ShortcutInput<SpanValues & ViewValues>): Span {
  const view = input.values.view;
  if (view === undefined || view === "list") return spanOf(input);
  if (input.values.end !== undefined) {
    throw new ValidationError(
      `Cannot use --end with --view ${view}: the view shows the ${view} of --start`,
      { param: "--end", suggestion: "Leave out --end, or use --view list for a span of your own" },
    );
  }
  const days = viewDays(input);
  return {
    start: startOfDay(days[0], input.timeZone) / 1000,
    end: endOfDay(days[days.length - 1], input.timeZone) / 1000,
  };
}

/**
 * The days a day or week view shows, `YYYY-MM-DD`, in the viewer's zone.
 *
 * @param input the shortcut input (`--start`, `--view`)
 */
export function viewDays(input: ShortcutInput<ViewValues>): string[] {
  const start = input.values.start;
  const day = start.kind === "date" ? start.date : dateIn(start.epochMs, input.timeZone);
  if (input.values.view !== "week") return [day];
  const monday = addDays(day, 1 - weekdayOf(day));
  return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
}

/**
 * The most dense pieces (the service refused them as holding over 1,000 events) read at once:
 * each of their halves is an answer of up to 1,000 events, and one of them at a time keeps a
 * year-long agenda's peak memory within 1.3 times that of one day (10 at once took 1.65 times).
 * Pieces with fewer events still go 10 at a time.
 */
export const DENSE_PIECES_AT_ONCE = 1;

/**
 * The agenda's events piece by piece, in order, as hark's JSON shows them: each piece sorted,
 * cancelled events and repeats dropped; progress ("3 of 16 pieces") on the status line.
 *
 * Each answer is shaped as soon as it is read (hark's rows, with what the merge needs), so the
 * service's answer is garbage at once, and a piece waiting for an earlier one holds compact rows.
 *
 * @param input the shortcut input
 * @param client the API client
 */
export async function* agendaRows(
  input: ShortcutInput<AgendaValues>,
  client: ApiCaller,
): AsyncGenerator<EventJson[]> {
  const calendarId = input.values["calendar-id"];
  const timeZone = input.timeZone;
  const span = agendaSpan(input);
  const start = await agendaCursorOf(input.values["page-token"], bindingOf(input, span));
  const progress = (done: number, total: number) => {
    if (total > 1) input.ctx.status(`Reading the agenda: ${done} of ${total} pieces done`);
  };
  const pieces = streamAcrossSpan(
    span,
    async (piece) => {
      const answer = await client.request(pieceRequest(calendarId, piece));
      const entries = larkEventsField(answer, "items").flatMap((item) =>
        pieceEntry(item, eventJson(item, timeZone, input.warn), timeZone) ?? []
      );
      // The answer is garbage now (a dense piece's first half would otherwise wait for the
      // next write to be collected, beside the second).
      input.ctx.reclaim();
      return entries;
    },
    {
      maxPieces: input.values["max-pieces"],
      denseLimit: DENSE_PIECES_AT_ONCE,
      // A resumed agenda reads the piece before too, for the events it carries over.
      from: Math.max(0, start.piece - 1),
      onDone: progress,
      // A piece's answer is garbage once settled: hand it back before the next one lands.
      onSettled: () => input.ctx.reclaim(),
      settle: (piece, results) => orderPiece(results.flat(), piece, new Set()),
    },
  );
  async function* withoutCarried() {
    let carried: ReadonlySet<string> = new Set();
    for await (const { results: ready, index } of pieces) {
      // What the previous piece already gave (events that cross the boundary) is dropped here.
      const rows = ready.items.filter((_, i) => !carried.has(ready.keys[i]));
      carried = ready.carry;
      yield { index, rows };
    }
  }
  const events = pageThrough(withoutCarried(), start, input.values.limit, (cursor) => {
    input.warn(continueNote(agendaToken(cursor, start.binding)));
  });
  for await (const rows of events) yield rows;
}

function bindingOf(input: ShortcutInput<AgendaValues>, span: Span) {
  const { identity, profile, timeZone } = input;
  return { calendar: input.values["calendar-id"], span, timeZone, identity, profile };
}

/** `calendar +agenda`. */
export const agenda = defineShortcut({
  service: "calendar",
  verb: "+agenda",
  description: "List the events of a calendar between two times (a long span is read in " +
    "40-day pieces, at most --max-pieces of them), or draw a day or week grid",
  examples: [
    "hark calendar +agenda",
    "hark calendar +agenda --start 2026-11-01 --end 2026-11-30",
    "hark calendar +agenda --view week --start 2026-11-23",
    "hark calendar +agenda --start 2026-01-01 --end 2026-12-31 --format csv",
    "hark calendar +agenda --start 2026-01-01 --end 2026-12-31 --limit 200",
  ],
  identities: ["user", "bot"],
  scopes: { user: ["calendar:calendar.event:read"], bot: ["calendar:calendar.event:read"] },
  effect: "read",
  params: PARAMS,
  validate(input) {
    checkCalendarId(input);
    const span = agendaSpan(input);
    planPieces(span, { maxPieces: input.values["max-pieces"] });
    const limit = input.values.limit;
    if (limit !== undefined && limit < 1) {
      throw new ValidationError(`Invalid value "${limit}" for --limit: expected at least 1`, {
        param: "--limit",
        suggestion: "Leave --limit out to print every event of the span",
      });
    }
    // Only a token needs the (asynchronous) digest; the checks above throw as they are called.
    const token = input.values["page-token"];
    if (token !== undefined) return agendaCursorOf(token, bindingOf(input, span)).then(() => {});
  },
  requests(input) {
    const calendarId = input.values["calendar-id"];
    // A resumed agenda sends from the piece before the one it resumes at.
    const from = Math.max(0, resumedPiece(input.values["page-token"]) - 1);
    return planPieces(agendaSpan(input), { maxPieces: input.values["max-pieces"] })
      .slice(from).map((piece) => pieceRequest(calendarId, piece));
  },
  stream: agendaRows,
  render(input) {
    if (input.values.view !== "day" && input.values.view !== "week") return undefined;
    return (rows) =>
      drawWeekGrid(Array.isArray(rows) ? rows : [], {
        days: viewDays(input),
        timeZone: input.timeZone,
        width: terminalWidth(input.ctx),
      });
  },
  columns: (input) => [
    ...spanColumns(input.timeZone, { start: 5, end: 3 }),
    { header: "SUMMARY", value: "summary", priority: 4 },
    { header: "STATUS", value: statusCell, priority: 1 },
    { header: "EVENT ID", value: "event_id", kind: "id", priority: 2 },
  ],
});
