/**
 * The grid of `calendar +agenda --view day|week` on a terminal, in the manner of gcalcli: days
 * as columns, half hours as rows, each event a labelled block down its column (`▌` marks the
 * rows it covers), all-day events in lanes on top, the whole fitted to the terminal's width.
 *
 * Pure: rows in, text out. Server text is made terminal-safe and measured by display width, so
 * wide characters keep the columns straight.
 *
 * @module
 */

import { sanitizeCell, textWidth, truncateToWidth } from "../../output/text_width.ts";
import { wrapText } from "../../output/wrap.ts";
import { dateIn, wallTimeToInstant, weekdayOf } from "../../time/mod.ts";
import { objectOf } from "../../json/fields.ts";

/** Options of {@link drawWeekGrid}. */
export interface WeekGridOptions {
  /** The days shown, `YYYY-MM-DD`, in order: one for a day view, seven for a week. */
  days: readonly string[];
  /** The viewer's IANA zone: rows are its wall-clock times. */
  timeZone: string;
  /** The terminal width in columns. */
  width: number;
  /** Minutes per row; default 30. */
  stepMinutes?: number;
  /** The hours shown at least, `[first, end)`; default 8 to 18, widened to fit the events. */
  hours?: [number, number];
}

/** The gutter: `09:30 ` before the first column. */
const GUTTER = 6;
/** The mark of a row an event covers. */
const BLOCK = "▌";
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

interface Timed {
  start: number;
  end: number;
  label: string;
  id: string;
}

interface AllDay {
  first: string;
  last: string;
  label: string;
}

/**
 * Draws a day or week grid of events.
 *
 * @param rows the events as hark's JSON shows them (`eventJson` of `_event_json.ts`: RFC 3339
 *   times, or dates with `all_day`); anything else is skipped
 * @param options the days, the zone, the width
 * @returns the grid, lines ending with `\n`
 * @example
 * ```ts
 * drawWeekGrid(rows, { days: ["2026-11-23"], timeZone: "UTC", width: 80 });
 * ```
 */
export function drawWeekGrid(rows: readonly unknown[], options: WeekGridOptions): string {
  const { days, timeZone } = options;
  const step = options.stepMinutes ?? 30;
  const cell = Math.max(3, Math.floor((options.width - GUTTER - 1) / days.length) - 1);
  const timed: Timed[] = [];
  const allDay: AllDay[] = [];
  for (const row of rows.map(objectOf)) {
    const label = sanitizeCell(String(row.summary ?? "")) || "(no title)";
    if (row.all_day === true && typeof row.start_time === "string") {
      allDay.push({ first: row.start_time, last: String(row.end_time ?? row.start_time), label });
      continue;
    }
    const start = Date.parse(String(row.start_time));
    const end = Date.parse(String(row.end_time));
    if (Number.isNaN(start) || Number.isNaN(end)) continue;
    timed.push({ start, end: Math.max(end, start + 60_000), label, id: String(row.event_id) });
  }
  timed.sort((a, b) => a.start - b.start || b.end - a.end || byCodeUnits(a.id, b.id));

  const [firstHour, endHour] = hourRange(timed, days, timeZone, options.hours ?? [8, 18]);
  const lines: string[] = [];
  const rule = (cross: string, end: string) =>
    "─".repeat(GUTTER) + days.map(() => cross + "─".repeat(cell)).join("") + end;
  const line = (gutter: string, cells: string[]) =>
    gutter.padEnd(GUTTER) + cells.map((c) => "│" + fit(c, cell)).join("") + "│";

  lines.push(
    days.length === 1
      ? `${weekdayName(days[0])} ${days[0]} (${timeZone})`
      : `Week of ${days[0]} to ${days[days.length - 1]} (${timeZone})`,
  );
  lines.push(line("", days.map((d) => dayHeader(d, cell))));
  lines.push(rule("┼", "┤"));
  const lanes = allDayLanes(allDay, days);
  lanes.forEach((lane, i) => {
    lines.push(
      line(i === 0 ? "all" : "", days.map((d) => lane.find((e) => covers(e, d))?.label ?? "")),
    );
  });
  if (lanes.length > 0) lines.push(rule("┼", "┤"));

  const perDay = days.map((day) =>
    dayColumn(day, timed, timeZone, daySlots(day, timeZone, firstHour, endHour, step), cell)
  );
  const rowCount = ((endHour - firstHour) * 60) / step;
  for (let r = 0; r < rowCount; r++) {
    const minute = firstHour * 60 + r * step;
    const gutter = minute % 60 === 0 || step >= 60 ? clock(minute) : "";
    lines.push(line(gutter, perDay.map((column) => column.cells[r])));
  }
  lines.push(rule("┴", "┘"));
  // What overlaps too narrow a column to stand beside the rest is listed, title whole.
  perDay.forEach(({ hidden }, i) => {
    for (const event of hidden) {
      const span = `${clockAt(event.start, timeZone)}–${clockAt(event.end, timeZone)}`;
      const text = `also ${dayHeader(days[i], 9)} ${span} ${event.label}`;
      lines.push(...wrapText(text, options.width - 2).map((l, k) => k === 0 ? l : `  ${l}`));
    }
  });
  if (rows.length === 0) lines.push("No events.");
  return lines.join("\n") + "\n";
}

/**
 * The hours to show: the default range, widened to every timed event on the days shown, each
 * clipped to the day it is drawn on: an event running over midnight widens a day view only by
 * its part in that day (to midnight, or from it), not to the whole 24 hours.
 */
function hourRange(
  timed: readonly Timed[],
  days: readonly string[],
  timeZone: string,
  [first, end]: [number, number],
): [number, number] {
  for (const day of days) {
    const dayStart = wallTimeToInstant(day, 0, timeZone);
    const dayEnd = wallTimeToInstant(day, 24 * 60, timeZone);
    for (const event of timed) {
      const start = Math.max(event.start, dayStart);
      const stop = Math.min(event.end, dayEnd);
      if (stop <= start) continue;
      first = Math.min(first, start === dayStart ? 0 : Math.floor(wallHour(start, timeZone)));
      end = Math.max(end, stop === dayEnd ? 24 : Math.ceil(wallHour(stop - 1, timeZone) + 1 / 60));
    }
  }
  return [Math.max(0, first), Math.min(24, Math.max(end, first + 1))];
}

/** The narrowest a lane of overlapping events is drawn side by side, its `▌` included. */
const MIN_LANE = 8;

/** One day's rows: the wall-clock slots and the instants they cover. */
function daySlots(
  day: string,
  timeZone: string,
  firstHour: number,
  endHour: number,
  step: number,
): { from: number; to: number }[] {
  const slots: { from: number; to: number }[] = [];
  for (let minute = firstHour * 60; minute < endHour * 60; minute += step) {
    slots.push({
      from: wallTimeToInstant(day, minute, timeZone),
      to: wallTimeToInstant(day, minute + step, timeZone),
    });
  }
  return slots;
}

/**
 * One day's cells, top to bottom, and the events it could not draw. Events that share a row
 * (directly or through others) form a group; a group's events go in lanes side by side while
 * each lane keeps {@link MIN_LANE} columns; when they do not fit, the group's first lane is
 * drawn with `+n` where others overlap it, and the other events are returned, to be listed under
 * the grid. An event that shares no row keeps the whole column.
 */
function dayColumn(
  day: string,
  timed: readonly Timed[],
  timeZone: string,
  slots: readonly { from: number; to: number }[],
  cell: number,
): { cells: string[]; hidden: Timed[] } {
  const rowsOf = (e: Timed) => slots.flatMap((s, i) => e.start < s.to && e.end > s.from ? [i] : []);
  const onDay = timed.map((event) => ({ event, rows: rowsOf(event) }))
    .filter((e) => e.rows.length > 0);
  // Groups of events linked by shared rows (the events come sorted by start).
  const groups: { events: Timed[]; rows: number[][]; last: number }[] = [];
  for (const { event, rows } of onDay) {
    const group = groups[groups.length - 1];
    if (group && rows[0] <= group.last) {
      group.events.push(event);
      group.rows.push(rows);
      group.last = Math.max(group.last, rows[rows.length - 1]);
    } else groups.push({ events: [event], rows: [rows], last: rows[rows.length - 1] });
  }
  const cells = slots.map(() => "");
  const hidden: Timed[] = [];
  for (const group of groups) {
    // Lanes by rows: two events in one row never share a lane.
    const lanes: { events: Timed[]; last: number }[] = [];
    group.events.forEach((event, k) => {
      const rows = group.rows[k];
      const lane = lanes.find((l) => l.last < rows[0]);
      if (lane) {
        lane.events.push(event);
        lane.last = rows[rows.length - 1];
      } else lanes.push({ events: [event], last: rows[rows.length - 1] });
    });
    const width = Math.floor((cell - (lanes.length - 1)) / lanes.length);
    let drawn: string[];
    if (lanes.length > 1 && width >= MIN_LANE) {
      const columns = lanes.map((lane) => laneCells(day, lane.events, timeZone, slots, width));
      drawn = slots.map((_, r) => columns.map((c) => fit(c[r], width)).join(" ").trimEnd());
    } else {
      drawn = laneCells(day, lanes[0].events, timeZone, slots, cell, group.events);
      hidden.push(...group.events.filter((e) => !lanes[0].events.includes(e)));
    }
    const first = group.rows.reduce((min, rows) => Math.min(min, rows[0]), Infinity);
    for (let r = first; r <= group.last; r++) cells[r] = drawn[r];
  }
  return { cells, hidden };
}

/**
 * The cells of events in `cell` columns: each a `▌` block labelled down its rows; where events
 * share a row, the one starting in it (else the first) is drawn, with `+n` for the others of
 * `all` in that row (those drawn elsewhere).
 */
function laneCells(
  day: string,
  timed: readonly Timed[],
  timeZone: string,
  slots: readonly { from: number; to: number }[],
  cell: number,
  all: readonly Timed[] = timed,
): string[] {
  const cells: string[] = [];
  const wrapped = new Map<Timed, string[]>();
  const shownFrom = new Map<Timed, number>();
  // Wide columns show the start time before the title.
  const withTime = cell - 1 >= 16;
  for (const { from, to } of slots) {
    const active = timed.filter((e) => e.start < to && e.end > from);
    const others = all.filter((e) => !active.includes(e) && e.start < to && e.end > from);
    if (active.length === 0) {
      // Busy with events listed under the grid only.
      cells.push(others.length > 0 ? `${BLOCK}+${others.length}` : "");
      continue;
    }
    // The event starting in this row wins the cell; else the one that started first.
    const main = active.find((e) => e.start >= from) ?? active[0];
    const firstRow = shownFrom.get(main) ?? cells.length;
    shownFrom.set(main, firstRow);
    let lines = wrapped.get(main);
    if (!lines) {
      const startsToday = dateIn(main.start, timeZone) === day;
      const label = withTime && startsToday
        ? `${clock(Math.round(wallHour(main.start, timeZone) * 60))} ${main.label}`
        : main.label;
      const rows = slots.filter((s, i) =>
        i >= cells.length && main.start < s.to && main.end > s.from
      )
        .length;
      lines = fitLines(wrapText(label, cell - 1), rows, cell - 1);
      wrapped.set(main, lines);
    }
    const text = lines[cells.length - firstRow] ?? "";
    const more = active.length - 1 + others.length;
    const suffix = more > 0 ? ` +${more}` : "";
    cells.push(BLOCK + truncateToWidth(text, cell - 1 - suffix.length) + suffix);
  }
  return cells;
}

/** At most `rows` lines: what does not fit goes, cut, on the last one. */
function fitLines(lines: string[], rows: number, width: number): string[] {
  if (lines.length <= rows || rows < 1) return lines;
  return [...lines.slice(0, rows - 1), truncateToWidth(lines.slice(rows - 1).join(" "), width)];
}

/** Each lane holds all-day events that do not overlap, so a multi-day one keeps its row. */
function allDayLanes(events: readonly AllDay[], days: readonly string[]): AllDay[][] {
  const shown = events
    .filter((e) => e.last >= days[0] && e.first <= days[days.length - 1])
    // ISO dates: their code units sort as the days do.
    .sort((a, b) => byCodeUnits(a.first, b.first) || byCodeUnits(b.last, a.last));
  const lanes: AllDay[][] = [];
  for (const event of shown) {
    const lane = lanes.find((l) => l.every((o) => o.last < event.first || o.first > event.last));
    if (lane) lane.push(event);
    else lanes.push([event]);
  }
  return lanes;
}

function covers(event: AllDay, day: string): boolean {
  return event.first <= day && day <= event.last;
}

/** Text padded or cut to exactly `width` display columns. */
function fit(text: string, width: number): string {
  const cut = textWidth(text) > width ? truncateToWidth(text, width) : text;
  return cut + " ".repeat(Math.max(0, width - textWidth(cut)));
}

function dayHeader(day: string, width: number): string {
  const name = weekdayName(day);
  const [, month, date] = day.split("-");
  for (const text of [`${name} ${day}`, `${name} ${month}-${date}`, `${name} ${date}`]) {
    if (textWidth(text) <= width) return text;
  }
  return `${name.slice(0, 2)}${date}`;
}

function weekdayName(day: string): string {
  return WEEKDAYS[weekdayOf(day) - 1];
}

/** The wall-clock time of an instant, `HH:MM`. */
function clockAt(epochMs: number, timeZone: string): string {
  return clock(Math.round(wallHour(epochMs, timeZone) * 60));
}

function clock(minute: number): string {
  const h = Math.floor(minute / 60) % 24;
  return `${String(h).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
}

function wallHour(epochMs: number, timeZone: string): number {
  const t = Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(timeZone);
  return t.hour + t.minute / 60;
}

/**
 * Orders two strings by their UTF-16 code units: the same on every machine, and without
 * `localeCompare`, whose first use loads ICU's collation data (about 80 M instructions).
 */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
