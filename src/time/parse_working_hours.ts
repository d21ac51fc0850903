/**
 * Working hours typed by the user: `09:00-18:00`.
 *
 * @module
 */

import { invalidValue, type ValueSource } from "./_invalid_value.ts";

/** A daily stretch of working time, in minutes after local midnight. */
export interface WorkingHours {
  /** When work starts, 0–1439 (`540` is 09:00). */
  startMinute: number;
  /** When work ends, after `startMinute`, at most 1440 (24:00). */
  endMinute: number;
}

/** 09:00–18:00, the working hours when none are given. */
export const DEFAULT_WORKING_HOURS: Readonly<WorkingHours> = Object.freeze({
  startMinute: 9 * 60,
  endMinute: 18 * 60,
});

const RANGE = /^(\d{1,2}):(\d{2})\s*[-–]\s*(\d{1,2}):(\d{2})$/;

/**
 * Parses working hours `HH:MM-HH:MM` (`09:00-18:00`, `9:30-17:30`, `00:00-24:00`), read later in
 * each person's own time zone. The end must come after the start on the same day: night shifts
 * across midnight are not supported.
 *
 * @param text the value as typed
 * @param where the flag it came from (`--working-hours`)
 * @throws {ValidationError} naming the flag and quoting the text
 * @example
 * ```ts
 * parseWorkingHours("09:00-18:00", { param: "--working-hours" });
 * // { startMinute: 540, endMinute: 1080 }
 * ```
 */
export function parseWorkingHours(text: string, where: ValueSource): WorkingHours {
  const match = RANGE.exec(text.trim());
  const expected = "expected HH:MM-HH:MM such as 09:00-18:00";
  if (!match) throw invalidValue(text, where, expected);
  const [h1, m1, h2, m2] = match.slice(1).map(Number);
  if (h1 > 23 || m1 > 59 || h2 > 24 || m2 > 59 || (h2 === 24 && m2 !== 0)) {
    throw invalidValue(text, where, `${expected}, with times from 00:00 to 24:00`);
  }
  const startMinute = h1 * 60 + m1;
  const endMinute = h2 * 60 + m2;
  if (endMinute <= startMinute) {
    throw invalidValue(
      text,
      where,
      "the end must come after the start on the same day",
      "Give a range within one day, such as 09:00-18:00",
    );
  }
  return { startMinute, endMinute };
}

/**
 * Shows working hours the way {@link parseWorkingHours} reads them: `09:00-18:00`.
 *
 * @param hours the working hours
 */
export function formatWorkingHours(hours: WorkingHours): string {
  const show = (m: number) =>
    `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
  return `${show(hours.startMinute)}-${show(hours.endMinute)}`;
}
