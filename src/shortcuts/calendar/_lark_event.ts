/**
 * Lark's events and attendees as its answers carry them, and the readers that check an answer
 * before the calendar shortcuts use it: a field hark reads is kept only when it has the type hark
 * reads it as; every other field is kept as Lark sent it.
 *
 * @module
 */

import { isObject, type JsonObject, objectsField } from "../../json/fields.ts";
import type { LarkEventTime } from "../../time/mod.ts";

/** An event as Lark's event and instance answers carry it (the fields hark reads). */
export interface LarkEvent {
  /** The event id (an instance id `<uid>_<start second>` for one instance of a series). */
  event_id: string;
  /** The title. */
  summary?: string;
  /** The details. */
  description?: string;
  /** The start. */
  start_time?: LarkEventTime;
  /** The end; for an all-day event the day after the last. */
  end_time?: LarkEventTime;
  /** `confirmed`, `tentative` or `cancelled`. */
  status?: string;
  /** The RFC 5545 rule of a series; empty for a one-off event or an instance. */
  recurrence?: string;
  /** The series an instance belongs to. */
  recurring_event_id?: string;
  /** Unix seconds, as a string. */
  create_time?: string;
  [key: string]: unknown;
}

/** An attendee as the attendees list returns it (the fields hark reads). */
export interface LarkAttendee {
  /** `user`, `chat`, `third_party` or `resource`. */
  type?: string;
  /** The attendee's id on this event (what `batch_delete` takes). */
  attendee_id?: string;
  /** The user's open id, for a user. */
  user_id?: string;
  /** The name. */
  display_name?: string;
  /** `needs_action`, `accept`, `tentative`, `decline` or `removed`. */
  rsvp_status?: string;
  /** Whether the attendee organizes the event. */
  is_organizer?: boolean;
  [key: string]: unknown;
}

/** The fields of an event hark reads as text. */
const EVENT_TEXT = [
  "summary",
  "description",
  "status",
  "recurrence",
  "recurring_event_id",
  "create_time",
] as const;

/** The fields of an attendee hark reads as text. */
const ATTENDEE_TEXT = ["type", "attendee_id", "user_id", "display_name", "rsvp_status"] as const;

/**
 * Removes those of `keys` whose value is not a string, so that a copy of an answer holds what its
 * type says.
 *
 * @param object a copy of the answer's object
 * @param keys the fields that must be text when present
 */
function dropNonText(object: JsonObject, keys: readonly string[]): void {
  for (const key of keys) {
    if (key in object && typeof object[key] !== "string") delete object[key];
  }
}

/**
 * One of Lark's event times, when it is an object: `timestamp` (Unix seconds; a number is taken
 * as its text), `date` and `timezone` kept when they are text.
 *
 * @param value `start_time` or `end_time` as the service sent it
 */
export function larkEventTimeOf(value: unknown): LarkEventTime | undefined {
  if (!isObject(value)) return undefined;
  const time: LarkEventTime & JsonObject = { ...value };
  if (typeof value.timestamp === "number") time.timestamp = String(value.timestamp);
  dropNonText(time, ["timestamp", "date", "timezone"]);
  return time;
}

/**
 * An event from an answer: an object with a text `event_id`; the fields hark reads kept when
 * they have their type, the rest as sent.
 *
 * @param value the event as the service sent it
 * @returns the event, or `undefined` when it is not an object with an `event_id`
 */
export function larkEventOf(value: unknown): LarkEvent | undefined {
  if (!isObject(value) || typeof value.event_id !== "string") return undefined;
  // Lark's field order is kept; the fields hark reads are checked just below.
  const event: LarkEvent = { ...value, event_id: value.event_id };
  dropNonText(event, EVENT_TEXT);
  for (const key of ["start_time", "end_time"] as const) {
    const time = larkEventTimeOf(value[key]);
    if (time === undefined) delete event[key];
    else event[key] = time;
  }
  return event;
}

/**
 * The events of an array field of an answer (`items` of `instance_view`); anything that is not
 * an event is skipped.
 *
 * @param data the answer's `data`
 * @param key the field
 */
export function larkEventsField(data: unknown, key: string): LarkEvent[] {
  return objectsField(data, key).flatMap((item) => larkEventOf(item) ?? []);
}

/**
 * An attendee from an answer: the fields hark reads kept when they have their type.
 *
 * @param value the attendee as the service sent it
 */
export function larkAttendeeOf(value: JsonObject): LarkAttendee {
  const attendee: LarkAttendee = { ...value };
  dropNonText(attendee, ATTENDEE_TEXT);
  if ("is_organizer" in value && typeof value.is_organizer !== "boolean") {
    delete attendee.is_organizer;
  }
  return attendee;
}
