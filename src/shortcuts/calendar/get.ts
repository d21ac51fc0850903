/**
 * `hark calendar +get`: one event, with its attendees and their answers.
 *
 * @module
 */

import { defineShortcut } from "../definition.ts";
import { isObject } from "../../json/fields.ts";
import { CALENDAR_ID_PARAM, checkCalendarId, checkEventId, EVENT_ID_PARAM } from "./_params.ts";
import {
  EVENT_READ,
  eventKind,
  getEventRequest,
  listAttendeesRequest,
  readAttendees,
  readEvent,
} from "./_event_api.ts";
import { eventJson, spanColumns, statusCell } from "./_event_json.ts";
import { type LarkAttendee, larkAttendeeOf, type LarkEvent } from "./_lark_event.ts";

/** What `+get` returns. */
export interface EventWithAttendees {
  /** The event. */
  event: LarkEvent;
  /** Every attendee. */
  attendees: LarkAttendee[];
}

/**
 * An attendee as a cell shows it: `Ann Lee (accept)`.
 *
 * @param attendee the attendee
 */
export function attendeeCell(attendee: LarkAttendee): string {
  const name = attendee.display_name || attendee.user_id || attendee.attendee_id || "?";
  return `${name} (${attendee.rsvp_status ?? "needs_action"})`;
}

/** `calendar +get`. */
export const get = defineShortcut({
  service: "calendar",
  verb: "+get",
  description: "Show one event with its attendees and their answers (RSVP)",
  examples: [
    "hark calendar +get --event-id 0b5f3e1c-94aa-4b8e-9c1d-2f8e0a7d6c31_0",
    "hark calendar +get --event-id 0b5f3e1c-94aa-4b8e-9c1d-2f8e0a7d6c31_0 --json",
  ],
  identities: ["user", "bot"],
  scopes: { user: [EVENT_READ], bot: [EVENT_READ] },
  effect: "read",
  params: { "event-id": EVENT_ID_PARAM, "calendar-id": CALENDAR_ID_PARAM },
  validate(input) {
    checkCalendarId(input);
    checkEventId(input);
  },
  requests(input) {
    const calendarId = input.values["calendar-id"];
    const eventId = input.values["event-id"];
    return [getEventRequest(calendarId, eventId), listAttendeesRequest(calendarId, eventId)];
  },
  async run(input, client): Promise<EventWithAttendees> {
    const calendarId = input.values["calendar-id"];
    const eventId = input.values["event-id"];
    const event = await readEvent(client, calendarId, eventId);
    const attendees = await readAttendees(client, calendarId, eventId);
    return { event, attendees };
  },
  output: (result, input) => ({
    ...eventJson(result.event, input.timeZone, input.warn),
    kind: eventKind(result.event),
    attendees: result.attendees,
  }),
  columns: (input) => [
    { header: "EVENT ID", value: "event_id", kind: "id", priority: 6 },
    { header: "SUMMARY", value: "summary", priority: 5 },
    ...spanColumns(input.timeZone, { start: 4, end: 3 }),
    { header: "STATUS", value: statusCell, priority: 1 },
    {
      header: "ATTENDEES",
      value: (row) =>
        (Array.isArray(row.attendees) ? row.attendees : []).filter(isObject).map((a) =>
          attendeeCell(larkAttendeeOf(a))
        ),
      priority: 2,
    },
  ],
});
