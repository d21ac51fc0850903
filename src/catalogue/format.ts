/**
 * The shape of the generated API catalogue (`gen/catalogue/`, written by
 * `scripts/gen_catalogue.ts` from the pinned `@larksuiteoapi/lark-mcp` package): one JSON file per
 * resource of an API group (a service at one version), such as `docx_v1.document.json`, holding
 * that resource's methods with their typed parameters, and a small index (services, resources,
 * method ids and command names, no parameters) so that finding a command loads only the index and
 * one resource's file. Per resource rather than per group: docx_v1 is 0.75 MB, almost all of it
 * the block methods, and `hark docx document create` parsed all of it for one method of 0.8 KB.
 *
 * The generator and the loader share these types; {@link CATALOGUE_FORMAT} changes with them.
 *
 * @module
 */

/** The version of the file format; the loader refuses another. */
export const CATALOGUE_FORMAT = 2;

/** The index's file in the catalogue's folder; a part's is `<part>.json` ({@link partOfId}). */
export const INDEX_FILE = "index.json";

/** The value types of a parameter or body field. */
export const FIELD_TYPES = [
  "string",
  "number",
  "integer",
  "boolean",
  "enum",
  "object",
  "array",
  "json",
] as const;

/**
 * A field's value type: JSON's scalars, `enum` (a string from a set), `object` (known fields),
 * `array` (of one item type) and `json` (any JSON value: a union, a map, anything the schema
 * leaves open).
 */
export type FieldType = typeof FIELD_TYPES[number];

/** One parameter (path, query) or body field. */
export interface CatalogueField {
  /** The name on the wire, such as `calendar_id`; empty for an array's item. */
  name: string;
  /** The value type. */
  type: FieldType;
  /** Whether it must be given. */
  required: boolean;
  /** What it is (Lark's words, shortened). */
  description: string;
  /** The allowed values of an `enum`. */
  values?: string[];
  /** The fields of an `object`, in Lark's order. */
  fields?: CatalogueField[];
  /** The item of an `array`. */
  items?: CatalogueField;
  /** Whether `null` is allowed too. */
  nullable?: boolean;
  /** The value the service uses when none is given (help only: hark sends what is given). */
  default?: string | number | boolean;
}

/** The HTTP methods the catalogue's methods use. */
export const CATALOGUE_HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** The identities that can call a method: the user, the bot (tenant). */
export const CATALOGUE_IDENTITIES = ["user", "bot"] as const;

/** Where a method takes a value: its path, its query, its body. */
export const PLACES = ["path", "query", "body"] as const;

/** One of {@link PLACES}. */
export type Place = typeof PLACES[number];

/** One API method. */
export interface CatalogueMethod {
  /** The method id, the official SDK's name: `calendar.v4.calendarEvent.instanceView`. */
  id: string;
  /** The command's words after `hark`: `["calendar", "events", "instance-view"]`. */
  command: [string, string, string];
  /** The HTTP method. */
  http: typeof CATALOGUE_HTTP_METHODS[number];
  /** The path, with `:name` for each path parameter. */
  path: string;
  /** Who may call it, the default first. */
  identities: (typeof CATALOGUE_IDENTITIES[number])[];
  /** One line for listings. */
  summary: string;
  /** What it does (Lark's words, shortened). */
  description: string;
  /** The path parameters, in path order. */
  pathParams: CatalogueField[];
  /** The query parameters. */
  query: CatalogueField[];
  /** The JSON body's fields, when it takes a body. */
  body?: CatalogueField[];
  /** Where its page token goes when the method returns pages (`has_more`, `page_token`). */
  paging?: "query" | "body";
  /** The parameter that makes a write safe to repeat (`uuid`, `client_token`…), when it has one. */
  idempotencyKey?: { place: "query" | "body"; name: string };
}

/** One API group: a service at one version (on disk, one file per resource: a part). */
export interface CatalogueGroup {
  /** {@link CATALOGUE_FORMAT}. */
  format: number;
  /** The group's name: `calendar_v4`. */
  group: string;
  /** Its methods, by id. */
  methods: CatalogueMethod[];
}

/** One file of the catalogue: the methods of one resource of a group. */
export interface CataloguePart {
  /** {@link CATALOGUE_FORMAT}. */
  format: number;
  /** The group's name: `docx_v1`. */
  group: string;
  /** The resource as the method ids name it: `document`, `documentBlock`. */
  resource: string;
  /** Its methods, by id. */
  methods: CatalogueMethod[];
}

/** A resource in the index: its command name and its methods' names and ids. */
export interface IndexResource {
  /** The command name: `events`. */
  name: string;
  /** Other names it answers to (the name the naming rule gives, when lark-cli's is used). */
  aliases: string[];
  /** What it is, for listings. */
  title: string;
  /** Its methods: command name and id. */
  methods: { name: string; id: string }[];
}

/** A service in the index. */
export interface IndexService {
  /** The command name: `calendar`, `speech-to-text`. */
  name: string;
  /** What it is, for listings. */
  title: string;
  /** Its API groups (files), oldest version first. */
  groups: string[];
  /** Its resources, by name. */
  resources: IndexResource[];
}

/** The index of the catalogue: what commands exist, with no parameters. */
export interface CatalogueIndex {
  /** {@link CATALOGUE_FORMAT}. */
  format: number;
  /** The package it was generated from: `@larksuiteoapi/lark-mcp@0.5.1`. */
  source: string;
  /** The services, by name. */
  services: IndexService[];
  /** Methods of the package the catalogue leaves out, with why. */
  leftOut: { id: string; reason: string }[];
}

/**
 * The group file a method id lives in: `calendar.v4.calendarEvent.get` → `calendar_v4`.
 *
 * @param id a method id
 * @returns the group, or `undefined` when the id has not the four parts of one
 */
export function groupOfId(id: string): string | undefined {
  const parts = id.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^[A-Za-z0-9_]+$/.test(p))) return undefined;
  return `${parts[0]}_${parts[1]}`;
}

/**
 * The part (file, without `.json`) a method id lives in: `docx.v1.documentBlock.get` →
 * `docx_v1.documentBlock`.
 *
 * @param id a method id
 * @returns the part, or `undefined` when the id has not the four parts of one
 */
export function partOfId(id: string): string | undefined {
  const group = groupOfId(id);
  return group === undefined ? undefined : `${group}.${id.split(".")[2]}`;
}

/** What a part's name looks like: `docx_v1.documentBlock` (no path separator, one dot). */
export const PART_NAME = /^[a-z0-9_]+\.[A-Za-z0-9_]+$/;

/**
 * A group cut into its parts, one per resource, in the order of their first method.
 *
 * @param group the group
 */
export function partsOf(group: CatalogueGroup): CataloguePart[] {
  const parts = new Map<string, CataloguePart>();
  for (const method of group.methods) {
    const resource = method.id.split(".")[2];
    const part = parts.get(resource) ??
      { format: group.format, group: group.group, resource, methods: [] };
    part.methods.push(method);
    parts.set(resource, part);
  }
  return [...parts.values()];
}
