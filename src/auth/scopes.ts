/**
 * The permission scopes hark's shortcuts need, and the spec's rule for a scope's shape.
 *
 * @module
 */

import { ValidationError } from "../errors/mod.ts";

/** Read the calendar: agendas and free/busy. */
export const SCOPE_CALENDAR_READ = "calendar:calendar:readonly";
/** Write the calendar: create and delete events, add attendees. */
export const SCOPE_CALENDAR_WRITE = "calendar:calendar";
/** Search users. */
export const SCOPE_CONTACT_SEARCH = "contact:user:search";
/** Send messages. */
export const SCOPE_IM_SEND = "im:message:send";
/** Keep a refresh token; always requested at sign-in. */
export const SCOPE_OFFLINE = "offline_access";

/** Scopes `hark auth login` asks for when no `--scope` is given. */
export const DEFAULT_SCOPES: readonly string[] = [
  "calendar:calendar:read",
  "calendar:calendar.event:read",
  "calendar:calendar.event:create",
  "calendar:calendar.event:update",
  "calendar:calendar.event:delete",
  "calendar:calendar.free_busy:read",
  "contact:user:search",
  "im:message.send_as_user",
];

/**
 * Checks a scope: `<service>:<resource>:<action>`, or fewer parts; empty, no colon, an empty
 * part, white space, or more than three colon-separated parts is invalid.
 *
 * @param scope the scope as typed
 * @returns the scope
 * @throws {ValidationError} naming the scope
 */
export function checkScope(scope: string): string {
  const parts = scope.split(":");
  if (
    scope.length === 0 || parts.length < 2 || parts.length > 3 ||
    parts.some((p) => !/^[A-Za-z0-9_.-]+$/.test(p))
  ) {
    throw new ValidationError(
      `Invalid scope ${JSON.stringify(scope)}: expected <service>:<resource>:<action>, ` +
        "such as calendar:calendar:readonly",
      { param: "--scope" },
    );
  }
  return scope;
}

/**
 * Splits `--scope` values given repeatedly or separated by spaces or commas, checks each, and
 * removes duplicates.
 *
 * @param values the raw values
 * @throws {ValidationError} naming the first bad scope
 */
export function parseScopes(values: string[]): string[] {
  const scopes: string[] = [];
  for (const value of values) {
    const parts = value.split(/[\s,]+/).filter((p) => p.length > 0);
    if (parts.length === 0) checkScope(value.trim());
    for (const part of parts) if (!scopes.includes(checkScope(part))) scopes.push(part);
  }
  return scopes;
}
