/**
 * `--calendar-id` by name: a value that is not `primary` and not a Lark calendar id (those hold
 * an `@`, `…@group.calendar.feishu.cn`) names a calendar by its title, found in the calendar
 * list before anything is written.
 *
 * @module
 */

import { singleLine, ValidationError } from "../../errors/mod.ts";
import { booleanField, objectsField, stringField } from "../../json/fields.ts";
import type { ApiCaller } from "../definition.ts";
import { followPages } from "../paging.ts";
import { calendarsRequest } from "./calendars.ts";

/** The most pages of the calendar list read to find a name (1000 calendars a page). */
const MAX_NAME_PAGES = 10;

/** How many candidates an error lists. */
const SHOWN = 10;

/**
 * Whether `--calendar-id` names a calendar by title rather than by id.
 *
 * @param value the flag's value
 */
export function isCalendarName(value: string): boolean {
  return value !== "primary" && !value.includes("@");
}

/**
 * The id of the calendar `--calendar-id` gives: the value itself when it is an id or `primary`,
 * else the one calendar whose title it is (case and surrounding spaces aside).
 *
 * @param client the API client
 * @param value the flag's value
 * @returns the calendar id
 * @throws {ValidationError} naming `--calendar-id` when no calendar or several have that title,
 *   listing the candidates with their ids
 */
export async function resolveCalendarId(
  client: Pick<ApiCaller, "request">,
  value: string,
): Promise<string> {
  if (!isCalendarName(value)) return value;
  const wanted = value.trim().toLowerCase();
  const seen: { id: string; title: string }[] = [];
  const pages = followPages(async (pageToken) => {
    const data = await client.request(calendarsRequest(undefined, pageToken));
    return {
      items: objectsField(data, "calendar_list"),
      hasMore: booleanField(data, "has_more") === true,
      pageToken: stringField(data, "page_token"),
    };
  }, { maxPages: MAX_NAME_PAGES });
  for await (const page of pages) {
    for (const calendar of page) {
      const id = stringField(calendar, "calendar_id");
      if (id !== undefined) seen.push({ id, title: stringField(calendar, "summary") ?? "" });
    }
  }
  const matches = seen.filter((c) => c.title.trim().toLowerCase() === wanted);
  if (matches.length === 1) return matches[0].id;
  const show = (list: typeof seen) =>
    list.slice(0, SHOWN).map((c) => `"${singleLine(c.title)}" (${singleLine(c.id)})`).join(", ") +
    (list.length > SHOWN ? `, and ${list.length - SHOWN} more` : "");
  const quoted = JSON.stringify(singleLine(value));
  if (matches.length > 1) {
    throw new ValidationError(
      `Calendar name ${quoted} for --calendar-id is ambiguous: ${show(matches)}`,
      { param: "--calendar-id", suggestion: "Give one of these calendar ids as --calendar-id" },
    );
  }
  const near = seen.filter((c) => c.title.toLowerCase().includes(wanted));
  throw new ValidationError(
    `No calendar is named ${quoted} (--calendar-id)` +
      (seen.length > 0 ? `; yours: ${show(near.length > 0 ? near : seen)}` : ""),
    {
      param: "--calendar-id",
      suggestion: "Give a calendar's id or its exact title (hark calendar +calendars lists " +
        "them), or leave the flag out for your primary calendar",
    },
  );
}
