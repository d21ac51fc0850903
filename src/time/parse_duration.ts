/**
 * Durations typed by the user: `30m`, `1h`, `1h30m`, `90m`.
 *
 * @module
 */

import { invalidValue, type ValueSource } from "./_invalid_value.ts";

const DURATION = /^(?:(\d+)\s*h)?\s*(?:(\d+)\s*m(?:in)?)?$/i;

/**
 * Reads a duration in hours and minutes (`1h30m`, `90m`, `2h`, `45min`, `1h 30m`), without
 * throwing: a building block for {@link parseDuration} and relative times.
 *
 * @param text the text, trimmed or not
 * @returns whole minutes (0 for `0m`), or `undefined` when the text is not a duration
 */
export function readDurationMinutes(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match || (match[1] === undefined && match[2] === undefined)) return undefined;
  const minutes = Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0);
  return Number.isSafeInteger(minutes) ? minutes : undefined;
}

/**
 * Parses a meeting length such as `30m`, `1h`, `1h30m` or `90m` into minutes. A bare number is
 * refused: `30` could mean minutes or hours.
 *
 * @param text the value as typed
 * @param where the flag it came from (`--duration`)
 * @returns whole minutes, at least 1
 * @throws {ValidationError} naming the flag, quoting the text, showing the accepted forms
 * @example
 * ```ts
 * parseDuration("1h30m", { param: "--duration" }); // 90
 * ```
 */
export function parseDuration(text: string, where: ValueSource): number {
  const minutes = readDurationMinutes(text);
  if (minutes === undefined) {
    const bare = /^\s*\d+\s*$/.test(text);
    throw invalidValue(
      text,
      where,
      bare
        ? "a number needs a unit, h or m"
        : "expected a duration in hours and minutes such as 30m, 1h or 1h30m",
      bare ? `Write ${text.trim()}m for minutes or ${text.trim()}h for hours` : undefined,
    );
  }
  if (minutes === 0) throw invalidValue(text, where, "a duration must be longer than zero");
  return minutes;
}

/**
 * Shows minutes the way {@link parseDuration} reads them: `90` gives `1h30m`, `60` gives `1h`,
 * `45` gives `45m`.
 *
 * @param minutes whole minutes, 0 or more
 */
export function formatDuration(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest}m`;
  return rest === 0 ? `${hours}h` : `${hours}h${rest}m`;
}
