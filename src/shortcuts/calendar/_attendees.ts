/**
 * The attendees of an event: reading `--attendees`, and the requests that invite them.
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { objectsField } from "../../json/fields.ts";
import type { ApiCaller } from "../definition.ts";
import { MAX_ID_LENGTH } from "../contact/ids.ts";
import { EVENT_UPDATE, eventPath } from "./_event_api.ts";

/**
 * The most attendees one `attendees` create request takes (MCP server `calendar_v4` schema of
 * attendees.create: at most 1000 attendees, rooms included, per request).
 */
export const ATTENDEE_BATCH = 1000;

/**
 * One attendee as Lark's attendee create and batch_delete take it, by the id's kind (SDK types,
 * calendar.v4.calendarEventAttendee.create: `type` user, chat or resource): `oc_` is a chat
 * (every member is invited), `omm_` a meeting room, anything else a person's open id.
 *
 * @param id the id as given
 */
export function attendeeOf(id: string): Record<string, string> {
  if (id.startsWith("oc_")) return { type: "chat", chat_id: id };
  if (id.startsWith("omm_")) return { type: "resource", room_id: id };
  return { type: "user", user_id: id };
}

/**
 * The attendee ids of `--attendees`: comma-separated, blanks dropped, duplicates removed.
 *
 * @param text the flag's value
 * @param flag the flag, for the error
 * @throws {ValidationError} naming the flag when it holds no id
 */
export function parseAttendees(text: string | undefined, flag = "--attendees"): string[] {
  if (text === undefined) return [];
  const ids = [...new Set(text.split(",").map((s) => s.trim()).filter((s) => s !== ""))];
  // No white space, control or invisible format character (bidi controls would disguise an
  // id), and no id longer than Lark's.
  const bad = (id: string) => /[\s\p{Cc}\p{Cf}]/u.test(id) || id.length > MAX_ID_LENGTH;
  if (ids.length === 0 || ids.some(bad)) {
    throw new ValidationError(`Invalid value ${JSON.stringify(text)} for ${flag}`, {
      param: flag,
      suggestion: "Give comma-separated ids: people (ou_1), chats (oc_1), meeting rooms (omm_1)",
    });
  }
  return ids;
}

/**
 * Everyone `+create` invites: `--attendees` (people, chats, rooms) and `--room` (meeting rooms
 * only, `omm_` ids as `+room-find` lists them), without duplicates.
 *
 * @param values the shortcut's values
 * @throws {ValidationError} naming `--attendees`, or `--room` when it holds an id that is not a
 *   meeting room's
 */
export function inviteesOf(
  values: { readonly attendees?: string; readonly room?: string },
): string[] {
  const rooms = values.room === undefined ? [] : parseAttendees(values.room, "--room");
  const notRoom = rooms.find((id) => !id.startsWith("omm_"));
  if (notRoom !== undefined) {
    throw new ValidationError(
      `Invalid value ${JSON.stringify(notRoom)} for --room: expected a meeting room id (omm_…)`,
      {
        param: "--room",
        suggestion: "Find a free room's id with hark calendar +room-find",
        command: "hark calendar +room-find --slot '<start>~<end>'",
      },
    );
  }
  return [...new Set([...parseAttendees(values.attendees), ...rooms])];
}

/**
 * The requests adding attendees (open ids) to an event, at most {@link ATTENDEE_BATCH} each.
 * Adding someone already invited changes nothing, so each may be retried.
 *
 * @param calendarId the calendar
 * @param eventId the event, or the placeholder `{event_id}` in a preview
 * @param attendees open ids
 * @param notify whether Lark notifies them (`need_notification`); Lark's default when absent
 */
export function addAttendeesRequests(
  calendarId: string,
  eventId: string,
  attendees: readonly string[],
  notify?: boolean,
): ApiRequest[] {
  const requests: ApiRequest[] = [];
  for (let i = 0; i < attendees.length; i += ATTENDEE_BATCH) {
    const batch = attendees.slice(i, i + ATTENDEE_BATCH);
    requests.push({
      method: "POST",
      path: `${eventPath(calendarId, eventId)}/attendees`,
      query: { user_id_type: "open_id" },
      body: {
        attendees: batch.map(attendeeOf),
        ...(notify === undefined ? {} : { need_notification: notify }),
      },
      idempotencyKey: `attendees-${eventId}-${i}`,
      scopes: [EVENT_UPDATE],
    });
  }
  return requests;
}

/**
 * Adds attendees batch by batch.
 *
 * @param client the API client
 * @param requests from {@link addAttendeesRequests}
 * @returns every attendee the service returned
 */
export async function addAttendees(
  client: Pick<ApiCaller, "request">,
  requests: readonly ApiRequest[],
): Promise<Record<string, unknown>[]> {
  const added: Record<string, unknown>[] = [];
  for (const request of requests) {
    added.push(...objectsField(await client.request(request), "attendees"));
  }
  return added;
}
