/**
 * A small API catalogue for unit tests, in the generated format: a calendar group (a listing
 * with pages, a write with a body, an idempotency key and a nested object), a docs group (a
 * bot-only method) and the index naming them, served by a source that records what was loaded.
 *
 * @module
 */

import type { CatalogueSource } from "../../src/catalogue/catalogue.ts";
import {
  CATALOGUE_FORMAT,
  type CatalogueGroup,
  type CatalogueIndex,
  type CatalogueMethod,
  partsOf,
} from "../../src/catalogue/format.ts";

/** `calendar.v4.calendarEvent.list`: GET with path, query and pages. */
export const LIST_EVENTS: CatalogueMethod = {
  id: "calendar.v4.calendarEvent.list",
  command: ["calendar", "events", "list"],
  http: "GET",
  path: "/open-apis/calendar/v4/calendars/:calendar_id/events",
  identities: ["user", "bot"],
  summary: "Get Event List",
  description: "Lists the events of a calendar",
  pathParams: [{
    name: "calendar_id",
    type: "string",
    required: true,
    description: "the calendar",
  }],
  query: [
    { name: "page_size", type: "number", required: false, description: "items per page" },
    { name: "page_token", type: "string", required: false, description: "the page" },
    {
      name: "user_id_type",
      type: "enum",
      required: false,
      description: "id kind",
      values: ["open_id", "user_id"],
    },
    { name: "start_time", type: "string", required: false, description: "from" },
  ],
  paging: "query",
};

/** `calendar.v4.calendarEvent.create`: POST with a body, nested fields and a key. */
export const CREATE_EVENT: CatalogueMethod = {
  id: "calendar.v4.calendarEvent.create",
  command: ["calendar", "events", "create"],
  http: "POST",
  path: "/open-apis/calendar/v4/calendars/:calendar_id/events",
  identities: ["user", "bot"],
  summary: "Create event",
  description: "Creates an event",
  pathParams: [{
    name: "calendar_id",
    type: "string",
    required: true,
    description: "the calendar",
  }],
  query: [
    { name: "idempotency_key", type: "string", required: false, description: "the key" },
  ],
  body: [
    { name: "summary", type: "string", required: false, description: "the title" },
    { name: "need_notification", type: "boolean", required: false, description: "notify" },
    {
      name: "start_time",
      type: "object",
      required: true,
      description: "the start",
      fields: [
        { name: "timestamp", type: "string", required: false, description: "seconds" },
        { name: "timezone", type: "string", required: false, description: "zone" },
      ],
    },
    {
      name: "attendee_ids",
      type: "array",
      required: false,
      description: "who comes",
      items: { name: "", type: "string", required: false, description: "" },
    },
    {
      name: "reminders",
      type: "array",
      required: false,
      description: "when to remind",
      items: {
        name: "",
        type: "object",
        required: false,
        description: "",
        fields: [{ name: "minutes", type: "integer", required: true, description: "before" }],
      },
    },
    { name: "format", type: "string", required: false, description: "clashes with --format" },
    { name: "extra", type: "json", required: false, description: "anything", nullable: true },
  ],
  idempotencyKey: { place: "query", name: "idempotency_key" },
};

/** `docx.v1.document.create`: bot only. */
export const CREATE_DOCUMENT: CatalogueMethod = {
  id: "docx.v1.document.create",
  command: ["docx", "document", "create"],
  http: "POST",
  path: "/open-apis/docx/v1/documents",
  identities: ["bot"],
  summary: "Create a document",
  description: "Creates a document",
  pathParams: [],
  query: [],
  body: [{ name: "title", type: "string", required: false, description: "the title" }],
};

/** The groups of the fixture. */
export const FIXTURE_GROUPS: CatalogueGroup[] = [
  { format: CATALOGUE_FORMAT, group: "calendar_v4", methods: [CREATE_EVENT, LIST_EVENTS] },
  { format: CATALOGUE_FORMAT, group: "docx_v1", methods: [CREATE_DOCUMENT] },
];

/** The index of the fixture. */
export const FIXTURE_INDEX: CatalogueIndex = {
  format: CATALOGUE_FORMAT,
  source: "@larksuiteoapi/lark-mcp@0.0.0-test",
  services: [
    {
      name: "calendar",
      title: "2 API methods in 1 resource (v4)",
      groups: ["calendar_v4"],
      resources: [{
        name: "events",
        aliases: ["calendar-event"],
        title: "Event management",
        methods: [
          { name: "create", id: CREATE_EVENT.id },
          { name: "list", id: LIST_EVENTS.id },
        ],
      }],
    },
    {
      name: "docx",
      title: "1 API method in 1 resource (v1)",
      groups: ["docx_v1"],
      resources: [{
        name: "document",
        aliases: [],
        title: "Document",
        methods: [{ name: "create", id: CREATE_DOCUMENT.id }],
      }],
    },
  ],
  leftOut: [],
};

/** A source of the fixture that records what was read. */
export interface RecordingSource extends CatalogueSource {
  /** `index` and the parts' names, in the order they were read. */
  reads: string[];
}

/**
 * A source serving the fixture (or other text), recording each read.
 *
 * @param overrides replacement texts: `index`, or a part's name (`calendar_v4.calendarEvent`)
 */
export function fixtureSource(overrides: Record<string, string> = {}): RecordingSource {
  const reads: string[] = [];
  return {
    reads,
    index() {
      reads.push("index");
      return Promise.resolve(overrides.index ?? JSON.stringify(FIXTURE_INDEX));
    },
    part(name) {
      reads.push(name);
      const part = FIXTURE_GROUPS.flatMap(partsOf).find((p) => `${p.group}.${p.resource}` === name);
      return Promise.resolve(overrides[name] ?? (part && JSON.stringify(part)));
    },
  };
}
