/**
 * `hark schema` for the API methods of the catalogue: each method's id, command, HTTP method and
 * path, identities, whether it changes anything, and its parameters (path, query, body, nested
 * fields too) with types, allowed values and required marks, told apart from the shortcuts by
 * `kind: "api"`.
 *
 * @module
 */

import type { Catalogue } from "../../catalogue/catalogue.ts";
import type {
  CatalogueField,
  CatalogueMethod,
  IndexResource,
  Place,
} from "../../catalogue/format.ts";
import { methodFlags } from "../../catalogue/method_flags.ts";
import { methodToolName } from "../../catalogue/tool_name.ts";
import { ValidationError } from "../../errors/mod.ts";
import { methodExamples, reservedFlagNames } from "../catalogue/method_command.ts";

/** A parameter or field of an API method. */
export interface ApiParamSchema {
  /** The name on the wire, `start_time`; empty for a list's item. */
  name: string;
  /** The flag that sets it, `--start-time`, when one does (else `--params` or `--data`). */
  flag?: string;
  /** Where it goes: `path`, `query` or `body`. */
  in?: Place;
  /** `string`, `number`, `integer`, `boolean`, `enum`, `object`, `array` or `json`. */
  type: string;
  /** Whether it must be given (inside its object). */
  required: boolean;
  /** What it is. */
  description: string;
  /** The allowed values of an enum. */
  allowed?: string[];
  /** Whether `null` is allowed. */
  nullable?: boolean;
  /** The value the service uses when none is given. */
  default?: string | number | boolean;
  /** The item of a list. */
  items?: ApiParamSchema;
  /** The fields of an object. */
  fields?: ApiParamSchema[];
}

/** What calling a method does to the service's data: GET reads, DELETE deletes, else writes. */
export type ApiEffect = "read" | "write" | "delete";

/** An API method. */
export interface ApiMethodSchema {
  /** Tells methods from shortcuts. */
  kind: "api";
  /** The method id (the official SDK's name): `calendar.v4.calendarEvent.instanceView`. */
  id: string;
  /** The command after `hark`: `calendar events instance-view`. */
  name: string;
  /** The HTTP method. */
  http_method: string;
  /** The path, `:name` for each path parameter. */
  path: string;
  /** Identities it accepts, the default first. */
  identities: string[];
  /** What it does to the service's data. */
  effect: ApiEffect;
  /** One line. */
  description: string;
  /** More about it. */
  details: string;
  /** Whether it returns pages (`--page-all` follows them). */
  paged: boolean;
  /** The parameter that makes a write safe to repeat, when it has one. */
  idempotency_key?: string;
  /** Its parameters: path, then query, then body. */
  params: ApiParamSchema[];
  /** An example command line. */
  example: string;
  /** Its tool's name when `hark mcp --tools` exposes it (every method can be): `docx_v1_document_create`. */
  mcp_tool: string;
}

/** A resource: its names and methods. */
export interface ApiResourceSchema {
  /** The command name. */
  name: string;
  /** Other names it answers to. */
  aliases: string[];
  /** Its methods. */
  methods: ApiMethodSchema[];
}

/**
 * What a method does to the service's data.
 *
 * @param method the method
 */
export function effectOf(method: Pick<CatalogueMethod, "http">): ApiEffect {
  return method.http === "GET" ? "read" : method.http === "DELETE" ? "delete" : "write";
}

function fieldSchema(field: CatalogueField, place?: Place, flag?: string): ApiParamSchema {
  const schema: ApiParamSchema = {
    name: field.name,
    ...(flag ? { flag } : {}),
    ...(place ? { in: place } : {}),
    type: field.type,
    required: place === "path" || field.required,
    description: field.description,
  };
  if (field.values) schema.allowed = [...field.values];
  if (field.nullable) schema.nullable = true;
  if (field.default !== undefined) schema.default = field.default;
  if (field.items) schema.items = fieldSchema(field.items);
  if (field.fields) schema.fields = field.fields.map((f) => fieldSchema(f));
  return schema;
}

/**
 * Describes a method.
 *
 * @param method the method
 */
export function methodSchema(method: CatalogueMethod): ApiMethodSchema {
  const flags = methodFlags(method, reservedFlagNames());
  const flagOf = (place: Place, field: CatalogueField) => {
    const flag = flags.find((f) => f.place === place && f.field === field);
    return flag ? `--${flag.name}` : undefined;
  };
  const params = [
    ...method.pathParams.map((f) => fieldSchema(f, "path", flagOf("path", f))),
    ...method.query.map((f) => fieldSchema(f, "query", flagOf("query", f))),
    ...(method.body ?? []).map((f) => fieldSchema(f, "body", flagOf("body", f))),
  ];
  const schema: ApiMethodSchema = {
    kind: "api",
    id: method.id,
    name: method.command.join(" "),
    http_method: method.http,
    path: method.path,
    identities: [...method.identities],
    effect: effectOf(method),
    description: method.summary,
    details: method.description,
    paged: method.paging !== undefined,
    params,
    example: methodExamples(method, flags)[0],
    mcp_tool: methodToolName(method.id),
  };
  if (method.idempotencyKey) schema.idempotency_key = method.idempotencyKey.name;
  return schema;
}

/**
 * Describes one method by id, loading only its group.
 *
 * @param catalogue the catalogue
 * @param id the method id
 * @throws {ValidationError} when the catalogue has no such method
 */
export async function methodSchemaById(catalogue: Catalogue, id: string): Promise<ApiMethodSchema> {
  const method = await catalogue.method(id);
  if (!method) {
    const [service] = id.split(".");
    throw new ValidationError(`Unknown API method "${id}"`, {
      param: "service",
      suggestion: "Method ids look like calendar.v4.calendarEvent.instanceView; list a " +
        `service's methods with hark schema ${service.replace(/_/g, "-")}`,
      command: "hark schema --kind api",
    });
  }
  return methodSchema(method);
}

/**
 * Every method of a service, in the index's order.
 *
 * @param catalogue the catalogue
 * @param service the service's name
 * @returns its methods; none when the catalogue has no such service
 */
export async function serviceMethods(
  catalogue: Catalogue,
  service: string,
): Promise<ApiMethodSchema[]> {
  const entry = await catalogue.service(service);
  if (!entry) return [];
  const methods = await Promise.all(
    entry.resources.flatMap((r) => r.methods.map((m) => catalogue.method(m.id))),
  );
  return methods.flatMap((m) => m ? [methodSchema(m)] : []);
}

/**
 * A resource of a service, or one of its methods.
 *
 * @param catalogue the catalogue
 * @param service the service's name
 * @param resource the resource's name or alias
 * @param method a method's name
 * @returns the description, or `undefined` when the service has no such resource
 * @throws {ValidationError} when the resource has no such method
 */
export async function resourceSchema(
  catalogue: Catalogue,
  service: string,
  resource: string,
  method?: string,
): Promise<ApiResourceSchema | ApiMethodSchema | undefined> {
  const entry = (await catalogue.service(service))?.resources.find((r: IndexResource) =>
    r.name === resource || r.aliases.includes(resource)
  );
  if (!entry) return undefined;
  if (method !== undefined) {
    const found = entry.methods.find((m) => m.name === method);
    if (!found) {
      throw new ValidationError(`Unknown method "${service} ${entry.name} ${method}"`, {
        param: "method",
        suggestion: `Methods of ${service} ${entry.name}: ${
          entry.methods.map((m) => m.name).join(", ")
        }`,
        command: `hark schema ${service} ${entry.name}`,
      });
    }
    return await methodSchemaById(catalogue, found.id);
  }
  const methods = await Promise.all(entry.methods.map((m) => methodSchemaById(catalogue, m.id)));
  return { name: entry.name, aliases: [...entry.aliases], methods };
}
