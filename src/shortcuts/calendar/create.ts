/**
 * `hark calendar +create`: create an event, then add its attendees; when adding them fails, the
 * event is deleted again so no half-made event is left behind.
 *
 * @module
 */

import { ApiError, EVENT_DELETED, ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import type { Column } from "../../output/mod.ts";
import { isObject, objectField, objectOf } from "../../json/fields.ts";
import { type ApiCaller, defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import {
  addAttendees,
  addAttendeesRequests,
  emailLookupRequests,
  inviteesOf,
  isEmail,
  resolveAttendees,
  USER_ID_LOOKUP_SCOPE,
} from "./_attendees.ts";
import { parseDuration, type TimeInput, toLarkEventTimes } from "../../time/mod.ts";
import { ATTENDEE_ABILITY_PARAM, checkCalendarId, TIMEZONE_PARAM } from "./_params.ts";
import { checkRrule } from "./_rrule.ts";
import { EVENT_CREATE, EVENT_DELETE, EVENT_UPDATE, eventsPath } from "./_event_api.ts";
import { eventJson, spanColumns } from "./_event_json.ts";
import { rollBack } from "./_roll_back.ts";
import { isCalendarName, resolveCalendarId } from "./_calendar_name.ts";
import { calendarsRequest } from "./calendars.ts";
import { type LarkEvent, larkEventOf } from "./_lark_event.ts";
import { hasSpaceOrControl } from "../../text_classes.ts";

/** The scope of the calendar list, read to find a calendar by its title. */
const CALENDAR_READ = "calendar:calendar:read";

/** What `+create` returns. */
export interface CreatedEvent {
  /**
   * The event as the service returned it; when its answer held none, the event as it was sent,
   * without an id (and `idUnknown` set).
   */
  event: LarkEvent;
  /** The attendees added, as the service returned them. */
  attendees: Record<string, unknown>[];
  /** Set when the service accepted the create but its answer held no event. */
  idUnknown?: true;
}

/**
 * Lark's `start_time` and `end_time` of `--start` and `--end` (or `--duration`): two dates make
 * an all-day event (Lark's end date is exclusive), otherwise a timed event in the user's zone.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--end` when it is not after `--start`, or `--duration` when
 *   given with `--end` or with a date-only `--start`
 */
export function eventTimes(
  input: ShortcutInput<
    { readonly start: TimeInput; readonly end?: TimeInput; readonly duration?: string }
  >,
) {
  const { start, end, duration } = input.values;
  if (duration !== undefined) {
    if (end !== undefined) {
      throw new ValidationError("Cannot use --end and --duration together: give one of them", {
        param: "--duration",
        suggestion: "Drop --duration to end at --end, or drop --end to last --duration",
      });
    }
    if (start.kind === "date") {
      throw new ValidationError(
        `Cannot use --duration with --start ${JSON.stringify(start.text)}: a day has no time to ` +
          "count from",
        {
          param: "--duration",
          suggestion: "Give --start with a time (such as 'tomorrow 3pm'), or --end for whole days",
        },
      );
    }
    const minutes = parseDuration(duration, { param: "--duration" });
    const until: TimeInput = {
      kind: "instant",
      epochMs: start.epochMs + minutes * 60_000,
      text: duration,
      param: "--duration",
    };
    return toLarkEventTimes(start, until, input.timeZone);
  }
  if (end === undefined) {
    throw new ValidationError("Missing required flag --end (or --duration)", {
      param: "--end",
      suggestion: "Pass --end, or --duration such as 30m or 1h30m",
    });
  }
  return toLarkEventTimes(start, end, input.timeZone);
}

const PARAMS = {
  summary: param.string({ description: "the title", required: true }),
  start: param.datetime({
    description: "when it starts; with a date-only --end too, an all-day event",
    required: true,
  }),
  end: param.datetime({
    description: "when it ends, after --start; a date includes that whole day",
    requiredUnless: ["duration"],
  }),
  duration: param.string({
    description: "how long it lasts, instead of --end: 30m, 1h, 1h30m",
    valueName: "<duration>",
  }),
  description: param.string({ description: "the details" }),
  location: param.string({ description: "the place's name", valueName: "<place>" }),
  attendees: param.string({
    description: "who to invite, comma-separated: people (ou_ or an email, looked up before " +
      "the event is created), chats (oc_: every member), meeting rooms (omm_)",
    valueName: "<ids>",
  }),
  room: param.string({
    description: "meeting rooms to book, comma-separated omm_ ids (see +room-find)",
    valueName: "<ids>",
  }),
  rrule: param.string({
    description: "repeat it: an RFC 5545 rule such as FREQ=WEEKLY;BYDAY=MO,WE or " +
      "FREQ=DAILY;COUNT=5",
    valueName: "<rule>",
  }),
  "attendee-ability": ATTENDEE_ABILITY_PARAM,
  "calendar-id": param.string({
    description: "the calendar: its id, or its title as +calendars shows it",
    default: "primary",
    valueName: "<id>",
  }),
  timezone: TIMEZONE_PARAM,
  "idempotency-key": param.string({
    description: "sent as idempotency_key; the same key creates the event once (default: a " +
      "new UUID)",
    valueName: "<key>",
  }),
};

/** The values of `+create`. */
export type CreateValues = ValuesOf<typeof PARAMS>;

/**
 * The event-creation request. `idempotency_key` makes a retried create return the first event.
 *
 * @param input the shortcut input
 * @param idempotencyKey `--idempotency-key`, a fresh UUID unless given
 */
export function createEventRequest(
  input: ShortcutInput<CreateValues>,
  idempotencyKey: string,
): ApiRequest {
  const { values } = input;
  const body: Record<string, unknown> = {
    summary: values.summary,
    ...eventTimes(input),
    attendee_ability: values["attendee-ability"],
  };
  if (values.description !== undefined) body.description = values.description;
  if (values.location !== undefined) body.location = { name: values.location };
  if (values.rrule !== undefined) body.recurrence = checkRrule(values.rrule);
  return {
    method: "POST",
    path: eventsPath(values["calendar-id"]),
    query: { idempotency_key: idempotencyKey },
    body,
    idempotencyKey,
    scopes: ["calendar:calendar.event:create"],
  };
}

function keyOf(input: ShortcutInput<CreateValues>): string {
  return input.values["idempotency-key"] ?? input.ctx.randomUUID();
}

/** `calendar +create`. */
export const create = defineShortcut({
  service: "calendar",
  verb: "+create",
  description:
    "Create an event and invite attendees (the event is removed again if inviting fails)",
  examples: [
    "hark calendar +create --summary 'Design review' --start '2026-11-25 14:00' " +
    "--end '2026-11-25 15:00'",
    "hark calendar +create --summary Retro --start 2026-11-27T10:00:00+01:00 " +
    "--end 2026-11-27T11:00:00+01:00 --attendees ou_1,ann@example.com --description 'Bring notes'",
    "hark calendar +create --summary Offsite --start 2026-12-01 --end 2026-12-02",
    "hark calendar +create --summary '1:1' --start 'tomorrow 3pm' --duration 30m " +
    "--location 'Room 4'",
    "hark calendar +create --summary Standup --start 'monday 9:30' --duration 15m " +
    "--rrule 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR' --attendees oc_team --room omm_4f",
  ],
  identities: ["user", "bot"],
  // Deleting is the rollback of an event whose attendees cannot be added.
  scopes: {
    user: [EVENT_CREATE, EVENT_UPDATE, EVENT_DELETE],
    bot: [EVENT_CREATE, EVENT_UPDATE, EVENT_DELETE],
    tenantCalls: {
      when: "--attendees with emails (looking up their open ids)",
      scopes: [USER_ID_LOOKUP_SCOPE],
    },
    // Naming --calendar-id by its title reads the calendar list.
    optional: { user: [CALENDAR_READ], bot: [CALENDAR_READ] },
  },
  effect: "write",
  idempotent: true,
  idempotencyKey: "idempotency-key",
  params: PARAMS,
  validate(input) {
    if (input.values.summary.trim() === "") {
      throw new ValidationError('Invalid value "" for --summary: expected a title', {
        param: "--summary",
      });
    }
    checkCalendarId(input);
    eventTimes(input);
    inviteesOf(input.values);
    if (input.values.rrule !== undefined) checkRrule(input.values.rrule);
    const key = input.values["idempotency-key"];
    if (typeof key === "string" && (key.trim() === "" || hasSpaceOrControl(key))) {
      throw new ValidationError(
        `Invalid value ${JSON.stringify(key)} for --idempotency-key: expected a key without ` +
          "spaces, such as a UUID",
        { param: "--idempotency-key" },
      );
    }
  },
  requests(input) {
    const given = inviteesOf(input.values);
    // Emails and a calendar's name are looked up first; the preview names what they stand for.
    const attendees = given.map((id) => isEmail(id) ? `{open_id of ${id}}` : id);
    const named = isCalendarName(input.values["calendar-id"]);
    const calendarId = named
      ? `{calendar_id of ${input.values["calendar-id"]}}`
      : input.values["calendar-id"];
    return [
      ...emailLookupRequests(given.filter(isEmail)),
      ...(named ? [calendarsRequest(undefined)] : []),
      createEventRequest(
        { ...input, values: { ...input.values, "calendar-id": calendarId } },
        keyOf(input),
      ),
      ...addAttendeesRequests(calendarId, "{event_id}", attendees),
    ];
  },
  async run(input, client): Promise<CreatedEvent> {
    // Before anything is created: an unknown email or calendar name stops the command with
    // nothing to undo.
    const attendees = await resolveAttendees(client, inviteesOf(input.values));
    const calendarId = await resolveCalendarId(client, input.values["calendar-id"]);
    return await createWithAttendees(
      client,
      calendarId,
      createEventRequest(
        { ...input, values: { ...input.values, "calendar-id": calendarId } },
        keyOf(input),
      ),
      attendees,
      input.ctx.timeout,
    );
  },
  output: (result, input) =>
    createdJson(
      result,
      input.timeZone,
      input.warn,
      `the command again with --idempotency-key ${keyOf(input)}`,
    ),
  columns: (input) => createdColumns(input.timeZone),
});

/**
 * Sends the event-creation request. A key whose event was deleted since (the sandbox answers
 * 193003, as for any call on that event) creates nothing: the error says to use a new key.
 */
async function createEvent(client: Pick<ApiCaller, "request">, request: ApiRequest) {
  try {
    return await client.request(request);
  } catch (error) {
    if (!(error instanceof ApiError) || error.apiCode !== EVENT_DELETED) throw error;
    throw error.withRecovery({
      suggestion: "The event this idempotency key created was deleted since, and the key " +
        "creates no other: run the command without --idempotency-key (or with a new one)",
      command: "",
    });
  }
}

/**
 * Creates an event, then adds its attendees; when adding them fails, deletes the event again
 * (without notifying anyone) and says so.
 *
 * @param client the API client
 * @param calendarId the calendar
 * @param request the event-creation request
 * @param attendees open ids
 * @param timeout the context's timer (the rollback's time limit runs on it)
 * @throws {ApiError} when adding the attendees fails, saying whether the rollback worked
 */
export async function createWithAttendees(
  client: Pick<ApiCaller, "request">,
  calendarId: string,
  request: ApiRequest,
  attendees: readonly string[],
  timeout: (ms: number) => AbortSignal,
): Promise<CreatedEvent> {
  const event = larkEventOf(objectField(await createEvent(client, request), "event"));
  if (event === undefined) {
    // The service accepted the create: it happened, whatever its answer holds.
    if (attendees.length === 0) {
      const sent = larkEventOf({ ...objectOf(request.body), event_id: "" }) ?? { event_id: "" };
      return { event: sent, attendees: [], idUnknown: true };
    }
    throw new ApiError(
      "The event was created (the service accepted it), but the service's answer holds no " +
        "event id, so its attendees were not invited",
      {
        type: "invalid_response",
        suggestion: "Run the command again with the same idempotency key: the service " +
          "returns the event it created, without a second one, and hark invites the attendees",
      },
    );
  }
  if (attendees.length === 0) return { event, attendees: [] };
  try {
    const added = await addAttendees(
      client,
      addAttendeesRequests(calendarId, event.event_id, attendees),
    );
    return { event, attendees: added };
  } catch (error) {
    throw await rollBack(client, calendarId, event.event_id, error, timeout);
  }
}

/**
 * A created event as hark's JSON shows it: the event with its attendees.
 *
 * @param result what {@link createWithAttendees} returned
 * @param timeZone the viewer's IANA zone
 * @param warn notes a warning, such as a time left out (`input.warn`)
 * @param again how to run the create again with the same idempotency key, for the warning when
 *   its id is unknown
 */
export function createdJson(
  result: CreatedEvent,
  timeZone: string,
  warn: (message: string) => void = () => {},
  again = "the same command again",
): Record<string, unknown> {
  const json: Record<string, unknown> = {
    ...eventJson(result.event, timeZone, warn),
    attendees: result.attendees,
  };
  if (result.idUnknown) {
    warn(
      "The event was created (the service accepted it), but the service's answer holds no " +
        `event, so its id is unknown; running ${again} returns it without creating a second one`,
    );
    delete json.event_id;
  }
  return json;
}

/**
 * The table columns of a created event.
 *
 * @param timeZone the viewer's IANA zone
 */
export function createdColumns(timeZone: string): Column<Record<string, unknown>>[] {
  return [
    { header: "EVENT ID", value: "event_id", kind: "id", priority: 5 },
    { header: "SUMMARY", value: "summary", priority: 3 },
    ...spanColumns(timeZone, { start: 4, end: 2 }),
    {
      header: "ATTENDEES",
      priority: 1,
      value: (row) =>
        (Array.isArray(row.attendees) ? row.attendees : []).filter(isObject).map((a) =>
          a.display_name ?? a.user_id
        ),
    },
  ];
}
