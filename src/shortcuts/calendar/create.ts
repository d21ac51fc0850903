/**
 * `hark calendar +create`: create an event, then add its attendees; when adding them fails, the
 * event is deleted again so no half-made event is left behind.
 *
 * @module
 */

import { ApiError, HarkError, ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { type TimeInput, toLarkEventTimes } from "../../time/mod.ts";
import {
  type AgendaItem,
  CALENDAR_ID_PARAM,
  checkCalendarId,
  showEventSpan,
  TIMEZONE_PARAM,
} from "./agenda.ts";

/** How long the rollback of a half-made event may take. */
const ROLLBACK_TIMEOUT_MS = 15_000;

/** What `+create` returns. */
export interface CreatedEvent {
  /** The event as the service returned it. */
  event: AgendaItem;
  /** The attendees added, as the service returned them. */
  attendees: Record<string, unknown>[];
}

/**
 * The events path of a calendar.
 *
 * @param calendarId a calendar id or `primary`
 */
export function eventsPath(calendarId: string): string {
  return `/open-apis/calendar/v4/calendars/${encodeURIComponent(calendarId)}/events`;
}

/**
 * The attendee ids of `--attendees`: comma-separated, blanks dropped, duplicates removed.
 *
 * @param text the flag's value
 * @throws {ValidationError} naming `--attendees` when it holds no id
 */
export function parseAttendees(text: string | undefined): string[] {
  if (text === undefined) return [];
  const ids = [...new Set(text.split(",").map((s) => s.trim()).filter((s) => s !== ""))];
  if (ids.length === 0 || ids.some((id) => /[\s\p{Cc}]/u.test(id))) {
    throw new ValidationError(`Invalid value ${JSON.stringify(text)} for --attendees`, {
      param: "--attendees",
      suggestion: "Give comma-separated open ids, such as ou_1,ou_2",
    });
  }
  return ids;
}

/**
 * Lark's `start_time` and `end_time` of `--start` and `--end`: two dates make an all-day event
 * (Lark's end date is exclusive), otherwise a timed event in the user's zone.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--end` when it is not after `--start`
 */
export function eventTimes(input: ShortcutInput) {
  return toLarkEventTimes(
    input.values.start as TimeInput,
    input.values.end as TimeInput,
    input.timeZone,
  );
}

/**
 * The event-creation request. `idempotency_key` makes a retried create return the first event.
 *
 * @param input the shortcut input
 * @param idempotencyKey `--idempotency-key`, a fresh UUID unless given
 */
export function createEventRequest(input: ShortcutInput, idempotencyKey: string): ApiRequest {
  const { values } = input;
  const body: Record<string, unknown> = {
    summary: values.summary,
    ...eventTimes(input),
  };
  if (values.description !== undefined) body.description = values.description;
  return {
    method: "POST",
    path: eventsPath(values["calendar-id"] as string),
    query: { idempotency_key: idempotencyKey },
    body,
    idempotencyKey,
    scopes: ["calendar:calendar.event:create"],
  };
}

/**
 * The request adding attendees (open ids) to an event.
 *
 * @param calendarId the calendar
 * @param eventId the event, or the placeholder `{event_id}` in a preview
 * @param attendees open ids
 */
export function addAttendeesRequest(
  calendarId: string,
  eventId: string,
  attendees: string[],
): ApiRequest {
  const id = eventId === "{event_id}" ? eventId : encodeURIComponent(eventId);
  return {
    method: "POST",
    path: `${eventsPath(calendarId)}/${id}/attendees`,
    query: { user_id_type: "open_id" },
    body: { attendees: attendees.map((userId) => ({ type: "user", user_id: userId })) },
    scopes: ["calendar:calendar.event:update"],
  };
}

function keyOf(input: ShortcutInput): string {
  return (input.values["idempotency-key"] as string | undefined) ?? input.ctx.randomUUID();
}

/** `calendar +create`. */
export const create = defineShortcut<CreatedEvent>({
  service: "calendar",
  verb: "+create",
  description:
    "Create an event and invite attendees (the event is removed again if inviting fails)",
  examples: [
    "hark calendar +create --summary 'Design review' --start '2026-11-25 14:00' " +
    "--end '2026-11-25 15:00'",
    "hark calendar +create --summary Retro --start 2026-11-27T10:00:00+01:00 " +
    "--end 2026-11-27T11:00:00+01:00 --attendees ou_1,ou_2 --description 'Bring notes'",
  ],
  identities: ["user", "bot"],
  // Deleting is the rollback of an event whose attendees cannot be added.
  scopes: {
    user: [
      "calendar:calendar.event:create",
      "calendar:calendar.event:update",
      "calendar:calendar.event:delete",
    ],
    bot: [
      "calendar:calendar.event:create",
      "calendar:calendar.event:update",
      "calendar:calendar.event:delete",
    ],
  },
  effect: "write",
  idempotent: true,
  idempotencyKey: "idempotency-key",
  params: [
    { name: "summary", type: "string", description: "the title", required: true },
    {
      name: "start",
      type: "datetime",
      description: "when it starts; with a date-only --end too, an all-day event",
      required: true,
    },
    {
      name: "end",
      type: "datetime",
      description: "when it ends, after --start; a date includes that whole day",
      required: true,
    },
    { name: "description", type: "string", description: "the details" },
    {
      name: "attendees",
      type: "string",
      description: "open ids of the people to invite, comma-separated",
      valueName: "<ids>",
    },
    CALENDAR_ID_PARAM,
    TIMEZONE_PARAM,
    {
      name: "idempotency-key",
      type: "string",
      description: "sent as idempotency_key; the same key creates the event once (default: a " +
        "new UUID)",
      valueName: "<key>",
    },
  ],
  validate(input) {
    if ((input.values.summary as string).trim() === "") {
      throw new ValidationError('Invalid value "" for --summary: expected a title', {
        param: "--summary",
      });
    }
    checkCalendarId(input);
    eventTimes(input);
    parseAttendees(input.values.attendees as string | undefined);
    const key = input.values["idempotency-key"];
    if (typeof key === "string" && (key.trim() === "" || /[\s\p{Cc}]/u.test(key))) {
      throw new ValidationError(
        `Invalid value ${JSON.stringify(key)} for --idempotency-key: expected a key without ` +
          "spaces, such as a UUID",
        { param: "--idempotency-key" },
      );
    }
  },
  requests(input) {
    const attendees = parseAttendees(input.values.attendees as string | undefined);
    const requests = [createEventRequest(input, keyOf(input))];
    if (attendees.length > 0) {
      requests.push(
        addAttendeesRequest(input.values["calendar-id"] as string, "{event_id}", attendees),
      );
    }
    return requests;
  },
  async run(input, client) {
    const calendarId = input.values["calendar-id"] as string;
    const attendees = parseAttendees(input.values.attendees as string | undefined);
    const created = await client.request<{ event: AgendaItem }>(
      createEventRequest(input, keyOf(input)),
    );
    const event = created.event;
    if (attendees.length === 0) return { event, attendees: [] };
    try {
      const added = await client.request<{ attendees?: Record<string, unknown>[] }>(
        addAttendeesRequest(calendarId, event.event_id, attendees),
      );
      return { event, attendees: added?.attendees ?? [] };
    } catch (error) {
      throw await rollBack(client, calendarId, event.event_id, error);
    }
  },
  output: (result) => ({ ...result.event, attendees: result.attendees }),
  columns: (input) => [
    { header: "EVENT ID", value: "event_id", kind: "id", priority: 5 },
    { header: "SUMMARY", value: "summary", priority: 3 },
    {
      header: "START",
      value: (row) => showEventSpan(row, input.timeZone).start,
      kind: "time",
      priority: 4,
    },
    {
      header: "END",
      value: (row) => showEventSpan(row, input.timeZone).end,
      kind: "time",
      priority: 2,
    },
    {
      header: "ATTENDEES",
      priority: 1,
      value: (row) =>
        (row.attendees as Record<string, unknown>[]).map((a) => a.display_name ?? a.user_id),
    },
  ],
});

async function rollBack(
  client: { request(r: ApiRequest): Promise<unknown> },
  calendarId: string,
  eventId: string,
  error: unknown,
): Promise<HarkError> {
  const reason = error instanceof Error ? error.message : String(error);
  const options = (recovery: string) => ({
    ...(error instanceof ApiError
      ? { apiCode: error.apiCode, httpStatus: error.httpStatus, requestId: error.requestId }
      : {}),
    code: error instanceof HarkError ? error.code : undefined,
    type: error instanceof HarkError ? error.type : undefined,
    suggestion: recovery,
    command: error instanceof HarkError ? error.recovery.command : undefined,
    cause: error,
  });
  try {
    // Runs even when Ctrl-C caused the failure: leaving half an event behind is worse.
    await client.request({
      method: "DELETE",
      path: `${eventsPath(calendarId)}/${encodeURIComponent(eventId)}`,
      scopes: ["calendar:calendar.event:delete"],
      cleanup: true,
      signal: AbortSignal.timeout(ROLLBACK_TIMEOUT_MS),
    });
  } catch (deleteError) {
    return new ApiError(
      `Cannot add the attendees: ${reason}; deleting event "${eventId}" failed too, so it ` +
        `remains in calendar "${calendarId}"`,
      {
        ...options(`Delete event "${eventId}" by hand, or add the attendees to it`),
        cause: new AggregateError([error, deleteError], "Adding attendees and rollback failed"),
      },
    );
  }
  return new ApiError(
    `Cannot add the attendees: ${reason}; event "${eventId}" was deleted again (rolled back)`,
    options("Check the attendee ids and run the command again"),
  );
}
