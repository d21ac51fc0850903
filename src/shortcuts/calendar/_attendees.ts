/**
 * The attendees of an event: reading `--attendees`, and the requests that invite them.
 *
 * @module
 */

import { singleLine, ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { objectsField, stringField } from "../../json/fields.ts";
import type { ApiCaller } from "../definition.ts";
import { MAX_ID_LENGTH } from "../contact/ids.ts";
import { EVENT_UPDATE, eventPath } from "./_event_api.ts";
import { hasSpaceControlOrFormat } from "../../text_classes.ts";

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
  const bad = (id: string) => hasSpaceControlOrFormat(id) || id.length > MAX_ID_LENGTH;
  if (ids.length === 0 || ids.some(bad)) {
    throw new ValidationError(`Invalid value ${JSON.stringify(text)} for ${flag}`, {
      param: flag,
      suggestion: "Give comma-separated ids or emails: people (ou_1 or ann@example.com), " +
        "chats (oc_1), meeting rooms (omm_1)",
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

/** The scope of looking people up by email (`contact.v3.user.batchGetId`, tenant token only). */
export const USER_ID_LOOKUP_SCOPE = "contact:user.id:readonly";

/** The most emails one `users/batch_get_id` request takes (lark-mcp 0.5.1: 50). */
export const EMAIL_BATCH = 50;

/** Whether an attendee was given by email rather than by open id. */
export function isEmail(id: string): boolean {
  return id.includes("@");
}

/**
 * The requests turning emails into open ids: `POST /open-apis/contact/v3/users/batch_get_id`,
 * at most {@link EMAIL_BATCH} each, with the app's tenant token (the only one Lark takes there).
 *
 * @param emails the emails
 */
export function emailLookupRequests(emails: readonly string[]): ApiRequest[] {
  const requests: ApiRequest[] = [];
  for (let i = 0; i < emails.length; i += EMAIL_BATCH) {
    requests.push({
      method: "POST",
      path: "/open-apis/contact/v3/users/batch_get_id",
      query: { user_id_type: "open_id" },
      body: { emails: emails.slice(i, i + EMAIL_BATCH) },
      identity: "bot",
      scopes: [USER_ID_LOOKUP_SCOPE],
    });
  }
  return requests;
}

/**
 * Turns the emails among the attendees into open ids, before anything is created: the order is
 * kept, and someone given twice (by id and by email) is invited once.
 *
 * @param client the API client
 * @param attendees open ids and emails, from {@link parseAttendees}
 * @param flag the flag they came from, for messages
 * @returns open ids only
 * @throws {ValidationError} naming the flag and every email no Lark user has
 */
export async function resolveAttendees(
  client: Pick<ApiCaller, "request">,
  attendees: readonly string[],
  flag = "--attendees",
): Promise<string[]> {
  const emails = attendees.filter(isEmail);
  if (emails.length === 0) return [...attendees];
  const found = new Map<string, string>();
  for (const request of emailLookupRequests(emails)) {
    for (const entry of objectsField(await client.request(request), "user_list")) {
      const email = stringField(entry, "email");
      const openId = stringField(entry, "user_id");
      if (email !== undefined && openId !== undefined && openId !== "") {
        found.set(email.toLowerCase(), openId);
      }
    }
  }
  const unknown = emails.filter((email) => !found.has(email.toLowerCase()));
  if (unknown.length > 0) {
    const list = unknown.map((email) => JSON.stringify(singleLine(email))).join(", ");
    throw new ValidationError(
      `No Lark user has the email${unknown.length > 1 ? "s" : ""} ${list} (${flag}); nothing ` +
        "was created",
      {
        param: flag,
        suggestion: "Check the address (a person's own email, not a group's), or give their " +
          "open id: hark contact +search-user --query <name>",
      },
    );
  }
  const ids = attendees.map((id) => isEmail(id) ? found.get(id.toLowerCase()) ?? id : id);
  return [...new Set(ids)];
}
