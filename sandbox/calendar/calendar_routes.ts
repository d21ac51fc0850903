/**
 * The calendar routes of the sandbox: calendars (list, get, primary), the instance view and
 * free/busy; events are in `_event_routes.ts`, attendees in `_attendee_routes.ts`.
 *
 * Scopes: each route accepts the scopes lark-cli's API catalogue lists for its method
 * (`internal/registry/meta_data.json` at commit d5d198a, `scopes`; any one grants access, and
 * `accessTokens` allows both identities); lark-cli's `skills/lark-calendar/SKILL.md` names the
 * fine-grained one it recommends per method.
 *
 * @module
 */

import { timeToSeconds } from "./expand_event.ts";
import { calendarView, instanceView, userIdOf } from "./_calendar_view.ts";
import {
  both,
  calendarFor,
  checkedBody,
  EVENT_READ_SCOPES,
  invalidParams,
  pageOf,
  pageToken,
  userById,
  userIdTypeOf,
} from "./_calendar_common.ts";
import { type Incoming, larkError, larkOk, type SandboxContext } from "../core/context.ts";
import { EVENT_ROUTES } from "./_event_routes.ts";
import type { FieldSpec } from "../core/body_check.ts";
import type { Caller, Route } from "../core/route.ts";
import { ATTENDEE_ROUTES } from "./_attendee_routes.ts";
import { SUBSCRIPTION_ROUTES } from "./_subscription_routes.ts";
import { BOT_OWNER } from "./calendar_store.ts";

const DAY = 86_400;
/** Longest span instance_view accepts (lark-cli calendar_agenda.go: 193103 over 40 days). */
export const MAX_SPAN_SECONDS = 40 * DAY;
/** Most instances instance_view returns (lark-cli calendar_agenda.go: 193104 over 1000). */
export const MAX_INSTANCES = 1000;
/**
 * Longest free/busy span (MCP server `calendar_v4` schema of `freebusy.list`: "time_min 与
 * time_max 之间的时间间隔不能大于 90 天").
 */
export const MAX_FREEBUSY_SECONDS = 90 * DAY;

/**
 * Scopes that grant free/busy: freebusys.list in lark-cli meta_data.json (d5d198a) and Lark's
 * freebusy/list.md; freebusy/batch is not in the catalogue and takes the same.
 */
export const FREEBUSY_SCOPES = [
  "calendar:calendar:readonly",
  "calendar:calendar",
  "calendar:calendar.free_busy:read",
];

/** The calendar routes, the event and attendee routes included. */
export const CALENDAR_ROUTES: Route[] = [
  {
    method: "GET",
    pattern: /^\/open-apis\/calendar\/v4\/calendars$/,
    scopes: both([
      "calendar:calendar:readonly",
      "calendar:calendar",
      "calendar:calendar.calendar:readonly",
      "calendar:calendar:read",
    ]),
    handle: listCalendars,
  },
  {
    method: "POST",
    pattern: /^\/open-apis\/calendar\/v4\/calendars\/primary$/,
    // No coarse calendar:calendar here: meta_data.json and Lark's calendar/primary.md list only
    // these.
    scopes: both([
      "calendar:calendar:readonly",
      "calendar:calendar.calendar:readonly",
      "calendar:calendar:read",
    ]),
    handle: primaryCalendar,
  },
  {
    method: "GET",
    pattern: /^\/open-apis\/calendar\/v4\/calendars\/([^/]+)$/,
    scopes: both(["calendar:calendar:readonly", "calendar:calendar", "calendar:calendar:read"]),
    handle: getCalendar,
  },
  {
    method: "GET",
    pattern: /^\/open-apis\/calendar\/v4\/calendars\/([^/]+)\/events\/instance_view$/,
    scopes: both(EVENT_READ_SCOPES),
    handle: viewInstances,
  },
  ...EVENT_ROUTES,
  ...ATTENDEE_ROUTES,
  ...SUBSCRIPTION_ROUTES,
  {
    method: "POST",
    pattern: /^\/open-apis\/calendar\/v4\/freebusy\/list$/,
    scopes: both(FREEBUSY_SCOPES),
    handle: freebusyList,
  },
  {
    method: "POST",
    pattern: /^\/open-apis\/calendar\/v4\/freebusy\/batch$/,
    scopes: both(FREEBUSY_SCOPES),
    handle: freebusyBatch,
  },
];

// lark-cli meta_data.json, calendars.list `page_size`: default 500, min 50, max 1000.
const CALENDAR_PAGE = { default: 500, min: 50, max: 1000 };
const SYNC_PREFIX = "sync:";

function listCalendars(ctx: SandboxContext, incoming: Incoming, caller: Caller): Response {
  const q = incoming.url.searchParams;
  const sync = q.get("sync_token");
  const all = ctx.calendars.listOf(caller.owner);
  if (sync !== null && sync !== "") {
    if (q.get("page_token")) {
      return larkError(190009, "sync token cannot be used with other request restrictions");
    }
    if (sync !== syncToken(caller.owner)) {
      return larkError(190008, "page_token or sync_token expired");
    }
    // Calendars never change in the sandbox: nothing changed since the token was issued.
    return larkOk({ has_more: false, sync_token: sync, calendar_list: [] });
  }
  const page = pageOf(incoming, CALENDAR_PAGE);
  if (page instanceof Response) return page;
  const slice = all.slice(page.offset, page.offset + page.size);
  const hasMore = page.offset + page.size < all.length;
  const data: Record<string, unknown> = {
    has_more: hasMore,
    calendar_list: slice.map((c) => calendarView(c, ctx.calendars.roleOf(c, caller.owner)!)),
  };
  if (hasMore) data.page_token = pageToken(page.offset + page.size);
  else data.sync_token = syncToken(caller.owner);
  return larkOk(data);
}

function syncToken(owner: string): string {
  return btoa(`${SYNC_PREFIX}${owner}`).replace(/=+$/, "");
}

function getCalendar(
  ctx: SandboxContext,
  _incoming: Incoming,
  caller: Caller,
  [calendarId]: string[],
): Response {
  const found = calendarFor(ctx, caller, calendarId, "free_busy_reader");
  if (found instanceof Response) return found;
  return larkOk(calendarView(found.calendar, found.role));
}

function primaryCalendar(ctx: SandboxContext, incoming: Incoming, caller: Caller): Response {
  const idType = userIdTypeOf(incoming);
  if (idType instanceof Response) return idType;
  // Lark's calendar/primary.md: with a tenant token, user_id_type cannot be user_id.
  if (caller.owner === BOT_OWNER && idType === "user_id") {
    return invalidParams("user_id_type cannot be user_id with a tenant access token");
  }
  const calendar = ctx.calendars.primaryOf(caller.owner)!;
  return larkOk({
    calendars: [{
      calendar: calendarView(calendar, "owner"),
      user_id: userIdOf(ctx, caller.owner, idType),
    }],
  });
}

function viewInstances(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  [calendarId]: string[],
): Response {
  const found = calendarFor(ctx, caller, calendarId, "reader");
  if (found instanceof Response) return found;
  const idType = userIdTypeOf(incoming);
  if (idType instanceof Response) return idType;
  const q = incoming.url.searchParams;
  const start = q.get("start_time") ?? "";
  const end = q.get("end_time") ?? "";
  if (!/^\d+$/.test(start) || !/^\d+$/.test(end)) {
    return invalidParams("start_time and end_time must be Unix seconds");
  }
  const from = Number(start);
  const to = Number(end);
  if (to <= from) return invalidParams("end_time must be after start_time");
  if (to - from > MAX_SPAN_SECONDS) {
    return larkError(193103, "the time span of instance_view must not exceed 40 days");
  }
  const occurrences = ctx.calendars.occurrences(found.calendar, from, to);
  if (occurrences.length > MAX_INSTANCES) {
    return larkError(
      193104,
      `too many instances (${occurrences.length}) in the time span, the limit is ` +
        `${MAX_INSTANCES}; narrow the time span`,
    );
  }
  // "self" is the owner of a primary calendar (an attendee sees their own answer there), else
  // the caller.
  const self = found.calendar.type === "primary" ? found.calendar.owner : caller.owner;
  return larkOk({
    items: occurrences.map((o) =>
      instanceView(ctx, o.event, o, {
        who: self,
        rsvp: ctx.calendars.rsvpOf(o.event, self, o),
        idType,
      })
    ),
  });
}

export const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

// types/index.d.ts, calendar.v4.freebusy.list and .batch request bodies.
const FREEBUSY_OPTIONS: Record<string, FieldSpec> = {
  time_min: "string",
  time_max: "string",
  include_external_calendar: "boolean",
  only_busy: "boolean",
  need_rsvp_status: "boolean",
};
const LIST_BODY: FieldSpec = {
  object: { ...FREEBUSY_OPTIONS, user_id: "string", room_id: "string" },
  required: ["time_min", "time_max"],
};
const BATCH_BODY: FieldSpec = {
  object: { ...FREEBUSY_OPTIONS, user_ids: { array: "string" } },
  required: ["time_min", "time_max", "user_ids"],
};

function rfc3339(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** The window and options of a free/busy request, or 190002. */
function freebusyWindow(
  body: Record<string, unknown>,
): { from: number; to: number; onlyBusy: boolean; withRsvp: boolean } | Response {
  const parse = (value: unknown) =>
    typeof value === "string" && RFC3339.test(value) ? Date.parse(value) / 1000 : NaN;
  const from = parse(body.time_min);
  const to = parse(body.time_max);
  if (Number.isNaN(from) || Number.isNaN(to)) {
    return invalidParams("time_min and time_max must be RFC 3339 date-times");
  }
  if (to <= from) return invalidParams("time_max must be after time_min");
  if (to - from > MAX_FREEBUSY_SECONDS) {
    return invalidParams("the span from time_min to time_max must not exceed 90 days");
  }
  return {
    from,
    to,
    // MCP server `calendar_v4` schema: only_busy defaults to true.
    onlyBusy: body.only_busy !== false,
    withRsvp: body.need_rsvp_status === true,
  };
}

/**
 * The busy times of a user's primary calendar: seeded and created events and those the user is
 * invited to, without cancelled ones, ones the user declined or was removed from, and (with
 * `onlyBusy`) free ones.
 */
export function busyOf(
  ctx: SandboxContext,
  openId: string,
  window: { from: number; to: number; onlyBusy: boolean; withRsvp: boolean },
): Record<string, unknown>[] {
  const calendar = ctx.calendars.primaryOf(openId)!;
  const out: Record<string, unknown>[] = [];
  for (const o of ctx.calendars.occurrences(calendar, window.from, window.to)) {
    const event = o.event;
    if ((o.override?.status ?? event.status) === "cancelled") continue;
    const rsvp = ctx.calendars.rsvpOf(event, openId, o);
    if (rsvp === "decline" || rsvp === "removed") continue;
    const personal = ctx.calendars.attendeeOf(event, openId)?.personal;
    if (window.onlyBusy && (personal?.free_busy_status ?? event.free_busy_status) === "free") {
      continue;
    }
    const item: Record<string, unknown> = {
      start_time: rfc3339(timeToSeconds(o.start_time)),
      end_time: rfc3339(timeToSeconds(o.end_time)),
    };
    if (window.withRsvp) item.rsvp_status = rsvp;
    out.push(item);
  }
  return out;
}

function freebusyList(ctx: SandboxContext, incoming: Incoming): Response {
  const body = checkedBody(incoming, LIST_BODY);
  if (body instanceof Response) return body;
  const window = freebusyWindow(body);
  if (window instanceof Response) return window;
  const idType = userIdTypeOf(incoming);
  if (idType instanceof Response) return idType;
  if (typeof body.user_id !== "string" || body.user_id === "") {
    if (typeof body.room_id === "string") {
      return invalidParams(`room_id "${body.room_id}" not found (the sandbox has no rooms)`);
    }
    return invalidParams("user_id or room_id is required");
  }
  const user = userById(ctx, body.user_id, idType);
  if (!user) return invalidParams(`user_id "${body.user_id}" (${idType}) not found`);
  return larkOk({ freebusy_list: busyOf(ctx, user.open_id, window) });
}

function freebusyBatch(ctx: SandboxContext, incoming: Incoming): Response {
  const body = checkedBody(incoming, BATCH_BODY);
  if (body instanceof Response) return body;
  const window = freebusyWindow(body);
  if (window instanceof Response) return window;
  const idType = userIdTypeOf(incoming);
  if (idType instanceof Response) return idType;
  const ids = body.user_ids as string[];
  if (ids.length === 0) return invalidParams("user_ids must not be empty");
  const lists = [];
  for (const id of ids) {
    const user = userById(ctx, id, idType);
    if (!user) return invalidParams(`user_id "${id}" (${idType}) not found`);
    lists.push({ user_id: id, freebusy_items: busyOf(ctx, user.open_id, window) });
  }
  return larkOk({ freebusy_lists: lists });
}
