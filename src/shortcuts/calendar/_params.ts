/**
 * The parameters several calendar shortcuts share, and the checks and readings of their values:
 * the calendar, the event, the span, the time zone, notification and series switches.
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import { isDotSegment } from "../../http/request.ts";
import { resolveTimeRange, type TimeInput } from "../../time/mod.ts";
import type { ShortcutInput } from "../definition.ts";
import { param } from "../param.ts";
import { DEFAULT_MAX_PIECES, type Span } from "./split_span.ts";
import { hasSpaceControlOrFormat } from "../../text_classes.ts";

/** `--timezone` of the calendar shortcuts. */
export const TIMEZONE_PARAM = param.string({
  description: "the IANA time zone times are read and shown in (default: $TZ, the system's)",
  valueName: "<zone>",
});

/**
 * `--max-pieces` of the shortcuts that read a span in 40-day pieces: the most requests one
 * command sends for it. A longer span is refused before anything is sent; a person raises it on
 * the command line, an MCP call cannot go beyond the default.
 */
export const MAX_PIECES_PARAM = param.int({
  description: "the most 40-day pieces (one request each) to read the span in, a safety limit; " +
    `a longer span is refused (the default ${DEFAULT_MAX_PIECES} covers about 14 years; ` +
    "raise it to read more)",
  default: DEFAULT_MAX_PIECES,
  mcpMaximum: DEFAULT_MAX_PIECES,
  valueName: "<n>",
});

/**
 * `--start`, `--end`, `--timezone` and `--max-pieces` of the span-based calendar shortcuts
 * (agenda, free/busy).
 */
export const SPAN_PARAMS = {
  start: param.datetime({
    description: "the first moment; a date means its beginning",
    default: "today",
  }),
  end: param.datetime({
    description: "the end; a date includes that whole day (default: the end of --start's day)",
  }),
  timezone: TIMEZONE_PARAM,
  "max-pieces": MAX_PIECES_PARAM,
};

/** `--calendar-id` of the calendar shortcuts. */
export const CALENDAR_ID_PARAM = param.string({
  description: "the calendar",
  default: "primary",
  valueName: "<id>",
});

/** `--event-id` of the shortcuts that address one event. */
export const EVENT_ID_PARAM = param.string({
  description: "the event: an id from +agenda (an instance id addresses one instance of a series)",
  required: true,
  valueName: "<id>",
});

/** `--all-instances` of `+update` and `+delete`. */
export const ALL_INSTANCES_PARAM = param.bool({
  description: "allow changing a whole recurring series when --event-id names the series",
});

/** `--notify` and `--no-notify`: whether Lark tells the attendees (`need_notification`). */
export const NOTIFY_PARAMS = {
  notify: param.bool({ description: "notify the attendees (Lark's default)" }),
  "no-notify": param.bool({ description: "do not notify the attendees" }),
};

/**
 * What attendees may do (calendar.v4.calendarEvent.create in the SDK's types): Lark's default is
 * `none`, which hides the other attendees from each invitee; hark's is `can_see_others`.
 */
export const ATTENDEE_ABILITIES = [
  "none",
  "can_see_others",
  "can_invite_others",
  "can_modify_event",
] as const;

/** `--attendee-ability` of `+create` and `+find-time --create`. */
export const ATTENDEE_ABILITY_PARAM = param.enumOf(ATTENDEE_ABILITIES, {
  description: "what attendees may do: see the others, invite others, change the event, or none",
  default: "can_see_others",
});

/**
 * Checks `--calendar-id`: an empty or blank id would address no calendar, and `.` or `..` would
 * be dropped from the path by URL parsing (the request would reach another resource).
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--calendar-id`
 */
export function checkCalendarId(input: ShortcutInput<{ readonly "calendar-id": string }>): void {
  const id = input.values["calendar-id"];
  if (id.trim() === "" || isDotSegment(id)) {
    throw new ValidationError(`Invalid value ${JSON.stringify(id)} for --calendar-id`, {
      param: "--calendar-id",
      suggestion: "Give a calendar id, or leave the flag out for your primary calendar",
    });
  }
}

/** The longest event or instance id accepted (Lark's are well under 100 characters). */
export const MAX_EVENT_ID_LENGTH = 256;

/**
 * Checks `--event-id`: not blank, not `.` or `..` (URL parsing would drop it: `DELETE
 * …/events/..` would address the calendar itself), not longer than {@link MAX_EVENT_ID_LENGTH},
 * no spaces or control characters.
 *
 * @param input the shortcut input
 * @returns the id
 * @throws {ValidationError} naming `--event-id`
 */
export function checkEventId(input: ShortcutInput<{ readonly "event-id": string }>): string {
  const id = input.values["event-id"];
  const wrong = id.trim() === "" || isDotSegment(id) || id.length > MAX_EVENT_ID_LENGTH ||
    hasSpaceControlOrFormat(id);
  if (wrong) {
    const shown = id.length > 60 ? `${id.slice(0, 60)}…` : id;
    throw new ValidationError(`Invalid value ${JSON.stringify(shown)} for --event-id`, {
      param: "--event-id",
      suggestion: "Give an event id as +agenda lists it",
      command: "hark calendar +agenda",
    });
  }
  return id;
}

/** The values {@link spanOf} reads. */
export interface SpanValues {
  /** `--start`. */
  readonly start: TimeInput;
  /** `--end`, when given. */
  readonly end?: TimeInput;
}

/**
 * The span of `--start` and `--end`, in Unix seconds: a date-only `--end` includes that day, and
 * without `--end` the span is the rest of `--start`'s day.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--end` when it is not after `--start`, quoting both as typed
 */
export function spanOf(input: ShortcutInput<SpanValues>): Span {
  const range = resolveTimeRange(input.values.start, input.values.end, input.timeZone);
  return { start: Math.floor(range.start / 1000), end: Math.ceil(range.end / 1000) };
}

/** The values {@link notifyOf} reads. */
export interface NotifyValues {
  /** `--notify`. */
  readonly notify?: boolean;
  /** `--no-notify`. */
  readonly "no-notify"?: boolean;
}

/**
 * `need_notification` from `--notify` / `--no-notify`; `undefined` when neither was given.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--no-notify` when both were given
 */
export function notifyOf(input: ShortcutInput<NotifyValues>): boolean | undefined {
  const yes = input.values.notify === true;
  const no = input.values["no-notify"] === true;
  if (yes && no) {
    throw new ValidationError("Cannot use --notify with --no-notify", {
      param: "--no-notify",
      suggestion: "Give one of them",
    });
  }
  return yes ? true : no ? false : undefined;
}
