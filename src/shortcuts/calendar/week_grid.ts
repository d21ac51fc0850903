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

import { sanitizeCell, textWidth, truncateToWidth } from "../../output/mod.ts";
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
  timed.sort((a, b) => a.start - b.start || b.end - a.end || a.id.localeCompare(b.id));

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

  const perDay = days.map((day) => dayColumn(day, timed, timeZone, firstHour, endHour, step, cell));
  const rowCount = ((endHour - firstHour) * 60) / step;
  for (let r = 0; r < rowCount; r++) {
    const minute = firstHour * 60 + r * step;
    const gutter = minute % 60 === 0 || step >= 60 ? clock(minute) : "";
    lines.push(line(gutter, perDay.map((column) => column[r])));
  }
  lines.push(rule("┴", "┘"));
  if (rows.length === 0) lines.push("No events.");
  return lines.join("\n") + "\n";
}

/** The hours to show: the default range, widened to every timed event on the days shown. */
function hourRange(
  timed: readonly Timed[],
  days: readonly string[],
  timeZone: string,
  [first, end]: [number, number],
): [number, number] {
  const from = wallTimeToInstant(days[0], 0, timeZone);
  const to = wallTimeToInstant(days[days.length - 1], 24 * 60, timeZone);
  for (const event of timed) {
    if (event.end <= from || event.start >= to) continue;
    const startHour = wallHour(event.start, timeZone);
    const endOf = wallHour(event.end - 1, timeZone);
    // An event that runs over midnight fills the rest of the day and the start of the next.
    const overMidnight = event.end - event.start >= 86_400_000 ||
      dateIn(event.start, timeZone) !== dateIn(event.end - 1, timeZone);
    first = Math.min(first, overMidnight ? 0 : Math.floor(startHour));
    end = Math.max(end, overMidnight ? 24 : Math.ceil(endOf + 1 / 60));
  }
  return [Math.max(0, first), Math.min(24, Math.max(end, first + 1))];
}

/** One day's cells, top to bottom. */
function dayColumn(
  day: string,
  timed: readonly Timed[],
  timeZone: string,
  firstHour: number,
  endHour: number,
  step: number,
  cell: number,
): string[] {
  const slots: { from: number; to: number }[] = [];
  for (let minute = firstHour * 60; minute < endHour * 60; minute += step) {
    slots.push({
      from: wallTimeToInstant(day, minute, timeZone),
      to: wallTimeToInstant(day, minute + step, timeZone),
    });
  }
  const cells: string[] = [];
  const wrapped = new Map<Timed, string[]>();
  const shownFrom = new Map<Timed, number>();
  // Wide columns show the start time before the title.
  const withTime = cell - 1 >= 16;
  for (const { from, to } of slots) {
    const active = timed.filter((e) => e.start < to && e.end > from);
    if (active.length === 0) {
      cells.push("");
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
      lines = fitLines(wrap(label, cell - 1), rows, cell - 1);
      wrapped.set(main, lines);
    }
    const text = lines[cells.length - firstRow] ?? "";
    const more = active.length - 1;
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
    .sort((a, b) => a.first.localeCompare(b.first) || b.last.localeCompare(a.last));
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

/** Greedy word wrap by display width; a word wider than a line is cut. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(" ").filter((w) => w !== "")) {
    const candidate = current === "" ? word : `${current} ${word}`;
    if (textWidth(candidate) <= width) {
      current = candidate;
      continue;
    }
    if (current !== "") lines.push(current);
    current = "";
    let rest = word;
    while (textWidth(rest) > width) {
      let piece = "";
      for (const char of rest) {
        if (textWidth(piece + char) > width) break;
        piece += char;
      }
      if (piece === "") break;
      lines.push(piece);
      rest = rest.slice(piece.length);
    }
    current = rest;
  }
  if (current !== "") lines.push(current);
  return lines.length > 0 ? lines : [""];
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

function clock(minute: number): string {
  const h = Math.floor(minute / 60) % 24;
  return `${String(h).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
}

function wallHour(epochMs: number, timeZone: string): number {
  const t = Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(timeZone);
  return t.hour + t.minute / 60;
}
