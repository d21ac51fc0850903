/**
 * The calendar routes of the sandbox: instance view, event create and delete, attendees and
 * free/busy.
 *
 * @module
 */

import { parseRule, timeToSeconds } from "./expand_event.ts";
import type { CalendarEvent, EventTime } from "./seed_data.ts";
import { findUser, type Incoming, larkError, larkOk, type SandboxContext } from "./_context.ts";
import { type Caller, jsonBody, type Route } from "./_route.ts";

const DAY = 86_400;
/** Longest span instance_view and freebusy accept. */
export const MAX_SPAN_SECONDS = 40 * DAY;
/** Most instances instance_view returns. */
export const MAX_INSTANCES = 1000;
/** Code for "invalid parameters" on calendar routes. */
export const CALENDAR_INVALID_PARAMS = 190002;

const READ = "calendar:calendar:readonly";
const WRITE = "calendar:calendar";
const read = { user: [READ, WRITE], bot: [READ, WRITE] };
const write = { user: [WRITE], bot: [WRITE] };

/** The calendar routes. */
export const CALENDAR_ROUTES: Route[] = [
  {
    method: "GET",
    pattern: /^\/open-apis\/calendar\/v4\/calendars\/([^/]+)\/events\/instance_view$/,
    scopes: read,
    handle: instanceView,
  },
  {
    method: "POST",
    pattern: /^\/open-apis\/calendar\/v4\/calendars\/([^/]+)\/events$/,
    scopes: write,
    handle: createEvent,
  },
  {
    method: "POST",
    pattern: /^\/open-apis\/calendar\/v4\/calendars\/([^/]+)\/events\/([^/]+)\/attendees$/,
    scopes: write,
    handle: addAttendees,
  },
  {
    method: "DELETE",
    pattern: /^\/open-apis\/calendar\/v4\/calendars\/([^/]+)\/events\/([^/]+)$/,
    scopes: write,
    handle: deleteEvent,
  },
  {
    method: "POST",
    pattern: /^\/open-apis\/calendar\/v4\/freebusy\/list$/,
    scopes: read,
    handle: freebusy,
  },
];

function calendarOwner(
  ctx: SandboxContext,
  calendarId: string,
  caller: Caller,
): string | Response {
  const owner = ctx.calendars.ownerOf(calendarId, caller.owner);
  if (owner === undefined) return larkError(191002, `calendar not found: "${calendarId}"`, 404);
  return owner;
}

function instanceView(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  [calendarId]: string[],
): Response {
  const owner = calendarOwner(ctx, calendarId, caller);
  if (owner instanceof Response) return owner;
  const q = incoming.url.searchParams;
  const start = q.get("start_time") ?? "";
  const end = q.get("end_time") ?? "";
  if (!/^\d+$/.test(start) || !/^\d+$/.test(end)) {
    return larkError(
      CALENDAR_INVALID_PARAMS,
      "invalid parameters in request: start_time and end_time must be Unix seconds",
    );
  }
  const from = Number(start);
  const to = Number(end);
  if (to <= from) {
    return larkError(
      CALENDAR_INVALID_PARAMS,
      "invalid parameters in request: end_time must be after start_time",
    );
  }
  if (to - from > MAX_SPAN_SECONDS) {
    return larkError(193103, "the time span of instance_view must not exceed 40 days");
  }
  const items = ctx.calendars.instances(owner, from, to);
  if (items.length > MAX_INSTANCES) {
    return larkError(
      193104,
      `too many instances (${items.length}) in the time span, the limit is ${MAX_INSTANCES}; ` +
        "narrow the time span",
    );
  }
  return larkOk({ items });
}

function readEventTime(value: unknown, field: string): EventTime | string {
  if (typeof value !== "object" || value === null) return `${field} is required`;
  const v = value as Record<string, unknown>;
  if (typeof v.timestamp === "string" && /^\d+$/.test(v.timestamp)) {
    return { timestamp: v.timestamp };
  }
  if (typeof v.date === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v.date)) return { date: v.date };
  return `${field} needs a timestamp (Unix seconds as a string) or a date (YYYY-MM-DD)`;
}

function createEvent(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  [calendarId]: string[],
): Response {
  const owner = calendarOwner(ctx, calendarId, caller);
  if (owner instanceof Response) return owner;
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  const invalid = (why: string) =>
    larkError(CALENDAR_INVALID_PARAMS, `invalid parameters in request: ${why}`);
  const start = readEventTime(body.start_time, "start_time");
  if (typeof start === "string") return invalid(start);
  const end = readEventTime(body.end_time, "end_time");
  if (typeof end === "string") return invalid(end);
  if (("date" in start) !== ("date" in end)) {
    return invalid("start_time and end_time must both be timestamps or both be dates");
  }
  if (timeToSeconds(end) <= timeToSeconds(start)) {
    return invalid("end_time must be after start_time");
  }
  for (const field of ["summary", "description", "recurrence"]) {
    if (body[field] !== undefined && typeof body[field] !== "string") {
      return invalid(`${field} must be a string`);
    }
  }
  if (body.recurrence) {
    try {
      parseRule(body.recurrence as string);
    } catch (error) {
      return invalid((error as Error).message);
    }
  }
  const key = incoming.url.searchParams.get("idempotency_key");
  const idempotencyKey = key ? `${owner}|${key}` : undefined;
  if (idempotencyKey) {
    const earlier = ctx.eventByIdempotencyKey.get(idempotencyKey);
    if (earlier) return larkOk({ event: eventView(ctx, owner, earlier) });
  }
  const freeBusy = body.free_busy_status === "free" ? "free" : "busy";
  const event = ctx.calendars.create(owner, {
    summary: (body.summary as string | undefined) ?? "",
    description: (body.description as string | undefined) ?? "",
    start_time: start,
    end_time: end,
    status: "confirmed",
    free_busy_status: freeBusy,
    self_rsvp_status: "accept",
    recurrence: (body.recurrence as string | undefined) || undefined,
  });
  if (idempotencyKey) ctx.eventByIdempotencyKey.set(idempotencyKey, event);
  return larkOk({ event: eventView(ctx, owner, event) });
}

function eventView(ctx: SandboxContext, owner: string, event: CalendarEvent) {
  return {
    event_id: event.event_id,
    organizer_calendar_id: ctx.calendars.calendarIdOf(owner),
    summary: event.summary,
    description: event.description,
    start_time: { ...event.start_time, timezone: "UTC" },
    end_time: { ...event.end_time, timezone: "UTC" },
    status: event.status,
    free_busy_status: event.free_busy_status,
    visibility: "default",
    recurrence: event.recurrence ?? "",
    create_time: event.create_time,
  };
}

function addAttendees(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  [calendarId, eventId]: string[],
): Response {
  const owner = calendarOwner(ctx, calendarId, caller);
  if (owner instanceof Response) return owner;
  const event = ctx.calendars.find(owner, eventId);
  if (!event) return larkError(193001, `event not found: "${eventId}"`, 404);
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  const idType = incoming.url.searchParams.get("user_id_type") ?? "open_id";
  const invalid = (why: string) =>
    larkError(CALENDAR_INVALID_PARAMS, `invalid parameters in request: ${why}`);
  if (!["open_id", "user_id", "union_id"].includes(idType)) {
    return invalid(`user_id_type "${idType}" is not supported`);
  }
  if (!Array.isArray(body.attendees) || body.attendees.length === 0) {
    return invalid("attendees must be a non-empty list");
  }
  const added: Record<string, unknown>[] = [];
  for (const raw of body.attendees as Record<string, unknown>[]) {
    const type = raw?.type;
    const attendeeId = `user_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;
    const common = {
      type,
      attendee_id: attendeeId,
      rsvp_status: "needs_action",
      is_optional: false,
    };
    if (type === "user") {
      const user = typeof raw.user_id === "string" ? findUser(ctx, raw.user_id, idType) : undefined;
      if (!user) {
        return invalid(`attendee user_id "${String(raw.user_id ?? "")}" (${idType}) not found`);
      }
      added.push({
        ...common,
        user_id: raw.user_id,
        display_name: user.name,
        is_organizer: false,
        is_external: false,
      });
    } else if (type === "chat") {
      const chat = ctx.chats.find((c) => c.chat_id === raw.chat_id);
      if (!chat) return invalid(`attendee chat_id "${String(raw.chat_id ?? "")}" not found`);
      added.push({ ...common, chat_id: chat.chat_id, display_name: chat.name });
    } else if (type === "third_party") {
      if (typeof raw.third_party_email !== "string" || !raw.third_party_email.includes("@")) {
        return invalid("third_party attendees need third_party_email");
      }
      added.push({ ...common, third_party_email: raw.third_party_email, is_external: true });
    } else {
      return invalid(`attendee type "${String(type ?? "")}" is not supported`);
    }
  }
  ctx.calendars.noteAttendees(event.event_id, added);
  return larkOk({ attendees: added });
}

function deleteEvent(
  ctx: SandboxContext,
  _incoming: Incoming,
  caller: Caller,
  [calendarId, eventId]: string[],
): Response {
  const owner = calendarOwner(ctx, calendarId, caller);
  if (owner instanceof Response) return owner;
  if (!ctx.calendars.remove(owner, eventId)) {
    return larkError(193001, `event not found: "${eventId}"`, 404);
  }
  return larkOk({});
}

function rfc3339(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function freebusy(ctx: SandboxContext, incoming: Incoming): Response {
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  const invalid = (why: string) =>
    larkError(CALENDAR_INVALID_PARAMS, `invalid parameters in request: ${why}`);
  const parse = (value: unknown) =>
    typeof value === "string" && /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
  const from = parse(body.time_min) / 1000;
  const to = parse(body.time_max) / 1000;
  if (Number.isNaN(from) || Number.isNaN(to)) {
    return invalid("time_min and time_max must be RFC 3339 times");
  }
  if (to <= from) return invalid("time_max must be after time_min");
  if (to - from > MAX_SPAN_SECONDS) {
    return larkError(193103, "the time span of freebusy must not exceed 40 days");
  }
  const idType = incoming.url.searchParams.get("user_id_type") ?? "open_id";
  if (typeof body.user_id !== "string" || body.user_id === "") {
    return invalid("user_id is required");
  }
  const user = findUser(ctx, body.user_id, idType);
  if (!user) return invalid(`user_id "${body.user_id}" (${idType}) not found`);
  const busy = ctx.calendars.instances(user.open_id, from, to).filter((i) =>
    i.status !== "cancelled" && i.free_busy_status === "busy" && i.self_rsvp_status !== "decline"
  );
  return larkOk({
    freebusy_list: busy.map((i) => ({
      start_time: rfc3339(timeToSeconds(i.start_time)),
      end_time: rfc3339(timeToSeconds(i.end_time)),
    })),
  });
}
