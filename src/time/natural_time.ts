/**
 * The English forms people type for a day and a time of day, as gcalcli and GNU `date` users
 * do: `tomorrow 3pm`, `next monday 15:00`, `friday`, `30 Nov`, `Nov 30 2026 9:30am`, `noon`.
 * Only forms with one reading are taken: `01/02` (January 2 or February 1?) and a lone `next`
 * are refused by the caller.
 *
 * @module
 */

import { addDays, isCalendarDate } from "./all_day.ts";
import { dateIn, weekdayOf } from "./zoned_day.ts";

/** A day, and a wall-clock time on it when one was given. */
export interface NaturalTime {
  /** The day, `YYYY-MM-DD`. */
  date: string;
  /** The wall-clock time, when given. */
  time?: { hour: number; minute: number };
}

const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const RELATIVE_DAYS = new Map([["today", 0], ["tomorrow", 1], ["yesterday", -1]]);
const CLOCK = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?$/;

/** A month name or its first three letters (`sept` too): its number, 1 to 12. */
function monthOf(word: string): number | undefined {
  if (word === "sept") return 9;
  const index = MONTHS.findIndex((name) => word.length >= 3 && name.startsWith(word));
  return index < 0 ? undefined : index + 1;
}

/** A weekday name or its first three letters (`tues`, `thur`, `thurs` too): 1 (Monday) to 7. */
function weekdayNumber(word: string): number | undefined {
  const index = WEEKDAYS.findIndex((name) => word.length >= 3 && name.startsWith(word));
  return index < 0 ? undefined : index + 1;
}

/**
 * A time of day: `15:00`, `9:30`, `3pm`, `3:30 pm`, `12am` (midnight), `noon`, `midnight`.
 *
 * @returns the time, or `undefined` when the text is none (or names no real time)
 */
function readClock(text: string): { hour: number; minute: number } | undefined {
  if (text === "noon") return { hour: 12, minute: 0 };
  if (text === "midnight") return { hour: 0, minute: 0 };
  const match = CLOCK.exec(text);
  if (!match) return undefined;
  const [, h, m, meridiem] = match;
  let hour = Number(h);
  const minute = m === undefined ? 0 : Number(m);
  if (minute > 59) return undefined;
  if (meridiem === undefined) {
    // A bare number is no time ("3" could be a day); a 24-hour clock needs its minutes.
    if (m === undefined || hour > 23) return undefined;
    return { hour, minute };
  }
  if (hour < 1 || hour > 12) return undefined;
  if (meridiem.startsWith("a")) hour = hour === 12 ? 0 : hour;
  else hour = hour === 12 ? 12 : hour + 12;
  return { hour, minute };
}

/**
 * A day in words: `today`, `tomorrow`, `yesterday`; a weekday (`monday`, `mon`: that day this
 * week from today on, today included); `next monday` (the first one after today), `last monday`
 * (the last one before today), as GNU `date` reads them; `30 Nov`, `Nov 30`, `30 November 2026`,
 * `Nov 30, 2026` (no year: this year).
 */
function readDay(words: string[], today: string): string | undefined | null {
  const text = words.join(" ");
  const relative = RELATIVE_DAYS.get(text);
  if (relative !== undefined) return addDays(today, relative);
  const todayNumber = weekdayOf(today);
  if (words.length <= 2) {
    const [first, second] = words;
    const modifier = words.length === 2 ? first : "";
    const weekday = weekdayNumber(words.length === 2 ? second : first);
    if (weekday !== undefined && ["", "this", "next", "last"].includes(modifier)) {
      const ahead = (weekday - todayNumber + 7) % 7;
      if (modifier === "next") return addDays(today, ahead === 0 ? 7 : ahead);
      if (modifier === "last") return addDays(today, -((todayNumber - weekday + 7) % 7 || 7));
      return addDays(today, ahead);
    }
  }
  // 30 Nov [2026] | Nov 30 [2026] (a comma after the day is allowed: Nov 30, 2026)
  const parts = text.replace(/,/g, " ").split(/\s+/);
  if (parts.length < 2 || parts.length > 3) return undefined;
  const year = parts.length === 3 ? parts[2] : today.slice(0, 4);
  if (!/^\d{4}$/.test(year)) return undefined;
  let day: string;
  let month: number | undefined;
  if (/^\d{1,2}(st|nd|rd|th)?$/.test(parts[0])) {
    day = parts[0];
    month = monthOf(parts[1]);
  } else {
    month = monthOf(parts[0]);
    day = parts[1];
  }
  const dayNumber = /^(\d{1,2})(st|nd|rd|th)?$/.exec(day);
  if (month === undefined || !dayNumber) return undefined;
  const date = `${year}-${String(month).padStart(2, "0")}-${dayNumber[1].padStart(2, "0")}`;
  // A day the month does not have (31 Nov) is no date at all.
  return isCalendarDate(date) ? date : null;
}

/**
 * Reads a day and time in English words. The time may come before or after the day, with an
 * optional `at` between (`tomorrow at 3pm`, `3pm tomorrow`); a time alone is today; a day written
 * as digits (`2026-11-30 3pm`) is taken with a 12-hour time too.
 *
 * @param text the value, trimmed and lower-cased
 * @param now the current time, epoch ms
 * @param timeZone the zone `today` and the weekdays are counted in
 * @returns the day and time; `undefined` when the text is none of these forms; `null` when it
 *   names a day that does not exist (`31 Nov`)
 */
export function readNaturalTime(
  text: string,
  now: number,
  timeZone: string,
): NaturalTime | undefined | null {
  const words = text.split(/\s+/).filter((w) => w !== "" && w !== "at");
  if (words.length === 0) return undefined;
  const today = dateIn(now, timeZone);
  // The time is at one end: one word (`3pm`, `15:00`), or two (`3 pm`).
  for (const [size, atEnd] of [[1, true], [2, true], [1, false], [2, false]] as const) {
    if (words.length < size) continue;
    const clockWords = atEnd ? words.slice(-size) : words.slice(0, size);
    const time = readClock(clockWords.join(" "));
    if (time === undefined) continue;
    const dayWords = atEnd ? words.slice(0, -size) : words.slice(size);
    if (dayWords.length === 0) return { date: today, time };
    const iso = dayWords.length === 1 && /^\d{4}-\d{2}-\d{2}$/.test(dayWords[0]);
    if (iso) return isCalendarDate(dayWords[0]) ? { date: dayWords[0], time } : null;
    const date = readDay(dayWords, today);
    if (date === null) return null;
    if (date !== undefined) return { date, time };
  }
  const date = readDay(words, today);
  if (date === null) return null;
  return date === undefined ? undefined : { date };
}

/**
 * Why a text has more than one reading, when it is one of the forms hark refuses for that:
 * a date with slashes (`01/02`: January 2 in the US, 1 February elsewhere), or a relative
 * word with nothing after it (`next`, `last`, `this`).
 *
 * @param text the value, trimmed and lower-cased
 * @returns the reason, or `undefined` when the text is not one of them
 */
export function ambiguity(text: string): string | undefined {
  if (/^\d{1,4}[/.]\d{1,2}([/.]\d{1,4})?(\s|$)/.test(text)) {
    return "a date with slashes or dots is read differently by country (month or day first)";
  }
  if (/^(next|last|this)$/.test(text)) return `"${text}" needs a weekday after it`;
  return undefined;
}
