/**
 * The busy/free bars of `calendar +freebusy` on a terminal: for a person, one line per day of the
 * span, the day's 24 hours across the width, `█` where they are busy for at least half of a
 * cell, `▒` where for less, `·` where free, blank outside the span asked for.
 *
 * Pure: intervals in, text out.
 *
 * @module
 */

import { sanitizeCell, truncateToWidth } from "../../output/text_width.ts";
import { addDays, dateIn, wallTimeToInstant, weekdayOf } from "../../time/mod.ts";

/** Options of {@link drawBusyBars}. */
export interface BusyBarOptions {
  /** Who the bars are for, as the header names them. */
  person: string;
  /** The span asked for, epoch ms, `[start, end)`. */
  span: { start: number; end: number };
  /** The viewer's IANA zone: days and hours are its wall clock. */
  timeZone: string;
  /** The terminal width in columns. */
  width: number;
}

/** An interval with RFC 3339 ends, as `+freebusy` writes it. */
export interface BusyRow {
  /** The start, RFC 3339. */
  start_time: string;
  /** The end, RFC 3339. */
  end_time: string;
}

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
/** `Mon 11-23 ` before each bar. */
const LABEL = 10;

/**
 * Draws one busy/free bar per day of the span.
 *
 * @param rows the busy intervals
 * @param options who, the span, the zone, the width
 * @returns the bars, lines ending with `\n`
 */
export function drawBusyBars(rows: readonly BusyRow[], options: BusyBarOptions): string {
  const { span, timeZone } = options;
  const busy = rows
    .map((r) => ({ start: Date.parse(r.start_time), end: Date.parse(r.end_time) }))
    .filter((b) => !Number.isNaN(b.start) && !Number.isNaN(b.end));
  const cells = Math.max(24, options.width - LABEL - 2);
  const first = dateIn(span.start, timeZone);
  const last = dateIn(span.end - 1, timeZone);
  const lines = [
    truncateToWidth(
      `Busy times of ${sanitizeCell(options.person)}, ${first} to ${last} (${timeZone}): ` +
        "█ busy  ▒ partly  · free",
      options.width,
    ),
    " ".repeat(LABEL) + " " + hourTicks(cells),
  ];
  for (let day = first; day <= last; day = addDays(day, 1)) {
    let bar = "";
    // A day of 23 or 25 hours (a clock change) is stretched over the same width.
    const dayStart = wallTimeToInstant(day, 0, timeZone);
    const cellMs = (wallTimeToInstant(day, 1440, timeZone) - dayStart) / cells;
    for (let i = 0; i < cells; i++) {
      const from = dayStart + i * cellMs;
      const to = from + cellMs;
      if (to <= span.start || from >= span.end) {
        bar += " ";
        continue;
      }
      const covered = busy.reduce(
        (sum, b) => sum + Math.max(0, Math.min(b.end, to) - Math.max(b.start, from)),
        0,
      );
      bar += covered === 0 ? "·" : covered * 2 >= to - from ? "█" : "▒";
    }
    const [, month, date] = day.split("-");
    lines.push(`${WEEKDAYS[weekdayOf(day) - 1]} ${month}-${date} │${bar}│`);
  }
  if (busy.length === 0) lines.push("Free for the whole span.");
  return lines.join("\n") + "\n";
}

/** Hour labels over the bar: every 1, 2, 3 or 6 hours, whichever leaves room for them. */
function hourTicks(cells: number): string {
  const perHour = cells / 24;
  const every = [1, 2, 3, 6].find((h) => h * perHour >= 4) ?? 6;
  const ticks = Array.from({ length: cells + 1 }, () => " ");
  for (let hour = 0; hour < 24; hour += every) {
    const at = Math.round(hour * perHour);
    const text = String(hour).padStart(2, "0");
    if (at + text.length <= cells + 1) [...text].forEach((c, i) => (ticks[at + i] = c));
  }
  return ticks.join("").trimEnd();
}
