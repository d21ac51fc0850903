/**
 * `hark calendar +rsvp`: answer an invitation.
 *
 * @module
 */

import { defineShortcut, type ShortcutInput } from "../definition.ts";
import type { ApiRequest } from "../../http/request.ts";
import { param, type ValuesOf } from "../param.ts";
import { CALENDAR_ID_PARAM, checkCalendarId, checkEventId, EVENT_ID_PARAM } from "./_params.ts";
import { eventPath } from "./_event_api.ts";

/** The answers Lark takes (calendar.v4.calendarEvent.reply in the SDK). */
export const RSVP_STATUSES = ["accept", "decline", "tentative"] as const;

/** The scope of replying (lark-cli `shortcuts/calendar/calendar_rsvp.go`). */
export const EVENT_REPLY = "calendar:calendar.event:reply";

const PARAMS = {
  "event-id": EVENT_ID_PARAM,
  status: param.enumOf(RSVP_STATUSES, { description: "the answer", required: true }),
  "calendar-id": CALENDAR_ID_PARAM,
};

/** The values of `+rsvp`. */
export type RsvpValues = ValuesOf<typeof PARAMS>;

/**
 * The reply request. Answering the same twice has the effect of once, so it may be retried.
 *
 * @param input the shortcut input
 */
export function replyRequest(input: ShortcutInput<RsvpValues>): ApiRequest {
  const { "calendar-id": calendarId, "event-id": eventId, status } = input.values;
  return {
    method: "POST",
    path: `${eventPath(calendarId, eventId)}/reply`,
    body: { rsvp_status: status },
    idempotencyKey: `rsvp-${eventId}-${status}`,
    scopes: [EVENT_REPLY],
  };
}

/** `calendar +rsvp`. */
export const rsvp = defineShortcut({
  service: "calendar",
  verb: "+rsvp",
  description: "Answer an invitation: accept, decline or tentative (an instance id answers for " +
    "that instance only)",
  examples: [
    "hark calendar +rsvp --event-id 0b5f3e1c-94aa-4b8e-9c1d-2f8e0a7d6c31_0 --status accept",
    "hark calendar +rsvp --event-id 0b5f3e1c-94aa-4b8e-9c1d-2f8e0a7d6c31_1795435200 " +
    "--status decline",
  ],
  identities: ["user", "bot"],
  scopes: { user: [EVENT_REPLY], bot: [EVENT_REPLY] },
  effect: "write",
  idempotent: true,
  params: PARAMS,
  validate(input) {
    checkCalendarId(input);
    checkEventId(input);
  },
  requests: (input) => [replyRequest(input)],
  async run(input, client) {
    await client.request(replyRequest(input));
    return {
      calendar_id: input.values["calendar-id"],
      event_id: input.values["event-id"],
      rsvp_status: input.values.status,
    };
  },
  columns: [
    { header: "EVENT ID", value: "event_id", kind: "id", priority: 3 },
    { header: "RSVP", value: "rsvp_status", priority: 2 },
    { header: "CALENDAR ID", value: "calendar_id", kind: "id", priority: 1 },
  ],
});
