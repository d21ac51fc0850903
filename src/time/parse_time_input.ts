/**
 * Times typed by the user (`--start`, `--end`): a calendar day, or an instant, kept as typed.
 *
 * @module
 */

import { invalidValue, type ValueSource } from "./_invalid_value.ts";
import { addDays, isCalendarDate } from "./all_day.ts";
import { ambiguity, readNaturalTime } from "./natural_time.ts";
import { readDurationMinutes } from "./parse_duration.ts";
import { dateIn, wallTimeToInstant } from "./zoned_day.ts";

/** A calendar day with no time and no zone: `2026-03-12`, `today`, `+2d`. */
export interface DateInput {
  /** Tells the kinds apart. */
  kind: "date";
  /** The day, `YYYY-MM-DD`. */
  date: string;
  /** The value as typed, for messages. */
  text: string;
  /** The flag it came from, for messages. */
  param: string;
}

/** A moment: `2026-03-12 14:00`, RFC 3339, Unix seconds, `now`, `+2h`. */
export interface InstantInput {
  /** Tells the kinds apart. */
  kind: "instant";
  /** The moment, epoch milliseconds. */
  epochMs: number;
  /** The value as typed, for messages. */
  text: string;
  /** The flag it came from, for messages. */
  param: string;
}

/** A time as the user gave it: a whole day, or a moment. */
export type TimeInput = DateInput | InstantInput;

/** Options of {@link parseTimeInput}. */
export interface ParseTimeOptions extends ValueSource {
  /** The current time, epoch ms (`ctx.now()`), for `now`, `today` and offsets. */
  now: number;
  /** The user's IANA zone: local times and the words `today`… are read in it. */
  timeZone: string;
}

/** The accepted forms, as error messages and help list them. */
export const TIME_INPUT_FORMS =
  "a date (2026-03-12, 12 Mar, Mar 12 2026), a local time (2026-03-12 14:00, 2026-03-12 2pm), " +
  "RFC 3339 (2026-03-12T14:00+08:00, 2026-03-12T06:00:00Z), Unix seconds, now, today, " +
  "tomorrow, yesterday, a weekday (monday, next fri, last tue), any of these days with a time " +
  "(tomorrow 3pm, next monday 15:00, noon), or an offset from now (+2d, -1w, +3h, +1h30m)";

const ZONED =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{1,2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?\s*([Zz]|[+-]\d{2}:\d{2})$/;
const LOCAL =
  /^(\d{4})-(\d{2})-(\d{2})(?:(?:[Tt]|\s+)(\d{1,2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?$/;
const UNIX_SECONDS = /^\d{9,10}$/;
const DAY_OFFSET = /^([+-])\s*(\d{1,4})\s*([dw])$/i;
const WORDS = new Map([["today", 0], ["tomorrow", 1], ["yesterday", -1]]);

/**
 * Parses a time typed by the user, keeping what kind of thing was typed:
 *
 * - `2026-03-12`, `today`, `tomorrow`, `yesterday`, `+2d`, `-1w`: a {@link DateInput}, a whole
 *   day (words and day offsets count from today in `timeZone`);
 * - `2026-03-12 14:00`, `2026-03-12T14:00`, with seconds and fractions: an instant, read as
 *   wall-clock time in `timeZone` (a time the clocks show twice is the first one; a time they
 *   skip is refused);
 * - RFC 3339 with `Z` or an offset, seconds optional (`2026-03-12T14:00+08:00`): an instant;
 * - Unix seconds (9 or 10 digits), `now`, `+3h`, `-30m`, `+1h30m`: an instant;
 * - English words (`natural_time.ts`): a day (`monday`, `next fri`, `30 Nov`) is a
 *   {@link DateInput}; a day with a time (`tomorrow 3pm`, `2026-11-30 3pm`, `noon`) an instant.
 *   Forms with two readings (`01/02`, a lone `next`) are refused.
 *
 * Words are case-insensitive; surrounding spaces are ignored.
 *
 * @param text the value as typed
 * @param options the clock, the zone, and the flag for messages
 * @throws {ValidationError} naming the flag, quoting the text and listing the accepted forms
 * @example
 * ```ts
 * parseTimeInput("2026-03-12", { param: "--start", now, timeZone: "Asia/Shanghai" });
 * // { kind: "date", date: "2026-03-12", text: "2026-03-12", param: "--start" }
 * ```
 */
export function parseTimeInput(text: string, options: ParseTimeOptions): TimeInput {
  const value = text.trim();
  const { param, now, timeZone } = options;
  const date = (day: string): DateInput => ({ kind: "date", date: day, text, param });
  const instant = (epochMs: number): InstantInput => ({ kind: "instant", epochMs, text, param });
  const noSuchTime = () =>
    invalidValue(text, options, "no such date or time", `Give ${TIME_INPUT_FORMS}`);
  const lower = value.toLowerCase();

  if (lower === "now") return instant(now);
  const word = WORDS.get(lower);
  if (word !== undefined) return date(addDays(dateIn(now, timeZone), word));
  const dayOffset = DAY_OFFSET.exec(value);
  if (dayOffset) {
    const days = Number(dayOffset[2]) * (dayOffset[3].toLowerCase() === "w" ? 7 : 1);
    return date(addDays(dateIn(now, timeZone), dayOffset[1] === "-" ? -days : days));
  }
  if (/^[+-]/.test(value)) {
    const minutes = readDurationMinutes(value.slice(1));
    if (minutes !== undefined) return instant(now + (value[0] === "-" ? -1 : 1) * minutes * 60_000);
  }
  if (UNIX_SECONDS.test(value)) return instant(Number(value) * 1000);

  const zoned = ZONED.exec(value);
  if (zoned) {
    const [, y, mo, d, h, mi, s, fraction, offset] = zoned;
    if (!validFields(y, mo, d, h, mi, s) || !validOffset(offset)) throw noSuchTime();
    const iso = `${y}-${mo}-${d}T${h.padStart(2, "0")}:${mi}:${s ?? "00"}${fraction ?? ""}` +
      offset.toUpperCase();
    return instant(Temporal.Instant.from(iso).epochMilliseconds);
  }

  const local = LOCAL.exec(value);
  if (local) {
    const [, y, mo, d, h, mi, s, fraction] = local;
    if (!validFields(y, mo, d, h, mi, s)) throw noSuchTime();
    if (h === undefined) return date(`${y}-${mo}-${d}`);
    const wall = `${y}-${mo}-${d}T${h.padStart(2, "0")}:${mi}:${s ?? "00"}${fraction ?? ""}`;
    return instant(wallInstant(wall, text, options));
  }

  const unclear = ambiguity(lower);
  if (unclear !== undefined) {
    throw invalidValue(
      text,
      options,
      `${unclear}; expected ${TIME_INPUT_FORMS}`,
      "Write the day with its year first (2026-03-12) or its month as a word (12 Mar)",
    );
  }
  const natural = readNaturalTime(lower, now, timeZone);
  if (natural === null) throw noSuchTime();
  if (natural !== undefined) {
    if (natural.time === undefined) return date(natural.date);
    const { hour, minute } = natural.time;
    const wall = `${natural.date}T${String(hour).padStart(2, "0")}:` +
      `${String(minute).padStart(2, "0")}:00`;
    return instant(wallInstant(wall, text, options));
  }

  throw invalidValue(
    text,
    options,
    `expected ${TIME_INPUT_FORMS}`,
    `Times without an offset are read in ${timeZone}`,
  );
}

/**
 * The moment a wall-clock time of the zone names: the first one when the clocks show it twice;
 * refused when they skip it, naming the first time after the jump.
 */
function wallInstant(iso: string, text: string, options: ParseTimeOptions): number {
  const { timeZone } = options;
  const wall = Temporal.PlainDateTime.from(iso);
  const zonedTime = wall.toZonedDateTime(timeZone, { disambiguation: "compatible" });
  if (Temporal.PlainDateTime.compare(zonedTime.toPlainDateTime(), wall) !== 0) {
    const jump = Temporal.Instant.fromEpochMilliseconds(
      wallTimeToInstant(wall.toPlainDate().toString(), wall.hour * 60 + wall.minute, timeZone),
    ).toZonedDateTimeISO(timeZone).toPlainDateTime();
    const after = jump.toString({ smallestUnit: "minute" }).replace("T", " ");
    throw invalidValue(
      text,
      options,
      `that time does not exist in ${timeZone}: the clocks go forward to ${after.slice(11)}`,
      `Give ${after} or later, or a time with an offset`,
    );
  }
  return zonedTime.epochMilliseconds;
}

function validFields(
  year: string,
  month: string,
  day: string,
  hour?: string,
  minute?: string,
  second?: string,
): boolean {
  if (!isCalendarDate(`${year}-${month}-${day}`)) return false;
  if (hour !== undefined && (Number(hour) > 23 || Number(minute) > 59)) return false;
  return second === undefined || Number(second) <= 59;
}

function validOffset(offset: string): boolean {
  if (/^z$/i.test(offset)) return true;
  const [hours, minutes] = offset.slice(1).split(":").map(Number);
  return hours <= 23 && minutes <= 59;
}
