/**
 * What the calendar routes share: Lark's calendar error answers, calendar access checks, the
 * `user_id_type` and paging parameters, and the scopes of the calendar API.
 *
 * Error codes (HTTP status, code, message) from the calendar API's common error table, as
 * published with every calendar method (feishu.apifox.cn/api-9020954, "获取日程列表" → 错误码):
 * 400 190002 "invalid parameters in request" (also: no permission on the resource, or it was
 * deleted), 400 190008 "page_token or sync_token expired", 400 190009 "sync token cannot be used
 * with other request restrictions", 404 191000 "calendar not found", 403 191002 "no calendar
 * access_role". 193001 for an unknown event, 193103 and 193104 for instance_view are not in that
 * table: 193103/193104 come from lark-cli `shortcuts/calendar/calendar_agenda.go`; 193001 is
 * *unverified* (no source found; kept from the sandbox's first version); 403 193003 "event is
 * deleted" for an event deleted over the API is from issue 22's review of the calendar error
 * table (hark's `+delete` depends on it after a retried delete).
 *
 * @module
 */

import { type Calendar, type Role, ROLES, type StoredEvent } from "./calendar_store.ts";
import type { Occurrence } from "./expand_event.ts";
import type { Attendee, SeedUser } from "../core/seed_data.ts";
import { fieldProblem, type FieldSpec } from "../core/body_check.ts";
import { type Incoming, larkError, type SandboxContext } from "../core/context.ts";
import { fieldViolation } from "../core/lark_errors.ts";
import {
  type Caller,
  jsonBody,
  type RouteScopes,
  USER_ID_TYPES,
  type UserIdType,
  userIdTypeParam,
} from "../core/route.ts";

/** Code for invalid parameters (and for lacking permission on a resource). */
export const CALENDAR_INVALID_PARAMS = 190002;

/** 400 190002 "invalid parameters in request: <why>". */
export function invalidParams(why: string): Response {
  return larkError(CALENDAR_INVALID_PARAMS, `invalid parameters in request: ${why}`);
}

/** 404 193001 for an event that does not exist (or no longer does) in the calendar. */
export function eventNotFound(eventId: string): Response {
  return larkError(193001, `event not found: "${eventId}"`, 404);
}

/** 403 193003 for an event that was deleted (or an instance of a series that was cancelled). */
export function eventDeleted(eventId: string): Response {
  return larkError(193003, `event is deleted: "${eventId}"`, 403);
}

/**
 * Scopes that grant reading events: events.get, events.instance_view and event.attendees.list in
 * lark-cli `internal/registry/meta_data.json` (d5d198a).
 */
export const EVENT_READ_SCOPES = [
  "calendar:calendar:readonly",
  "calendar:calendar",
  "calendar:calendar.event:read",
] as const;

/** Scopes that grant updating events: events.patch and event.attendees.create (idem). */
export const EVENT_UPDATE_SCOPES = ["calendar:calendar", "calendar:calendar.event:update"] as const;

/** The same scopes for a user token and for the app (a tenant token). */
export function both(scopes: readonly string[]): RouteScopes {
  return { user: scopes, bot: scopes };
}

/**
 * The calendar a request names, when the caller has at least role `need` on it.
 *
 * @returns the calendar and the caller's role, or 404 191000 / 403 191002
 */
export function calendarFor(
  ctx: SandboxContext,
  caller: Caller,
  calendarId: string,
  need: Role,
): { calendar: Calendar; role: Role } | Response {
  const calendar = ctx.calendars.resolve(calendarId, caller.owner);
  if (!calendar) return larkError(191000, `calendar not found: "${calendarId}"`, 404);
  const role = ctx.calendars.roleOf(calendar, caller.owner);
  if (!role || ROLES.indexOf(role) < ROLES.indexOf(need)) {
    return larkError(
      191002,
      `no calendar access_role: the caller needs role ${need} on calendar "${calendarId}"`,
      403,
    );
  }
  return { calendar, role };
}

/** The `user_id_type` query parameter (default open_id), or 190002. */
export function userIdTypeOf(incoming: Incoming): UserIdType | Response {
  return userIdTypeParam(
    incoming.url,
    () => invalidParams(`user_id_type must be one of ${USER_ID_TYPES.join(", ")}`),
  );
}

/** A seeded user by an id of the given type. */
export function userById(
  ctx: SandboxContext,
  id: string,
  idType: UserIdType,
): SeedUser | undefined {
  return ctx.users.find((u) =>
    (idType === "open_id" ? u.open_id : idType === "union_id" ? u.union_id : u.user_id) === id
  );
}

/** A boolean query parameter ("true" / "false"), its default when absent, or 190002. */
export function booleanParam(
  incoming: Incoming,
  name: string,
  fallback: boolean,
): boolean | Response {
  const value = incoming.url.searchParams.get(name);
  if (value === null) return fallback;
  if (value !== "true" && value !== "false") return invalidParams(`${name} must be true or false`);
  return value === "true";
}

/** Page size limits of a list method. */
export interface PageLimits {
  /** Used when `page_size` is absent. */
  default: number;
  /**
   * Smaller sizes are refused: the method's declared range (lark-cli `meta_data.json`, e.g.
   * calendars.list `page_size` 50 to 1000) is a data-validation rule, which Lark's gateway answers
   * with 99992402 naming the field (`core/lark_errors.ts`), not a value it raises.
   */
  min: number;
  /** Larger sizes are refused with 190002. */
  max: number;
}

/**
 * Reads `page_size` and `page_token`; an unknown page token is 190008, as Lark answers an expired
 * one.
 *
 * @returns the offset to start at and the page size
 */
export function pageOf(
  incoming: Incoming,
  limits: PageLimits,
): { offset: number; size: number } | Response {
  const q = incoming.url.searchParams;
  const sizeText = q.get("page_size");
  let size = limits.default;
  if (sizeText !== null) {
    if (!/^\d+$/.test(sizeText)) return invalidParams("page_size must be an integer");
    size = Number(sizeText);
    if (size < limits.min) {
      return fieldViolation("page_size", `the min value is ${limits.min}`, sizeText);
    }
    if (size > limits.max) return invalidParams(`page_size must be at most ${limits.max}`);
  }
  const token = q.get("page_token");
  if (token === null || token === "") return { offset: 0, size };
  const m = /^page:(\d+)$/.exec(safeAtob(token));
  if (!m) return larkError(190008, "page_token or sync_token expired");
  return { offset: Number(m[1]), size };
}

/** The page token that continues a list at `offset`. */
export function pageToken(offset: number): string {
  return btoa(`page:${offset}`).replace(/=+$/, "");
}

function safeAtob(text: string): string {
  try {
    return atob(text);
  } catch {
    return "";
  }
}

/**
 * Reads a JSON body and checks it against `spec`.
 *
 * @returns the body, or 9499 (not JSON) / 190002 (wrong shape)
 */
export function checkedBody(
  incoming: Incoming,
  spec: FieldSpec,
): Record<string, unknown> | Response {
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  const problem = fieldProblem(body, spec, "");
  return problem ? invalidParams(problem) : body;
}

/** An event a request names, as the caller sees it. */
export interface Found {
  /** The stored event (the series for an instance id). */
  event: StoredEvent;
  /** The instance, for an instance id. */
  occurrence?: Occurrence<StoredEvent>;
  /** The caller organizes the event: it lives in the calendar and the caller may write there. */
  organizer: boolean;
}

/**
 * The event an event path names and the `user_id_type` of the request.
 *
 * @param params the calendar id and event id from the path
 * @param need the role the caller needs on the calendar
 */
export function eventRequest(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  [calendarId, eventId]: string[],
  need: "reader" | "writer",
): { found: Found; idType: UserIdType } | Response {
  const found = eventFor(ctx, caller, calendarId, eventId, need);
  if (found instanceof Response) return found;
  const idType = userIdTypeOf(incoming);
  if (idType instanceof Response) return idType;
  return { found, idType };
}

/** The event a path names, shown in a calendar the caller has at least `need` on. */
export function eventFor(
  ctx: SandboxContext,
  caller: Caller,
  calendarId: string,
  eventId: string,
  need: "reader" | "writer",
): Found | Response {
  const found = calendarFor(ctx, caller, calendarId, need);
  if (found instanceof Response) return found;
  const hit = ctx.calendars.find(found.calendar, eventId);
  if (!hit) {
    return ctx.calendars.wasDeleted(found.calendar, eventId)
      ? eventDeleted(eventId)
      : eventNotFound(eventId);
  }
  if (hit.occurrence?.override?.status === "cancelled") return eventDeleted(eventId);
  const writes = found.role === "writer" || found.role === "owner";
  return {
    event: hit.event,
    occurrence: hit.occurrence,
    organizer: writes && hit.event.calendar_id === found.calendar.calendar_id,
  };
}

/**
 * The attendees the caller may see: all of them for the organizer and when the event lets
 * attendees see others (`attendee_ability` other than none), else only the caller's own entry.
 */
export function visibleAttendees(found: Found, caller: Caller): Attendee[] {
  const live = (found.event.attendees ?? []).filter((a) => a.rsvp_status !== "removed");
  if (found.organizer || (found.event.attendee_ability ?? "none") !== "none") return live;
  return live.filter((a) => a.type === "user" && a.open_id === caller.owner);
}
