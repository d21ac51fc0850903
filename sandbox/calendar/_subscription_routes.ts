/**
 * Subscriptions to a calendar's event changes: `POST …/calendars/{calendar_id}/events/subscription`
 * and `…/unsubscription` (calendar-v4/calendar-event/subscription.md: a user access token only,
 * any one of calendar:calendar, calendar:calendar.event:read, calendar:calendar:readonly; the
 * caller needs reader, writer or owner on the calendar). Once a user subscribed, every create,
 * change or delete of an event of that calendar raises `calendar.calendar.event.changed_v4` on
 * the event long connection, naming the subscribed users (`user_id_list`), as Lark does.
 *
 * @module
 */

import { calendarEventChanged } from "../events/event_routes.ts";
import { calendarFor } from "./_calendar_common.ts";
import { larkOk, type SandboxContext } from "../core/context.ts";
import type { Caller, Route } from "../core/route.ts";

const SUBSCRIPTION = String.raw`^\/open-apis\/calendar\/v4\/calendars\/([^/]+)\/events\/`;
const SCOPES = [
  "calendar:calendar",
  "calendar:calendar.event:read",
  "calendar:calendar:readonly",
];

/** The subscribers of each calendar (by calendar id), per sandbox. */
const subscribers = new WeakMap<SandboxContext, Map<string, Set<string>>>();

function subscribersOf(ctx: SandboxContext, calendarId: string): Set<string> {
  let calendars = subscribers.get(ctx);
  if (!calendars) subscribers.set(ctx, calendars = new Map());
  let users = calendars.get(calendarId);
  if (!users) calendars.set(calendarId, users = new Set());
  return users;
}

/** The subscription routes. */
export const SUBSCRIPTION_ROUTES: Route[] = [
  {
    method: "POST",
    pattern: new RegExp(`${SUBSCRIPTION}subscription$`),
    userOnly: true,
    scopes: { user: SCOPES },
    handle: (ctx, _incoming, caller, [calendarId]) => subscribe(ctx, caller, calendarId, true),
  },
  {
    method: "POST",
    pattern: new RegExp(`${SUBSCRIPTION}unsubscription$`),
    userOnly: true,
    scopes: { user: SCOPES },
    handle: (ctx, _incoming, caller, [calendarId]) => subscribe(ctx, caller, calendarId, false),
  },
];

function subscribe(
  ctx: SandboxContext,
  caller: Caller,
  calendarId: string,
  on: boolean,
): Response {
  const found = calendarFor(ctx, caller, calendarId, "reader");
  if (found instanceof Response) return found;
  const users = subscribersOf(ctx, found.calendar.calendar_id);
  if (on) users.add(caller.owner);
  else users.delete(caller.owner);
  return larkOk({});
}

/**
 * Raises `calendar.calendar.event.changed_v4` for a change to an event of `calendarId` when any
 * user subscribed to that calendar; nothing otherwise.
 */
export function eventChanged(
  ctx: SandboxContext,
  calendarId: string,
  eventId: string,
  change: "create" | "update" | "delete",
): void {
  const users = subscribers.get(ctx)?.get(calendarId);
  if (!users || users.size === 0) return;
  calendarEventChanged(ctx, calendarId, eventId, change, [...users]);
}
