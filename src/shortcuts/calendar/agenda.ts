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
import { drawWeekGrid } from "./week_grid.ts";
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

/** Whether an item may also be in the piece after `boundary` (it ends at or after it). */
function crosses(item: LarkEvent, boundary: number): boolean {
  const end = item.end_time;
  if (end?.date !== undefined && end.timestamp === undefined) {
    return eventSeconds(end, "UTC") + ALL_DAY_SLACK_SECONDS >= boundary;
  }
  return eventSeconds(end, "UTC") >= boundary;
}

/** What {@link mergePiece} keeps of a piece, and what it carries to the next one. */
export interface MergedPiece {
  /** The piece's events: no cancelled ones, no duplicates, none of the carried ones; sorted. */
  items: LarkEvent[];
  /** The keys of events that may show up in the next piece too (they cross its start). */
  carry: Set<string>;
}

/**
 * Orders one piece of an agenda and removes what an earlier piece already gave: drops cancelled
 * events and duplicates (an event crossing a piece boundary is in both pieces, and a halved
 * piece may repeat one), sorts by start (then end, then id). Only the keys of events that cross
 * a boundary are remembered between pieces, so memory does not grow with the span.
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
  const seen = new Set<string>();
  const carry = new Set<string>();
  const kept: LarkEvent[] = [];
  for (const item of items) {
    if (item.status === "cancelled") continue;
    const key = itemKey(item);
    if (seen.has(key)) continue;
    seen.add(key);
    if (crosses(item, piece.end)) carry.add(key);
    if (!carried.has(key)) kept.push(item);
  }
  kept.sort((a, b) =>
    eventSeconds(a.start_time, timeZone) - eventSeconds(b.start_time, timeZone) ||
    eventSeconds(a.end_time, timeZone) - eventSeconds(b.end_time, timeZone) ||
    a.event_id.localeCompare(b.event_id)
  );
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
 * A piece made ready as soon as it arrives: sorted, without cancelled events or repeats within
 * it, already in hark's JSON shape, with each row's key, so that a piece waiting for an earlier
 * one holds compact rows rather than the service's answer.
 */
interface ReadyPiece {
  /** The piece's rows, sorted. */
  rows: EventJson[];
  /** The key of each row, for dropping the ones the previous piece already gave. */
  keys: string[];
  /** The keys of events that may show up in the next piece too. */
  carry: Set<string>;
}

/**
 * The agenda's events piece by piece, in order, as hark's JSON shows them: each piece sorted,
 * cancelled events and repeats dropped; progress ("3 of 16 pieces") on the status line.
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
      return larkEventsField(await client.request(pieceRequest(calendarId, piece)), "items");
    },
    {
      maxPieces: input.values["max-pieces"],
      // A resumed agenda reads the piece before too, for the events it carries over.
      from: Math.max(0, start.piece - 1),
      onDone: progress,
      // A piece's answer is garbage once settled: hand it back before the next one lands.
      onSettled: () => input.ctx.reclaim(),
      settle(piece, results): ReadyPiece {
        const merged = mergePiece(results.flat(), piece, new Set(), timeZone);
        return {
          rows: merged.items.map((item) => eventJson(item, timeZone, input.warn)),
          keys: merged.items.map(itemKey),
          carry: merged.carry,
        };
      },
    },
  );
  async function* withoutCarried() {
    let carried: ReadonlySet<string> = new Set();
    for await (const { results: ready, index } of pieces) {
      // What the previous piece already gave (events that cross the boundary) is dropped here.
      const rows = ready.rows.filter((_, i) => !carried.has(ready.keys[i]));
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
