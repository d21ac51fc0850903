/**
 * The event calls the calendar shortcuts share: paths, reading one event and its attendees, and
 * telling a one-off event from a series or one instance of it.
 *
 * Lark's ids (calendar.v4.calendarEvent in the SDK's types/index.d.ts): a one-off event and a
 * whole series have ids ending `_0`; one instance of a series is `<uid>_<original start second>`,
 * as `instance_view` lists it, and its answer carries `recurring_event_id`. A series carries its
 * rule in `recurrence`.
 *
 * @module
 */

import { ApiError, EVENT_DELETED, singleLine, ValidationError } from "../../errors/mod.ts";
import { shellQuote } from "../../errors/shell_quote.ts";
import type { ApiRequest } from "../../http/request.ts";
import { booleanField, objectField, objectsField, stringField } from "../../json/fields.ts";
import type { ApiCaller, ParamValues, ShortcutInput } from "../definition.ts";
import { followPages } from "../paging.ts";
import type { ParamRecord } from "../param.ts";
import { type LarkAttendee, larkAttendeeOf, type LarkEvent, larkEventOf } from "./_lark_event.ts";

/** The scope that reads events and their attendees. */
export const EVENT_READ = "calendar:calendar.event:read";
/** The scope that changes events and adds or removes attendees. */
export const EVENT_UPDATE = "calendar:calendar.event:update";
/** The scope that deletes events. */
export const EVENT_DELETE = "calendar:calendar.event:delete";
/** The scope that creates events. */
export const EVENT_CREATE = "calendar:calendar.event:create";

/** Lark's code for an event that does not exist (or no longer does). */
export const EVENT_NOT_FOUND = 193001;

/**
 * Whether `error` says the event is gone: not found (193001) or deleted (193003, under HTTP
 * 403). A delete that meets either, after its answer was lost and it was retried, or after
 * someone else deleted the event, has nothing left to do.
 *
 * @param error what a call failed with
 */
export function isEventGone(error: unknown): boolean {
  return error instanceof ApiError &&
    (error.apiCode === EVENT_NOT_FOUND || error.apiCode === EVENT_DELETED);
}

/** The most attendees one `attendees` list page returns that hark asks for. */
export const ATTENDEE_PAGE_SIZE = 100;

/**
 * The events path of a calendar.
 *
 * @param calendarId a calendar id or `primary`
 */
export function eventsPath(calendarId: string): string {
  return `/open-apis/calendar/v4/calendars/${encodeURIComponent(calendarId)}/events`;
}

/**
 * The path of one event; the placeholder `{event_id}` of a preview is kept as it is.
 *
 * @param calendarId a calendar id or `primary`
 * @param eventId an event or instance id
 */
export function eventPath(calendarId: string, eventId: string): string {
  const id = eventId === "{event_id}" ? eventId : encodeURIComponent(eventId);
  return `${eventsPath(calendarId)}/${id}`;
}

/**
 * The request reading one event.
 *
 * @param calendarId the calendar
 * @param eventId the event or instance
 */
export function getEventRequest(calendarId: string, eventId: string): ApiRequest {
  return {
    method: "GET",
    path: eventPath(calendarId, eventId),
    query: { user_id_type: "open_id" },
    scopes: [EVENT_READ],
  };
}

/**
 * The request reading one page of an event's attendees.
 *
 * @param calendarId the calendar
 * @param eventId the event or instance
 * @param pageToken the page after this token; the first page without one
 */
export function listAttendeesRequest(
  calendarId: string,
  eventId: string,
  pageToken?: string,
): ApiRequest {
  return {
    method: "GET",
    path: `${eventPath(calendarId, eventId)}/attendees`,
    query: { user_id_type: "open_id", page_size: ATTENDEE_PAGE_SIZE, page_token: pageToken },
    scopes: [EVENT_READ],
  };
}

/**
 * Reads one event.
 *
 * @param client the API client
 * @param calendarId the calendar
 * @param eventId the event or instance
 */
export async function readEvent(
  client: ApiCaller,
  calendarId: string,
  eventId: string,
): Promise<LarkEvent> {
  const event = objectField(await client.request(getEventRequest(calendarId, eventId)), "event");
  // An answer without the event's id is still the event asked for.
  return larkEventOf(event) ?? larkEventOf({ ...event, event_id: eventId }) ??
    { event_id: eventId };
}

/**
 * Reads every attendee of an event, page by page.
 *
 * @param client the API client
 * @param calendarId the calendar
 * @param eventId the event or instance
 */
export async function readAttendees(
  client: ApiCaller,
  calendarId: string,
  eventId: string,
): Promise<LarkAttendee[]> {
  const all: LarkAttendee[] = [];
  const pages = followPages(async (token) => {
    const data = await client.request(listAttendeesRequest(calendarId, eventId, token));
    return {
      items: objectsField(data, "items").map(larkAttendeeOf),
      hasMore: booleanField(data, "has_more") === true,
      pageToken: stringField(data, "page_token"),
    };
  });
  for await (const page of pages) all.push(...page);
  return all;
}

/** What an event id names. */
export type EventKind = "one-off" | "series" | "instance";

/**
 * Whether an event is a one-off event, a whole series or one instance of a series.
 *
 * @param event the event as Lark returned it
 */
export function eventKind(event: LarkEvent): EventKind {
  if (event.recurring_event_id) return "instance";
  if (event.recurrence) return "series";
  return "one-off";
}

/**
 * Refuses to change a whole series unless `--all-instances` was given.
 *
 * @param input the shortcut input
 * @param event the event read
 * @param action what would be done, for the message (`delete`, `update`)
 * @throws {ValidationError} naming `--all-instances`
 */
export function guardSeries(
  input: ShortcutInput<{ readonly "calendar-id": string; readonly "all-instances"?: boolean }>,
  event: LarkEvent,
  action: string,
): void {
  if (eventKind(event) !== "series" || input.values["all-instances"] === true) return;
  // The id and the rule come from the service: one line each.
  const id = singleLine(event.event_id);
  const calendar = shellQuote(input.values["calendar-id"]);
  throw new ValidationError(
    `Cannot ${action} event "${id}" without --all-instances: it is a recurring series ` +
      `(${singleLine(event.recurrence ?? "")}), and this would ${action} every instance`,
    {
      param: "--all-instances",
      suggestion: `To ${action} one instance, pass its id as +agenda lists it ` +
        `(<uid>_<start second>); to ${action} the whole series, add --all-instances`,
      command: `hark calendar +agenda --calendar-id ${calendar}`,
    },
  );
}

/**
 * What an event id touched, for the result: the event, a whole series, or one instance of a
 * series (with the series id).
 *
 * @param event the event read
 */
export function touched(event: LarkEvent): Record<string, unknown> {
  const kind = eventKind(event);
  return {
    scope: kind,
    ...(kind === "instance" ? { series_id: event.recurring_event_id } : {}),
  };
}

/**
 * The command that runs a shortcut again with the values it was given (datetimes as typed,
 * `--yes` and other switches as switches), quoted for a POSIX shell where needed: a recovery
 * command that retries the same thing.
 *
 * @param verb the shortcut, such as `+update`
 * @param params the shortcut's parameters, keyed by flag name, in order
 * @param values the bound values
 */
export function retryCommand(
  verb: string,
  params: ParamRecord,
  values: Readonly<ParamValues>,
): string {
  const parts: string[] = [];
  for (const [name, param] of Object.entries(params)) {
    const value = values[name];
    if (value === undefined || value === param.default || value === false) continue;
    if (value === true) parts.push(`--${name}`);
    else if (typeof value === "object" && "path" in value) {
      parts.push(`--${name} ${shellQuote(value.path)}`);
    } else if (typeof value === "object") {
      parts.push(`--${name} ${shellQuote(value.text)}`);
    } else parts.push(`--${name} ${shellQuote(String(value))}`);
  }
  return ["hark calendar", verb, ...parts].join(" ");
}
