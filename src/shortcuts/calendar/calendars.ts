/**
 * `hark calendar +calendars`: the calendars the identity can see, the primary one marked.
 *
 * @module
 */

import type { ApiRequest } from "../../http/request.ts";
import { booleanField, objectsField, stringField } from "../../json/fields.ts";
import { defineShortcut } from "../definition.ts";
import { pagingOptions, pagingParams } from "../paging.ts";
import { PAGE_TOKEN_PARAM, resumablePages, startToken } from "../im/resume.ts";

/** The calendar list path (calendar.v4.calendar.list in the SDK). */
export const CALENDARS_PATH = "/open-apis/calendar/v4/calendars";
/** Lark's page size limits of the calendar list (lark-cli's API catalogue: 50 to 1000). */
const PAGE_SIZE = { min: 50, max: 1000 };

/** A calendar as the list returns it (the fields hark reads). */
export interface LarkCalendar {
  /** The id. */
  calendar_id: string;
  /** The title. */
  summary?: string;
  /** `primary`, `shared`, `google`, `resource` or `exchange`. */
  type?: string;
  /** The caller's role: `owner`, `writer`, `reader`, `free_busy_reader`, `unknown`. */
  role?: string;
  [key: string]: unknown;
}

/**
 * The request for one page of the calendar list.
 *
 * @param limit the most calendars wanted (the page size, within Lark's limits)
 * @param pageToken the page after this token
 */
export function calendarsRequest(limit: number | undefined, pageToken?: string): ApiRequest {
  const size = Math.min(PAGE_SIZE.max, Math.max(PAGE_SIZE.min, limit ?? PAGE_SIZE.max));
  return {
    method: "GET",
    path: CALENDARS_PATH,
    query: { page_size: size, page_token: pageToken },
    scopes: ["calendar:calendar:read"],
  };
}

/** `calendar +calendars`. */
export const calendars = defineShortcut({
  service: "calendar",
  verb: "+calendars",
  description: "List the calendars you can see (id, summary, type, your role), the primary marked",
  examples: [
    "hark calendar +calendars",
    "hark calendar +calendars --page-all --format csv",
    "hark calendar +calendars --limit 50 --page-token ZmFrZV90b2tlbg",
    "hark calendar +calendars --as bot",
  ],
  identities: ["user", "bot"],
  // lark-cli's scope priorities prefer calendar:calendar:read for calendar reads.
  scopes: { user: ["calendar:calendar:read"], bot: ["calendar:calendar:read"] },
  effect: "read",
  params: { ...pagingParams(50, "calendars"), "page-token": PAGE_TOKEN_PARAM },
  validate(input) {
    pagingOptions(input, "calendars");
    startToken(input.values["page-token"]);
  },
  requests(input) {
    return [calendarsRequest(input.values.limit, startToken(input.values["page-token"]))];
  },
  stream(input, client) {
    const options = pagingOptions(input, "calendars");
    const pages = resumablePages(
      async (pageToken) => {
        const data = await client.request(calendarsRequest(options.limit, pageToken));
        return {
          items: objectsField(data, "calendar_list").map((c) => ({
            ...c,
            primary: c.type === "primary",
          })),
          hasMore: booleanField(data, "has_more") === true,
          pageToken: stringField(data, "page_token"),
        };
      },
      options,
      startToken(input.values["page-token"]),
      input.warn,
    );
    return pages;
  },
  columns: [
    { header: "CALENDAR ID", value: "calendar_id", kind: "id", priority: 5 },
    { header: "SUMMARY", value: "summary", priority: 4 },
    { header: "TYPE", value: "type", priority: 2 },
    { header: "ROLE", value: "role", priority: 3 },
    { header: "PRIMARY", value: (row) => (row.primary ? "yes" : ""), priority: 1 },
  ],
});
