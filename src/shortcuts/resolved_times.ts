/**
 * What a typed time came to: `--start "tomorrow 3pm"` is `2026-11-28 15:00 (Asia/Shanghai)`,
 * shown with a `--dry-run` preview so the user sees the moment before anything is sent.
 *
 * @module
 */

import { formatLocalTime, type TimeInput, weekdayOf } from "../time/mod.ts";
import type { ParamValues } from "./definition.ts";

const DAY_NAMES = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** Texts already written as the absolute time they name: nothing to explain. */
const ABSOLUTE = /^\s*(\d{4}-\d{2}-\d{2}([Tt ]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?)?|\d{9,10})\s*$/;

function isTimeInput(value: unknown): value is TimeInput {
  return typeof value === "object" && value !== null && "kind" in value && "param" in value &&
    (value.kind === "date" || value.kind === "instant");
}

/**
 * One line per time value typed in words or as an offset (`tomorrow 3pm`, `monday`, `+2h`),
 * naming the flag, the text and the absolute day or moment it resolved to in the zone. Values
 * typed as absolute times (`2026-11-30 15:00`, RFC 3339 with an offset) need no line.
 *
 * @param values the bound values
 * @param timeZone the zone local times were read in
 * @example
 * ```ts
 * resolvedTimeNotes({ start: parsedTomorrow3pm }, "Asia/Shanghai");
 * // ['--start "tomorrow 3pm" is Sat 2026-11-28 15:00 (Asia/Shanghai)']
 * ```
 */
export function resolvedTimeNotes(values: ParamValues, timeZone: string): string[] {
  const notes: string[] = [];
  for (const value of Object.values(values)) {
    if (
      !isTimeInput(value) || ABSOLUTE.test(value.text) || /[zZ]|[+-]\d{2}:\d{2}$/.test(value.text)
    ) {
      continue;
    }
    const shown = value.kind === "date" ? value.date : formatLocalTime(value.epochMs, timeZone);
    const day = DAY_NAMES[weekdayOf(shown.slice(0, 10)) - 1];
    const zone = value.kind === "date" ? "" : ` (${timeZone})`;
    notes.push(`${value.param} ${JSON.stringify(value.text)} is ${day} ${shown}${zone}`);
  }
  return notes;
}
