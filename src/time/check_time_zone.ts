/**
 * Checking a time zone given by the user (`--timezone`, `TZ`).
 *
 * @module
 */

import type { ValidationError } from "../errors/mod.ts";
import { invalidValue, type ValueSource } from "./_invalid_value.ts";

/**
 * Checks an IANA time zone name and returns its canonical spelling (`asia/shanghai` gives
 * `Asia/Shanghai`, `utc` gives `UTC`). Fixed offsets such as `+08:00` are refused: Lark stores
 * an event's zone by IANA name, and an offset knows nothing of daylight saving time.
 *
 * @param name the zone as typed
 * @param where the flag (or variable) it came from
 * @returns the canonical zone name
 * @throws {ValidationError} naming the flag and quoting the name
 * @example
 * ```ts
 * checkTimeZone("europe/berlin", { param: "--timezone" }); // "Europe/Berlin"
 * ```
 */
export function checkTimeZone(name: string, where: ValueSource): string {
  const trimmed = name.trim();
  const bad = (): ValidationError =>
    invalidValue(
      name,
      where,
      "expected an IANA time zone such as Europe/Berlin, Asia/Shanghai or UTC",
      "Use a name from the tz database (https://en.wikipedia.org/wiki/List_of_tz_database_time_zones)",
    );
  if (trimmed === "" || /^[+-]/.test(trimmed)) throw bad();
  try {
    return Temporal.ZonedDateTime.from({ year: 2000, month: 1, day: 1, timeZone: trimmed })
      .timeZoneId;
  } catch {
    throw bad();
  }
}
