/**
 * `hark calendar +update`: change an event. Only the fields given are sent. The event is read
 * first: the result (and the terminal view) shows each change as before → after.
 *
 * Concurrent changes: Lark's event has no version or update time (calendar.v4.calendarEvent in
 * the SDK's types/index.d.ts has only `create_time`), so hark compares what it read with a
 * second read just before writing; if someone changed the event in between, it stops without
 * writing and prints the command that retries on the new state. Retries of the write itself are
 * safe: the patch sets the same values again, attendees already added or removed are skipped.
 *
 * @module
 */

import { ApiError, singleLine, ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { isObject, objectField, objectsField, stringField } from "../../json/fields.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { type LarkEventTime, type TimeInput, toLarkEventTimes } from "../../time/mod.ts";
import {
  ALL_INSTANCES_PARAM,
  CALENDAR_ID_PARAM,
  checkCalendarId,
  checkEventId,
  EVENT_ID_PARAM,
  NOTIFY_PARAMS,
  notifyOf,
  type NotifyValues,
  TIMEZONE_PARAM,
} from "./_params.ts";
import { addAttendees, addAttendeesRequests, attendeeOf, parseAttendees } from "./_attendees.ts";
import {
  EVENT_READ,
  EVENT_UPDATE,
  eventKind,
  eventPath,
  getEventRequest,
  guardSeries,
  listAttendeesRequest,
  readAttendees,
  readEvent,
  retryCommand,
  touched,
} from "./_event_api.ts";
import { eventJson } from "./_event_json.ts";
import { type LarkEvent, larkEventOf } from "./_lark_event.ts";
import { drawChanges, drawPlannedChanges } from "./update_view.ts";
import { movedTimes, oneTimeOf, previewMovedTimes } from "./_moved_times.ts";

/** At most this many attendees per `batch_delete` (MCP server `calendar_v4` schema: 500). */
export const REMOVE_BATCH = 500;

/** The fields whose change between hark's two reads means someone else changed the event. */
const WATCHED = [
  "summary",
  "description",
  "start_time",
  "end_time",
  "location",
  "recurrence",
  "status",
] as const;

/** One change: the field (hark's JSON name) and its value before and after. */
export interface Change {
  /** `summary`, `description`, `start_time`, `end_time`, `location`. */
  field: string;
  /** The value read. */
  before: unknown;
  /** The value sent. */
  after: unknown;
}

/** What `+update` returns. */
export interface UpdateResult {
  /** The event as read first. */
  before: LarkEvent;
  /** The event after the change. */
  after: LarkEvent;
  /** The fields changed. */
  changes: Change[];
  /** Open ids invited. */
  added: string[];
  /** Open ids removed. */
  removed: string[];
}

const PARAMS = {
  "event-id": EVENT_ID_PARAM,
  summary: param.string({ description: "the new title" }),
  description: param.string({ description: "the new details" }),
  start: param.datetime({
    description: "the new start; alone, the event moves and keeps its length (with a date-only " +
      "--end, two dates make an all-day event)",
  }),
  end: param.datetime({ description: "the new end; alone, the start stays" }),
  location: param.string({ description: "the new place's name" }),
  "add-attendees": param.string({
    description: "ids to invite, comma-separated: people (ou_), chats (oc_), meeting rooms (omm_)",
    valueName: "<ids>",
  }),
  "remove-attendees": param.string({
    description: "ids to remove, comma-separated: people (ou_), chats (oc_), meeting rooms (omm_)",
    valueName: "<ids>",
  }),
  ...NOTIFY_PARAMS,
  "all-instances": ALL_INSTANCES_PARAM,
  "calendar-id": CALENDAR_ID_PARAM,
  timezone: TIMEZONE_PARAM,
};

/** The values of `+update`. */
export type UpdateValues = ValuesOf<typeof PARAMS>;

/** The values {@link patchBody} reads: the fields to change, and whether to notify. */
export interface PatchValues extends NotifyValues {
  /** `--summary`. */
  readonly summary?: string;
  /** `--description`. */
  readonly description?: string;
  /** `--location`. */
  readonly location?: string;
  /** `--start`. */
  readonly start?: TimeInput;
  /** `--end`. */
  readonly end?: TimeInput;
}

/** The body of the patch: only the fields given. */
export interface PatchBody {
  /** The new title. */
  summary?: string;
  /** The new details. */
  description?: string;
  /** The new place. */
  location?: { name: string };
  /** The new start. */
  start_time?: LarkEventTime;
  /** The new end. */
  end_time?: LarkEventTime;
  /** Whether Lark tells the attendees. */
  need_notification?: boolean;
}

/**
 * The patch body: only the fields given.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--end` when it is not after `--start`
 */
export function patchBody(input: ShortcutInput<PatchValues>): PatchBody {
  const { values } = input;
  const body: PatchBody = {};
  if (values.summary !== undefined) body.summary = values.summary;
  if (values.description !== undefined) body.description = values.description;
  if (values.location !== undefined) body.location = { name: values.location };
  const { start, end } = values;
  // Only one of them: the other is worked out from the event once it is read (movedTimes).
  if (start !== undefined && end !== undefined) {
    Object.assign(body, toLarkEventTimes(start, end, input.timeZone));
  }
  const notify = notifyOf(input);
  const changing = Object.keys(body).length > 0 || oneTimeOf(values) !== undefined;
  if (notify !== undefined && changing) body.need_notification = notify;
  return body;
}

/**
 * The attendees to add and to remove, as given.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming the flag of a malformed list, or `--remove-attendees` when
 *   someone is in both
 */
export function attendeeChanges(
  input: ShortcutInput<{ readonly "add-attendees"?: string; readonly "remove-attendees"?: string }>,
): { add: string[]; remove: string[] } {
  const read = (flag: "add-attendees" | "remove-attendees") => {
    try {
      return parseAttendees(input.values[flag]);
    } catch {
      throw new ValidationError(
        `Invalid value ${JSON.stringify(input.values[flag])} for --${flag}`,
        { param: `--${flag}`, suggestion: "Give comma-separated open ids, such as ou_1,ou_2" },
      );
    }
  };
  const add = read("add-attendees");
  const remove = read("remove-attendees");
  const both = add.find((id) => remove.includes(id));
  if (both) {
    throw new ValidationError(
      `Cannot both add and remove "${both}": it is in --add-attendees and --remove-attendees`,
      { param: "--remove-attendees" },
    );
  }
  return { add, remove };
}

function removeRequests(
  calendarId: string,
  eventId: string,
  ids: string[],
  notify: boolean | undefined,
): ApiRequest[] {
  const requests: ApiRequest[] = [];
  for (let i = 0; i < ids.length; i += REMOVE_BATCH) {
    requests.push({
      method: "POST",
      path: `${eventPath(calendarId, eventId)}/attendees/batch_delete`,
      query: { user_id_type: "open_id" },
      body: {
        delete_ids: ids.slice(i, i + REMOVE_BATCH).map(attendeeOf),
        // Lark notifies the removed people unless told not to (its default is true).
        ...(notify === undefined ? {} : { need_notification: notify }),
      },
      scopes: [EVENT_UPDATE],
    });
  }
  return requests;
}

function patchRequest(input: ShortcutInput<UpdateValues>, body: PatchBody): ApiRequest {
  const { "calendar-id": calendarId, "event-id": eventId } = input.values;
  return {
    method: "PATCH",
    path: eventPath(calendarId, eventId),
    query: { user_id_type: "open_id" },
    body,
    // The same patch twice sets the same values: safe to retry after a lost answer.
    idempotencyKey: `patch-${eventId}`,
    scopes: [EVENT_UPDATE],
  };
}

function watched(event: LarkEvent): string {
  const pick = (key: string) => {
    const value = event[key];
    return value === "" ? undefined : value;
  };
  return JSON.stringify(WATCHED.map((key) => {
    const value = pick(key);
    // Lark may add the zone to a time it returns; the moment is what matters.
    if (key.endsWith("_time") && isObject(value)) return [value.timestamp, value.date];
    return value;
  }));
}

/**
 * The changes a patch makes, in hark's JSON shape: fields whose value differs.
 *
 * @param before the event read
 * @param body the patch body
 * @param timeZone the viewer's zone
 */
export function changesOf(
  before: LarkEvent,
  body: PatchBody,
  timeZone: string,
): Change[] {
  const old = eventJson(before, timeZone);
  const changes: Change[] = [];
  for (const field of ["summary", "description"] as const) {
    if (body[field] !== undefined && body[field] !== (before[field] ?? "")) {
      changes.push({ field, before: before[field] ?? "", after: body[field] });
    }
  }
  if (body.start_time !== undefined) {
    const next = eventJson({
      event_id: before.event_id,
      start_time: body.start_time,
      end_time: body.end_time,
    }, timeZone);
    for (const field of ["start_time", "end_time"] as const) {
      if (next[field] !== old[field]) {
        changes.push({ field, before: old[field] ?? "", after: next[field] });
      }
    }
  }
  if (body.location !== undefined) {
    const name = stringField(before.location, "name") ?? "";
    const after = body.location.name;
    if (after !== name) changes.push({ field: "location", before: name, after });
  }
  return changes;
}

/** `calendar +update`. */
export const update = defineShortcut({
  service: "calendar",
  verb: "+update",
  description: "Change an event: only the fields given are sent; shows each change before → " +
    "after, and stops if the event changed meanwhile",
  examples: [
    "hark calendar +update --event-id 0b5f3e1c-94aa-4b8e-9c1d-2f8e0a7d6c31_0 --summary 'Design " +
    "review (moved)' --start '2026-11-25 15:00' --end '2026-11-25 16:00'",
    "hark calendar +update --event-id 0b5f3e1c-94aa-4b8e-9c1d-2f8e0a7d6c31_0 " +
    "--add-attendees ou_1,ou_2 --remove-attendees ou_3",
    "hark calendar +update --event-id 0b5f3e1c-94aa-4b8e-9c1d-2f8e0a7d6c31_1795435200 " +
    "--location 'Room 4'",
  ],
  identities: ["user", "bot"],
  scopes: { user: [EVENT_READ, EVENT_UPDATE], bot: [EVENT_READ, EVENT_UPDATE] },
  effect: "write",
  idempotent: true,
  // It can rewrite a whole recurring series and remove attendees.
  destructive: true,
  params: PARAMS,
  validate(input) {
    checkCalendarId(input);
    checkEventId(input);
    if (typeof input.values.summary === "string" && input.values.summary.trim() === "") {
      throw new ValidationError('Invalid value "" for --summary: expected a title', {
        param: "--summary",
      });
    }
    const body = patchBody(input);
    const { add, remove } = attendeeChanges(input);
    const nothing = Object.keys(body).length === 0 && oneTimeOf(input.values) === undefined;
    if (nothing && add.length === 0 && remove.length === 0) {
      throw new ValidationError("Nothing to change: give at least one field to change", {
        param: "--summary",
        suggestion: "Give --summary, --description, --start, --end, --location, " +
          "--add-attendees or --remove-attendees",
      });
    }
  },
  requests(input) {
    const { "calendar-id": calendarId, "event-id": eventId } = input.values;
    const one = oneTimeOf(input.values);
    const body = { ...patchBody(input), ...(one && previewMovedTimes(one, input.timeZone)) };
    const { add, remove } = attendeeChanges(input);
    const reads = [getEventRequest(calendarId, eventId)];
    if (add.length + remove.length > 0) reads.push(listAttendeesRequest(calendarId, eventId));
    return [
      ...reads,
      // Read again just before writing, to see a concurrent change.
      getEventRequest(calendarId, eventId),
      ...(Object.keys(body).length > 0 ? [patchRequest(input, body)] : []),
      ...addAttendeesRequests(calendarId, eventId, add, notifyOf(input)),
      ...removeRequests(calendarId, eventId, remove, notifyOf(input)),
    ];
  },
  async run(input, client): Promise<UpdateResult> {
    const { "calendar-id": calendarId, "event-id": eventId } = input.values;
    const body = patchBody(input);
    const wanted = attendeeChanges(input);
    const before = await readEvent(client, calendarId, eventId);
    guardSeries(input, before, "update");
    const one = oneTimeOf(input.values);
    if (one) Object.assign(body, movedTimes(before, one, input.timeZone));
    let added: string[] = [];
    let removed: string[] = [];
    if (wanted.add.length + wanted.remove.length > 0) {
      if (eventKind(before) === "instance") {
        throw new ValidationError(
          `Cannot change the attendees of one instance ("${eventId}"): attendees belong to the ` +
            `series "${singleLine(before.recurring_event_id ?? "")}"`,
          {
            param: "--event-id",
            suggestion: "Change them on the series, with --all-instances",
            command: retryCommand("+update", PARAMS, {
              ...input.values,
              "event-id": String(before.recurring_event_id),
              "all-instances": true,
            }),
          },
        );
      }
      const present = new Set(
        (await readAttendees(client, calendarId, eventId))
          .filter((a) => a.rsvp_status !== "removed")
          // People, chats and rooms by the id --add/--remove-attendees name them with.
          .map((a) =>
            String(a.type === "chat" ? a.chat_id : a.type === "resource" ? a.room_id : a.user_id)
          ),
      );
      added = wanted.add.filter((id) => !present.has(id));
      removed = wanted.remove.filter((id) => present.has(id));
    }
    const changes = changesOf(before, body, input.timeZone);
    const fresh = await readEvent(client, calendarId, eventId);
    if (watched(fresh) !== watched(before)) {
      throw new ApiError(
        `Cannot update event "${eventId}": it changed while hark was reading it ` +
          "(someone else edited it); nothing was written",
        {
          type: "conflict",
          suggestion: "Look at the event again, then run the same command to apply your change " +
            "to the new state",
          command: retryCommand("+update", PARAMS, input.values),
        },
      );
    }
    let after = fresh;
    if (Object.keys(body).length > 0) {
      const patched = await client.request(patchRequest(input, body));
      after = larkEventOf(objectField(patched, "event")) ?? fresh;
    }
    const notify = notifyOf(input);
    await addAttendees(client, addAttendeesRequests(calendarId, eventId, added, notify));
    for (const request of removeRequests(calendarId, eventId, removed, notify)) {
      await client.request(request);
    }
    return { before, after, changes, added, removed };
  },
  output: (result, input) => ({
    event_id: result.after.event_id ?? result.before.event_id,
    ...touched(result.before),
    changes: result.changes,
    attendees_added: result.added,
    attendees_removed: result.removed,
    event: eventJson(result.after, input.timeZone, input.warn),
  }),
  preview(input) {
    const body = patchBody(input);
    const { add, remove } = attendeeChanges(input);
    const moved = body.start_time === undefined ? undefined : eventJson({
      event_id: input.values["event-id"],
      start_time: body.start_time,
      end_time: body.end_time,
    }, input.timeZone);
    return drawPlannedChanges({
      eventId: input.values["event-id"],
      set: body,
      span: moved && { start_time: moved.start_time, end_time: moved.end_time },
      add,
      remove,
    }, input.timeZone);
  },
  render: (input) => (data) => drawChanges(data, input.timeZone),
  columns: [
    { header: "EVENT ID", value: "event_id", kind: "id", priority: 4 },
    {
      header: "CHANGED",
      value: (row) => objectsField(row, "changes").map((c) => c.field),
      priority: 3,
    },
    { header: "ADDED", value: "attendees_added", kind: "id", priority: 2 },
    { header: "REMOVED", value: "attendees_removed", kind: "id", priority: 1 },
  ],
});
