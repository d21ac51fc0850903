/**
 * Meeting rooms in the sandbox: the seeded rooms, when each is taken (events that have it as a
 * `resource` attendee), and the two server-side searches built on free/busy:
 * `POST /open-apis/calendar/v4/freebusy/room_find` (rooms free for a slot) and
 * `POST /open-apis/calendar/v4/freebusy/suggestion` (times the attendees are free).
 *
 * Neither is in the official Node SDK 1.74.0; their fields follow lark-cli
 * (`shortcuts/calendar/calendar_room_find.go`, `calendar_suggestion.go`): request
 * `event_start_time` / `event_end_time` (RFC 3339), `city`, `building`, `floor`, `room_name`,
 * `min_capacity`, `max_capacity`, `attendee_user_ids`, `attendee_chat_ids`, `event_rrule`,
 * `timezone`, answer `available_rooms[]` {`room_id`, `room_name`, `capacity`,
 * `reserve_until_time`}; and `search_start_time`, `search_end_time`, `duration_minutes`,
 * `excluded_event_times[]`, answer `suggestions[]` {`event_start_time`, `event_end_time`,
 * `recommend_reason`}. Scopes: `calendar:calendar.free_busy:read` (lark-cli), for user and bot.
 *
 * @module
 */

import { type Incoming, larkOk, type SandboxContext } from "../core/context.ts";
import type { FieldSpec } from "../core/body_check.ts";
import type { Route } from "../core/route.ts";
import { both, checkedBody, invalidParams, userById } from "./_calendar_common.ts";
import { busyOf, FREEBUSY_SCOPES, RFC3339 } from "./calendar_routes.ts";
import { occurrencesOf, parseRule, timeToSeconds } from "./expand_event.ts";
import { SEED_ROOMS } from "./seed_rooms.ts";

const ROOM_FIND_BODY: FieldSpec = {
  object: {
    city: "string",
    building: "string",
    floor: "string",
    room_name: "string",
    min_capacity: "integer",
    max_capacity: "integer",
    event_start_time: "string",
    event_end_time: "string",
    attendee_user_ids: { array: "string" },
    attendee_chat_ids: { array: "string" },
    event_rrule: "string",
    timezone: "string",
  },
  required: ["event_start_time", "event_end_time"],
};

const EVENT_TIME: FieldSpec = {
  object: { event_start_time: "string", event_end_time: "string", recommend_reason: "string" },
  required: ["event_start_time", "event_end_time"],
};

const SUGGESTION_BODY: FieldSpec = {
  object: {
    search_start_time: "string",
    search_end_time: "string",
    timezone: "string",
    event_rrule: "string",
    duration_minutes: "integer",
    attendee_user_ids: { array: "string" },
    attendee_chat_ids: { array: "string" },
    excluded_event_times: { array: EVENT_TIME },
  },
  required: ["search_start_time", "search_end_time"],
};

type Window = { from: number; to: number };

/** Two RFC 3339 times as Unix seconds, the second after the first, or 190002. */
function windowOf(start: unknown, end: unknown, names: string): Window | Response {
  const parse = (v: unknown) =>
    typeof v === "string" && RFC3339.test(v) ? Date.parse(v) / 1000 : NaN;
  const from = parse(start);
  const to = parse(end);
  if (Number.isNaN(from) || Number.isNaN(to)) {
    return invalidParams(`${names} must be RFC 3339 date-times`);
  }
  if (to <= from) return invalidParams(`${names}: the end must be after the start`);
  return { from, to };
}

/** The optional rule and zone of a search, or 190002. */
function checkRuleAndZone(body: Record<string, unknown>): Response | undefined {
  if (typeof body.event_rrule === "string" && body.event_rrule !== "") {
    try {
      parseRule(body.event_rrule);
    } catch (error) {
      return invalidParams(`event_rrule: ${error instanceof Error ? error.message : error}`);
    }
  }
  if (typeof body.timezone === "string" && body.timezone !== "") {
    try {
      new Intl.DateTimeFormat("en", { timeZone: body.timezone });
    } catch {
      return invalidParams(`timezone "${body.timezone}" is not an IANA time zone`);
    }
  }
  return undefined;
}

/** When a room is taken: every live occurrence of an event that has booked it. */
export function roomBusy(ctx: SandboxContext, roomId: string, window: Window): Window[] {
  const out: Window[] = [];
  for (const calendar of ctx.calendars.allCalendars()) {
    for (const event of ctx.calendars.eventsIn(calendar)) {
      const booked = event.attendees?.some((a) =>
        a.type === "resource" && a.room_id === roomId && a.rsvp_status !== "removed"
      );
      if (!booked || event.status === "cancelled") continue;
      for (const o of occurrencesOf(event, window.from, window.to)) {
        out.push({ from: timeToSeconds(o.start_time), to: timeToSeconds(o.end_time) });
      }
    }
  }
  return out;
}

/** The open ids of the attendees a search names (chats stand for their members), or 190002. */
function attendeesOf(ctx: SandboxContext, body: Record<string, unknown>): string[] | Response {
  const ids = new Set<string>();
  for (const id of (body.attendee_user_ids ?? []) as string[]) {
    const user = userById(ctx, id, "open_id");
    if (!user) return invalidParams(`attendee_user_ids: user "${id}" not found`);
    ids.add(user.open_id);
  }
  for (const id of (body.attendee_chat_ids ?? []) as string[]) {
    const chat = ctx.chats.find((c) => c.chat_id === id);
    if (!chat) return invalidParams(`attendee_chat_ids: chat "${id}" not found`);
    chat.member_open_ids.forEach((m) => ids.add(m));
  }
  return [...ids];
}

/** The checked body of a search, its window, rule and zone, or 190002. */
function searchBody(
  incoming: Incoming,
  spec: FieldSpec,
  startKey: string,
  endKey: string,
): { body: Record<string, unknown>; window: Window } | Response {
  const body = checkedBody(incoming, spec);
  if (body instanceof Response) return body;
  const window = windowOf(body[startKey], body[endKey], `${startKey} and ${endKey}`);
  if (window instanceof Response) return window;
  return checkRuleAndZone(body) ?? { body, window };
}

const overlaps = (a: Window, b: Window) => a.from < b.to && b.from < a.to;

function roomFind(ctx: SandboxContext, incoming: Incoming): Response {
  const read = searchBody(incoming, ROOM_FIND_BODY, "event_start_time", "event_end_time");
  if (read instanceof Response) return read;
  const { body, window: slot } = read;
  const min = Number(body.min_capacity ?? 0);
  const max = Number(body.max_capacity ?? 0);
  if (min < 0 || max < 0) {
    return invalidParams("min_capacity and max_capacity must not be negative");
  }
  if (max > 0 && min > max) return invalidParams("min_capacity must not exceed max_capacity");
  const people = attendeesOf(ctx, body);
  if (people instanceof Response) return people;
  const text = (key: string) =>
    typeof body[key] === "string" ? String(body[key]).toLowerCase() : "";
  const rooms = SEED_ROOMS.filter((room) =>
    (!text("city") || room.city.toLowerCase() === text("city")) &&
    (!text("building") || room.building.toLowerCase() === text("building")) &&
    (!text("floor") || room.floor.toLowerCase() === text("floor")) &&
    (!text("room_name") || room.name.toLowerCase().includes(text("room_name"))) &&
    room.capacity >= Math.max(min, people.length) && (max === 0 || room.capacity <= max) &&
    !roomBusy(ctx, room.room_id, slot).some((b) => overlaps(b, slot))
  );
  return larkOk({
    available_rooms: rooms.map((room) => ({
      room_id: room.room_id,
      room_name: room.name,
      capacity: room.capacity,
    })),
  });
}

const MAX_SUGGESTIONS = 5;
const STEP = 30 * 60;

function suggestion(ctx: SandboxContext, incoming: Incoming): Response {
  const read = searchBody(incoming, SUGGESTION_BODY, "search_start_time", "search_end_time");
  if (read instanceof Response) return read;
  const { body, window: search } = read;
  const minutes = Number(body.duration_minutes ?? 30);
  if (minutes < 1 || minutes > 1440) return invalidParams("duration_minutes must be 1 to 1440");
  const people = attendeesOf(ctx, body);
  if (people instanceof Response) return people;
  const busy: Window[] = [];
  for (const openId of people) {
    const fb = { ...search, onlyBusy: true, withRsvp: false };
    for (const item of busyOf(ctx, openId, fb)) {
      busy.push({
        from: Date.parse(String(item.start_time)) / 1000,
        to: Date.parse(String(item.end_time)) / 1000,
      });
    }
  }
  for (const raw of (body.excluded_event_times ?? []) as Record<string, unknown>[]) {
    const w = windowOf(raw.event_start_time, raw.event_end_time, "excluded_event_times");
    if (w instanceof Response) return w;
    busy.push(w);
  }
  const suggestions: Record<string, string>[] = [];
  const first = Math.ceil(search.from / STEP) * STEP;
  for (let at = first; at + minutes * 60 <= search.to; at += STEP) {
    const slot = { from: at, to: at + minutes * 60 };
    if (busy.some((b) => overlaps(b, slot))) continue;
    suggestions.push({
      event_start_time: new Date(slot.from * 1000).toISOString().replace(/\.\d{3}Z$/, "Z"),
      event_end_time: new Date(slot.to * 1000).toISOString().replace(/\.\d{3}Z$/, "Z"),
      recommend_reason: people.length === 0
        ? "No attendee is busy then"
        : `All ${people.length} attendees are free`,
    });
    if (suggestions.length === MAX_SUGGESTIONS) break;
    at = Math.ceil(slot.to / STEP) * STEP - STEP;
  }
  return larkOk({ suggestions });
}

/** The room and suggestion routes. */
export const ROOM_ROUTES: Route[] = [
  {
    method: "POST",
    pattern: /^\/open-apis\/calendar\/v4\/freebusy\/room_find$/,
    scopes: both(FREEBUSY_SCOPES),
    handle: roomFind,
  },
  {
    method: "POST",
    pattern: /^\/open-apis\/calendar\/v4\/freebusy\/suggestion$/,
    scopes: both(FREEBUSY_SCOPES),
    handle: suggestion,
  },
];
