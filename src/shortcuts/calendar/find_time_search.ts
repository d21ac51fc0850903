/**
 * What `calendar +find-time` searches: its inputs read and checked (the people, the meeting's
 * length, the window, the working hours), and the key that makes a retried `--create` book one
 * event.
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import {
  dateIn,
  formatLocalTime,
  type Interval,
  parseDuration,
  parseWorkingHours,
  resolveTimeInput,
  resolveTimeRange,
  type TimeInput,
} from "../../time/mod.ts";
import type { ShortcutInput } from "../definition.ts";
import { checkId, USER_ID } from "../contact/ids.ts";
import { parseAttendees } from "./_attendees.ts";
import { defaultWindow } from "./find_slots.ts";
import { parseTimeRanges } from "./_time_ranges.ts";

/** The most people one search takes: each is one free/busy call per 40 days. */
export const MAX_PEOPLE = 100;

/** The values {@link windowOf} reads. */
export interface WindowValues {
  /** `--start`, when given. */
  readonly start?: TimeInput;
  /** `--end`, when given. */
  readonly end?: TimeInput;
  /** `--include-weekends`. */
  readonly "include-weekends"?: boolean;
}

/** The values {@link searchOf} reads. */
export interface SearchValues extends WindowValues {
  /** `--attendees`. */
  readonly attendees: string;
  /** `--duration`. */
  readonly duration: string;
  /** `--working-hours`. */
  readonly "working-hours": string;
  /** `--limit`. */
  readonly limit: number;
  /** `--exclude`, when given. */
  readonly exclude?: string;
}

/** The values {@link bookingKey} reads besides the search. */
export interface BookingValues {
  /** `--calendar-id`. */
  readonly "calendar-id": string;
  /** `--summary`. */
  readonly summary: string;
  /** `--description`, when given. */
  readonly description?: string;
  /** `--start`, when given. */
  readonly start?: TimeInput;
  /** `--end`, when given. */
  readonly end?: TimeInput;
}

/** The inputs of a search, checked. */
export interface Search {
  /** The attendees given: people and chats. */
  attendees: string[];
  /** The chats among them (`oc_…`): their members must be free, and the chat is invited. */
  chats: string[];
  /** The meeting length, minutes. */
  minutes: number;
  /** The window, epoch ms. */
  window: Interval;
  /** Working hours, minutes of the day. */
  workingHours: { startMinute: number; endMinute: number };
  /** `--exclude`: times no slot may touch, as if everyone were busy then, epoch ms. */
  excluded: Interval[];
}

/**
 * Reads and checks the search's inputs.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming the flag at fault
 */
export function searchOf(input: ShortcutInput<SearchValues>): Search {
  const { values } = input;
  // Each id goes into a profile's URL too: no format characters, no id longer than Lark's.
  const attendees = parseAttendees(values.attendees).map((id) =>
    checkId(id, "--attendees", USER_ID)
  );
  if (attendees.length > MAX_PEOPLE) {
    throw new ValidationError(
      `Too many attendees for --attendees: ${attendees.length}, at most ${MAX_PEOPLE}`,
      { param: "--attendees" },
    );
  }
  const minutes = parseDuration(values.duration, { param: "--duration" });
  const workingHours = parseWorkingHours(values["working-hours"], { param: "--working-hours" });
  const limit = values.limit;
  if (limit < 1 || limit > 100) {
    throw new ValidationError(`Invalid value "${limit}" for --limit: expected 1 to 100`, {
      param: "--limit",
    });
  }
  const excluded = values.exclude === undefined
    ? []
    : parseTimeRanges(values.exclude, "--exclude", input);
  const chats = attendees.filter((id) => id.startsWith("oc_"));
  return { attendees, chats, minutes, workingHours, window: windowOf(input), excluded };
}

/**
 * The window searched: `--start` to `--end`; without `--end`, to the end of the 5th working day
 * from `--start` (or now); without `--start`, from now.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--end` when it is not after the start
 */
export function windowOf(input: ShortcutInput<WindowValues>): Interval {
  const { values, timeZone } = input;
  const { start, end } = values;
  const includeWeekends = values["include-weekends"] === true;
  const now = input.ctx.now();
  if (start !== undefined && end !== undefined) return resolveTimeRange(start, end, timeZone);
  const from = start === undefined ? now : resolveTimeInput(start, "start", timeZone);
  if (end === undefined) {
    return { start: from, end: defaultWindow(from, timeZone, { includeWeekends }).end };
  }
  const to = resolveTimeInput(end, "end", timeZone);
  if (to <= from) {
    throw new ValidationError(
      `Invalid value "${end.text}" for --end: it is not after now (${
        formatLocalTime(now, timeZone)
      })`,
      { param: "--end", suggestion: "Give a later --end, or a --start before it" },
    );
  }
  return { start: from, end: to };
}

/**
 * A stable key for what was asked, as a UUID-shaped string: the same command books one event.
 *
 * @param input the shortcut input
 * @param search the checked inputs
 */
export function bookingKey(input: ShortcutInput<BookingValues>, search: Search): string {
  const { values } = input;
  const basis = JSON.stringify([
    values["calendar-id"],
    [...search.attendees].sort(),
    search.minutes,
    values.summary,
    values.description ?? "",
    values.start?.text ?? dateIn(input.ctx.now(), input.timeZone),
    values.end?.text ?? "",
  ]);
  // Four FNV-1a hashes with different offsets: 128 bits, enough to tell requests apart.
  const hex = [0x811c9dc5, 0x01000193, 0x5bd1e995, 0x27d4eb2f].map((seed) => {
    let h = seed >>> 0;
    for (let i = 0; i < basis.length; i++) {
      h ^= basis.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h.toString(16).padStart(8, "0");
  }).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${
    hex.slice(20)
  }`;
}
