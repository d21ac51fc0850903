/**
 * The event routes of the sandbox: create, get, patch, delete and reply to events (a one-off
 * event, a whole series, or one instance of it); attendees are in `_attendee_routes.ts`.
 *
 * Request bodies are checked against the SDK's request types (types/index.d.ts,
 * calendar.v4.calendarEvent.create / patch / reply): a field the type does not declare, or of the
 * wrong type, is 190002. Lark's own
 * handling of undeclared fields is not documented; the sandbox refuses them so a misspelt field
 * fails in tests instead of being dropped.
 *
 * Who may do what follows the SDK's method notes: the organizer (writer on the event's calendar)
 * may change and delete an event; an attendee may change only visibility, free_busy_status,
 * color and reminders, for themselves (calendar.v4.calendarEvent.patch), unless the event lets
 * attendees modify it. Refusals are 190002, whose documented meaning includes "no permission on
 * the resource".
 *
 * Scopes: lark-cli `internal/registry/meta_data.json` (d5d198a) per method; `reply` is not in
 * that catalogue: lark-cli's `+rsvp` shortcut declares `calendar:calendar.event:reply`
 * (`shortcuts/calendar/calendar_rsvp.go`), and the coarse `calendar:calendar` grants every other
 * event write there, so it is accepted too.
 *
 * @module
 */

import { parseRule, seriesOccurrence, timeToSeconds } from "./expand_event.ts";
import type { Attendee, CalendarEvent, EventTime } from "../core/seed_data.ts";
import { eventView } from "./_calendar_view.ts";
import { eventChanged } from "./_subscription_routes.ts";
import {
  booleanParam,
  both,
  calendarFor,
  checkedBody,
  EVENT_READ_SCOPES,
  EVENT_UPDATE_SCOPES,
  eventDeleted,
  eventFor,
  eventRequest,
  type Found,
  invalidParams,
  userIdTypeOf,
  visibleAttendees,
} from "./_calendar_common.ts";
import { type Incoming, larkOk, type SandboxContext } from "../core/context.ts";
import type { FieldSpec } from "../core/body_check.ts";
import type { Caller, Route, UserIdType } from "../core/route.ts";

const EVENTS = String.raw`^\/open-apis\/calendar\/v4\/calendars\/([^/]+)\/events`;
const EVENT = `${EVENTS}\\/([^/]+)`;

/** The event routes. */
export const EVENT_ROUTES: Route[] = [
  {
    method: "POST",
    pattern: new RegExp(`${EVENTS}$`),
    scopes: both(["calendar:calendar", "calendar:calendar.event:create"]),
    handle: createEvent,
  },
  {
    method: "GET",
    pattern: new RegExp(`${EVENT}$`),
    scopes: both(EVENT_READ_SCOPES),
    handle: getEvent,
  },
  {
    method: "PATCH",
    pattern: new RegExp(`${EVENT}$`),
    scopes: both(EVENT_UPDATE_SCOPES),
    handle: patchEvent,
  },
  {
    method: "DELETE",
    pattern: new RegExp(`${EVENT}$`),
    scopes: both([
      "calendar:calendar",
      "calendar:calendar.event:writeonly",
      "calendar:calendar.event:delete",
    ]),
    handle: deleteEvent,
  },
  {
    method: "POST",
    pattern: new RegExp(`${EVENT}\\/reply$`),
    scopes: both(["calendar:calendar", "calendar:calendar.event:reply"]),
    handle: reply,
  },
];

// ---- request types (types/index.d.ts, calendar.v4.calendarEvent.create / patch) ----

const TIME: FieldSpec = { object: { date: "string", timestamp: "string", timezone: "string" } };
const CHECK_IN_TIME: FieldSpec = {
  object: {
    time_type: { enum: ["before_event_start", "after_event_start", "after_event_end"] },
    duration: "integer",
  },
  required: ["time_type", "duration"],
};
const EVENT_FIELDS: Record<string, FieldSpec> = {
  summary: "string",
  description: "string",
  need_notification: "boolean",
  start_time: TIME,
  end_time: TIME,
  vchat: {
    object: {
      vc_type: {
        enum: ["vc", "third_party", "no_meeting", "lark_live", "unknown", "third_party_meeting"],
      },
      icon_type: { enum: ["vc", "live", "default"] },
      description: "string",
      meeting_url: "string",
      live_link: "string",
      vc_info: {
        object: { unique_id: "string", meeting_no: "string" },
        required: ["unique_id", "meeting_no"],
      },
      meeting_settings: {
        object: {
          owner_id: "string",
          join_meeting_permission: {
            enum: ["anyone_can_join", "only_organization_employees", "only_event_attendees"],
          },
          password: "string",
          assign_hosts: { array: "string" },
          auto_record: "boolean",
          open_lobby: "boolean",
          allow_attendees_start: "boolean",
        },
      },
      third_party_meeting_settings: {
        object: {
          meeting_type: "string",
          meeting_id: "string",
          meeting_no: "string",
          password: "string",
          meeting_descriptions: {
            array: { object: { lang: "string", description: "string" } },
          },
        },
      },
    },
  },
  visibility: { enum: ["default", "public", "private"] },
  attendee_ability: { enum: ["none", "can_see_others", "can_invite_others", "can_modify_event"] },
  free_busy_status: { enum: ["busy", "free"] },
  location: {
    object: { name: "string", address: "string", latitude: "number", longitude: "number" },
  },
  color: "integer",
  reminders: { array: { object: { minutes: "integer" } } },
  recurrence: "string",
  schemas: {
    array: {
      object: {
        ui_name: "string",
        ui_status: { enum: ["hide", "readonly", "editable", "unknown"] },
        app_link: "string",
      },
    },
  },
  attachments: { array: { object: { file_token: "string" } } },
  event_check_in: {
    object: {
      enable_check_in: "boolean",
      check_in_start_time: CHECK_IN_TIME,
      check_in_end_time: CHECK_IN_TIME,
      need_notify_attendees: "boolean",
    },
    required: ["enable_check_in"],
  },
  source: "string",
  description_rich: "string",
};
const CREATE_BODY: FieldSpec = { object: EVENT_FIELDS, required: ["start_time", "end_time"] };
const PATCH_BODY: FieldSpec = {
  object: {
    ...EVENT_FIELDS,
    attachments: { array: { object: { file_token: "string", is_deleted: "boolean" } } },
  },
};
/** Fields an attendee may change, for themselves only (calendar.v4.calendarEvent.patch). */
const PERSONAL_FIELDS = ["visibility", "free_busy_status", "color", "reminders"] as const;
/** Fields one instance of a series may change. */
const INSTANCE_FIELDS = ["summary", "description", "start_time", "end_time", "location"];

type Body = Record<string, unknown>;

function isZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return zone !== "";
  } catch {
    return false;
  }
}

/** An event time: exactly one of `timestamp` (Unix seconds) and `date`, and a valid zone. */
function readTime(value: Body, field: string): EventTime | string {
  const { date, timestamp, timezone } = value as {
    date?: string;
    timestamp?: string;
    timezone?: string;
  };
  if (timezone !== undefined && !isZone(timezone)) {
    return `${field}.timezone "${timezone}" is not an IANA time zone`;
  }
  const zone = timezone === undefined ? {} : { timezone };
  if (timestamp !== undefined && date !== undefined) {
    return `${field} takes a timestamp or a date, not both`;
  }
  if (timestamp !== undefined) {
    if (!/^\d{1,12}$/.test(timestamp)) return `${field}.timestamp must be Unix seconds`;
    return { timestamp, ...zone };
  }
  if (date !== undefined) {
    const ok = /^\d{4}-\d{2}-\d{2}$/.test(date) &&
      new Date(`${date}T00:00:00Z`).toISOString().startsWith(date);
    return ok ? { date, ...zone } : `${field}.date must be a YYYY-MM-DD date`;
  }
  return `${field} needs a timestamp (Unix seconds) or a date (YYYY-MM-DD)`;
}

/**
 * A start and end pair: both timed or both all-day, the end after the start (an all-day end date
 * is exclusive: lark-cli calendar_create.go subtracts a day to show it).
 */
function readSpan(body: Body): { start: EventTime; end: EventTime } | string {
  const start = readTime(body.start_time as Body, "start_time");
  if (typeof start === "string") return start;
  const end = readTime(body.end_time as Body, "end_time");
  if (typeof end === "string") return end;
  if (("date" in start) !== ("date" in end)) {
    return "start_time and end_time must both be timestamps or both be dates";
  }
  if (timeToSeconds(end) <= timeToSeconds(start)) {
    return "date" in start
      ? "end_time.date must be after start_time.date (the end date is exclusive)"
      : "end_time must be after start_time";
  }
  return { start, end };
}

function checkRecurrence(text: string): string | undefined {
  try {
    parseRule(text);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Copies the optional event fields of a body onto an event. */
function applyFields(event: Partial<CalendarEvent>, body: Body): void {
  const copy = [
    "visibility",
    "attendee_ability",
    "free_busy_status",
    "location",
    "vchat",
    "reminders",
    "color",
    "schemas",
    "event_check_in",
    "attachments",
    "source",
    "description_rich",
  ] as const;
  for (const key of copy) {
    if (body[key] !== undefined) (event as Record<string, unknown>)[key] = body[key];
  }
  // A patch marks attachments to drop with `is_deleted` (calendar.v4.calendarEvent.patch).
  if (Array.isArray(body.attachments)) {
    event.attachments = (body.attachments as { file_token?: string; is_deleted?: boolean }[])
      .filter((a) => a.is_deleted !== true)
      .map((a) => ({ file_token: a.file_token }));
  }
}

// ---- handlers ----

function viewerOf(
  ctx: SandboxContext,
  found: Found,
  caller: Caller,
  idType: UserIdType,
): { who: string; rsvp: string; idType: UserIdType } {
  return {
    who: caller.owner,
    rsvp: ctx.calendars.rsvpOf(found.event, caller.owner, found.occurrence),
    idType,
  };
}

function createEvent(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  [calendarId]: string[],
): Response {
  const found = calendarFor(ctx, caller, calendarId, "writer");
  if (found instanceof Response) return found;
  const idType = userIdTypeOf(incoming);
  if (idType instanceof Response) return idType;
  const body = checkedBody(incoming, CREATE_BODY);
  if (body instanceof Response) return body;
  const span = readSpan(body);
  if (typeof span === "string") return invalidParams(span);
  if (body.recurrence) {
    const bad = checkRecurrence(body.recurrence as string);
    if (bad) return invalidParams(bad);
  }
  const fields: Omit<CalendarEvent, "event_id" | "create_time"> = {
    summary: (body.summary as string | undefined) ?? "",
    description: (body.description as string | undefined) ?? "",
    start_time: span.start,
    end_time: span.end,
    status: "confirmed",
    // MCP server `calendar_v4` schema: free_busy_status defaults to busy, attendee_ability to
    // none, visibility to default.
    free_busy_status: "busy",
    self_rsvp_status: "accept",
    attendee_ability: "none",
    visibility: "default",
    recurrence: (body.recurrence as string | undefined) || undefined,
  };
  applyFields(fields, body);
  const key = incoming.url.searchParams.get("idempotency_key") || undefined;
  const event = ctx.calendars.create(found.calendar, caller.owner, fields, ctx.now(), key);
  // The key's event was deleted since: the key creates nothing new (unverified against Lark).
  if (event.deleted) return eventDeleted(event.event_id);
  eventChanged(ctx, found.calendar.calendar_id, event.event_id, "create");
  return larkOk({
    event: eventView(ctx, event, undefined, { who: caller.owner, rsvp: "accept", idType }),
  });
}

function getEvent(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  params: string[],
): Response {
  const request = eventRequest(ctx, incoming, caller, params, "reader");
  if (request instanceof Response) return request;
  const { found, idType } = request;
  const withAttendees = booleanParam(incoming, "need_attendee", false);
  if (withAttendees instanceof Response) return withAttendees;
  const meeting = booleanParam(incoming, "need_meeting_settings", false);
  if (meeting instanceof Response) return meeting;
  const maxText = incoming.url.searchParams.get("max_attendee_num") ?? "10";
  if (!/^\d+$/.test(maxText)) return invalidParams("max_attendee_num must be an integer");
  const attendees = withAttendees
    ? { list: visibleAttendees(found, caller), max: Number(maxText) }
    : undefined;
  return larkOk({
    event: eventView(
      ctx,
      found.event,
      found.occurrence,
      viewerOf(ctx, found, caller, idType),
      attendees,
    ),
  });
}

/**
 * `PATCH …/events/{event_id}`. Lark's event has no `update_time` or version field
 * (types/index.d.ts, calendar.v4.calendarEvent.get and .patch: only `create_time`), so there is
 * nothing to bump: a client that must not overwrite a concurrent change compares the fields it
 * read with a fresh GET.
 */
function patchEvent(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  params: string[],
): Response {
  const request = eventRequest(ctx, incoming, caller, params, "writer");
  if (request instanceof Response) return request;
  const { found, idType } = request;
  const body = checkedBody(incoming, PATCH_BODY);
  if (body instanceof Response) return body;
  const given = Object.keys(body).filter((k) => k !== "need_notification");
  const { event, occurrence } = found;
  const attendee = ctx.calendars.attendeeOf(event, caller.owner);
  const editor = found.organizer || event.attendee_ability === "can_modify_event" && !!attendee;
  if (!editor) {
    const other = given.find((k) => !(PERSONAL_FIELDS as readonly string[]).includes(k));
    if (other || !attendee) {
      return invalidParams(
        `no permission: only the organizer may change "${other ?? given[0] ?? "the event"}"`,
      );
    }
    attendee.personal ??= {};
    for (const key of PERSONAL_FIELDS) {
      if (body[key] !== undefined) (attendee.personal as Record<string, unknown>)[key] = body[key];
    }
    return larkOk({
      event: eventView(ctx, event, occurrence, viewerOf(ctx, found, caller, idType)),
    });
  }
  // start_time and end_time take effect only together (lark-cli meta_data.json, events.patch
  // `start_time`: "需要与end_time同时有值才会生效"); the sandbox refuses one alone so the client
  // learns that Lark would ignore it.
  if ((body.start_time === undefined) !== (body.end_time === undefined)) {
    return invalidParams("start_time and end_time must be given together");
  }
  let span: { start: EventTime; end: EventTime } | undefined;
  if (body.start_time !== undefined) {
    const read = readSpan(body);
    if (typeof read === "string") return invalidParams(read);
    span = read;
  }
  // An empty string leaves summary, description and recurrence as they are (MCP server
  // `calendar_v4` schema of patch: "默认值：空，表示不更新该字段").
  const text = (key: string) =>
    typeof body[key] === "string" && body[key] !== "" ? body[key] as string : undefined;
  if (occurrence) {
    const other = given.find((k) => !INSTANCE_FIELDS.includes(k));
    if (other) return invalidParams(`"${other}" cannot be changed for one instance of a series`);
    const key = String(occurrence.originalStart);
    event.exceptions ??= {};
    const override = event.exceptions[key] ??= {};
    if (text("summary") !== undefined) override.summary = text("summary");
    if (text("description") !== undefined) override.description = text("description");
    if (span) {
      override.start_time = span.start;
      override.end_time = span.end;
    }
    if (body.location !== undefined) override.location = body.location as typeof override.location;
    const changed = seriesOccurrence(event, occurrence.originalStart!);
    return larkOk({
      event: eventView(ctx, event, changed, viewerOf(ctx, found, caller, idType)),
    });
  }
  if (text("recurrence") !== undefined) {
    const bad = checkRecurrence(text("recurrence")!);
    if (bad) return invalidParams(bad);
    event.recurrence = text("recurrence");
  }
  if (text("summary") !== undefined) event.summary = text("summary")!;
  if (text("description") !== undefined) event.description = text("description")!;
  if (span) {
    event.start_time = span.start;
    event.end_time = span.end;
  }
  applyFields(event, body);
  eventChanged(ctx, event.calendar_id, event.event_id, "update");
  return larkOk({ event: eventView(ctx, event, undefined, viewerOf(ctx, found, caller, idType)) });
}

function deleteEvent(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  [calendarId, eventId]: string[],
): Response {
  // The query parameter is the string "true" or "false" (types/index.d.ts).
  const notify = booleanParam(incoming, "need_notification", true);
  if (notify instanceof Response) return notify;
  const found = eventFor(ctx, caller, calendarId, eventId, "writer");
  if (found instanceof Response) return found;
  if (!found.organizer) {
    return invalidParams("no permission: only the organizer may delete the event");
  }
  if (found.occurrence) {
    const key = String(found.occurrence.originalStart);
    found.event.exceptions ??= {};
    (found.event.exceptions[key] ??= {}).status = "cancelled";
  } else {
    ctx.calendars.remove(found.event);
  }
  eventChanged(ctx, found.event.calendar_id, found.event.event_id, "delete");
  return larkOk({});
}

const REPLY_BODY: FieldSpec = {
  object: { rsvp_status: { enum: ["accept", "decline", "tentative"] } },
  required: ["rsvp_status"],
};

function reply(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  [calendarId, eventId]: string[],
): Response {
  const found = eventFor(ctx, caller, calendarId, eventId, "reader");
  if (found instanceof Response) return found;
  const body = checkedBody(incoming, REPLY_BODY);
  if (body instanceof Response) return body;
  const attendee = ctx.calendars.attendeeOf(found.event, caller.owner);
  if (!attendee || attendee.rsvp_status === "removed") {
    return invalidParams("the caller is not an attendee of the event");
  }
  const status = body.rsvp_status as Attendee["rsvp_status"];
  if (found.occurrence) {
    const key = String(found.occurrence.originalStart);
    found.event.exceptions ??= {};
    const override = found.event.exceptions[key] ??= {};
    (override.rsvp ??= {})[caller.owner] = status;
  } else {
    attendee.rsvp_status = status;
  }
  return larkOk({});
}
