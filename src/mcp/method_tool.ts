/**
 * An API method of the catalogue as an MCP tool (`hark mcp --tools docx.*`): its input schema
 * from the method's path, query and body fields (`path`, `params`, `data`, the official SDK's
 * shape), its description from the catalogue (read at run time: the repository holds none of
 * Lark's text), and hints that say what the method does. Pure: nothing here loads the MCP SDK.
 *
 * @module
 */

import type { Identity } from "../auth/identity.ts";
import type { CatalogueField, CatalogueMethod, Place } from "../catalogue/format.ts";
import { methodToolName } from "../catalogue/tool_name.ts";
import { ValidationError } from "../errors/mod.ts";
import { isObject } from "../json/fields.ts";
import type { FieldLabel, MethodInput } from "../catalogue/method_request.ts";
import { KEY_WINDOW_MINUTES } from "./derived_key.ts";
import { EXTRA_ARGUMENTS, type JsonSchema, type McpTool } from "./tool_schema.ts";
import { outputSchemaOf } from "./tool_output.ts";

/** The arguments that carry a method's values, by place. */
export const PLACE_ARGUMENTS: Readonly<Record<Place, "path" | "params" | "data">> = {
  path: "path",
  query: "params",
  body: "data",
};

/** A method's tool with what running it needs. */
export interface MethodTool {
  /** The tool as listed. */
  tool: McpTool;
  /** The method it calls. */
  method: CatalogueMethod;
  /** Whether the tool takes `as`. */
  takesAs: boolean;
  /** Whether it runs only with `yes: true` (it deletes or overwrites data). */
  needsYes: boolean;
  /** Where its idempotency key goes when hark derives one (`derived_key.ts`). */
  key?: { place: "query" | "body"; name: string };
}

/** Method names (the id's last part) of POST methods that delete or take away. */
const REMOVING = /^(batch)?(delete|remove|clear|unbind|revoke)/i;

/**
 * Whether a method may destroy or overwrite data with no way back: DELETE, PUT and PATCH (they
 * replace what was there), and a POST whose name says it deletes or removes.
 *
 * @param method the method
 */
export function isDestructiveMethod(method: Pick<CatalogueMethod, "http" | "id">): boolean {
  if (method.http === "DELETE" || method.http === "PUT" || method.http === "PATCH") return true;
  return method.http === "POST" && REMOVING.test(method.id.split(".").pop() ?? "");
}

/** The JSON Schema of a field: its type, allowed values, nested fields and items. */
export function fieldSchema(field: CatalogueField): JsonSchema {
  const schema: JsonSchema = {};
  switch (field.type) {
    case "enum":
      schema.type = "string";
      schema.enum = [...(field.values ?? [])];
      break;
    case "object": {
      schema.type = "object";
      schema.properties = Object.fromEntries(
        (field.fields ?? []).map((f) => [f.name, fieldSchema(f)]),
      );
      const required = (field.fields ?? []).filter((f) => f.required).map((f) => f.name);
      if (required.length > 0) schema.required = required;
      schema.additionalProperties = false;
      break;
    }
    case "array":
      schema.type = "array";
      if (field.items) schema.items = fieldSchema(field.items);
      break;
    case "json":
      break;
    default:
      schema.type = field.type;
  }
  if (field.nullable && schema.type !== undefined) {
    return { anyOf: [schema, { type: "null" }], ...describe(field) };
  }
  return { ...schema, ...describe(field) };
}

function describe(field: CatalogueField): Pick<JsonSchema, "description" | "default"> {
  const out: Pick<JsonSchema, "description" | "default"> = {};
  if (field.description) out.description = field.description;
  if (field.default !== undefined) out.default = field.default;
  return out;
}

/** The object schema of one place's fields, with the path's parameters all required. */
function placeSchema(fields: readonly CatalogueField[], place: Place): JsonSchema {
  const schema = fieldSchema({
    name: PLACE_ARGUMENTS[place],
    type: "object",
    required: false,
    description: "",
    fields: fields.map((f) => place === "path" ? { ...f, required: true } : f),
  });
  schema.description = place === "path"
    ? "the path parameters"
    : place === "query"
    ? "the query parameters"
    : "the JSON body";
  return schema;
}

/**
 * The tool of a method.
 *
 * @param method the method
 * @param options `identity`: the identity `hark mcp --as` fixed for every call
 */
export function methodTool(method: CatalogueMethod, options: { identity?: Identity }): MethodTool {
  const name = methodToolName(method.id);
  const readOnly = method.http === "GET";
  const needsYes = isDestructiveMethod(method);
  const takesAs = options.identity === undefined && method.identities.length > 1;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const places: [Place, readonly CatalogueField[]][] = [
    ["path", method.pathParams],
    ["query", method.query],
    ["body", method.body ?? []],
  ];
  for (const [place, fields] of places) {
    if (fields.length === 0) continue;
    const argument = PLACE_ARGUMENTS[place];
    properties[argument] = placeSchema(fields, place);
    if (place === "path" || fields.some((f) => f.required)) required.push(argument);
  }
  const key = method.idempotencyKey;
  if (key) {
    const holder = properties[PLACE_ARGUMENTS[key.place]]?.properties?.[key.name];
    if (holder) {
      holder.description = "the idempotency key: the service applies one key once. Default: " +
        "derived from the other arguments, the profile and the identity, so identical calls " +
        `within ${KEY_WINDOW_MINUTES} minutes are applied once`;
    }
  }
  if (takesAs) {
    properties[EXTRA_ARGUMENTS.as] = {
      type: "string",
      enum: [...method.identities],
      default: method.identities[0],
      description: "who acts: user (the signed-in person) or bot (the app)",
    };
  }
  properties[EXTRA_ARGUMENTS.dryRun] = {
    type: "boolean",
    default: false,
    description: "return the request it would send, and send nothing (no sign-in needed)",
  };
  if (needsYes) {
    properties[EXTRA_ARGUMENTS.yes] = {
      type: "boolean",
      default: false,
      description: method.http === "DELETE"
        ? "confirm the deletion: without yes: true nothing is deleted"
        : "confirm the change, which may overwrite or remove data: without yes: true nothing " +
          "is changed",
    };
  }
  const inputSchema: McpTool["inputSchema"] = {
    type: "object",
    properties,
    additionalProperties: false,
  };
  if (required.length > 0) inputSchema.required = required;
  const title = `${method.http} ${method.path}`;
  return {
    tool: {
      name,
      title,
      description: describeMethod(method, { takesAs, identity: options.identity, needsYes }),
      inputSchema,
      outputSchema: outputSchemaOf("object"),
      annotations: {
        title,
        readOnlyHint: readOnly,
        destructiveHint: needsYes,
        idempotentHint: readOnly || key !== undefined,
        openWorldHint: true,
      },
    },
    method,
    takesAs,
    needsYes,
    key: key ? { ...key } : undefined,
  };
}

function describeMethod(
  method: CatalogueMethod,
  options: { takesAs: boolean; identity?: Identity; needsYes: boolean },
): string {
  const what = (method.description || method.summary).trim();
  const lines = [what === "" ? `${method.id}.` : /[.!?]$/.test(what) ? what : `${what}.`];
  const key = method.idempotencyKey;
  if (method.http === "GET") {
    lines.push("It only reads and changes nothing.");
  } else if (options.needsYes) {
    lines.push(
      `It ${method.http === "DELETE" ? "deletes" : "changes"} data in Lark with no way back: ` +
        "it runs only with yes: true, which the person you act for must have agreed to; " +
        "dry_run: true previews it.",
    );
  } else {
    lines.push(
      "It changes data in Lark: pass dry_run: true first to see the request it would send." +
        (key
          ? ` Identical calls within ${KEY_WINDOW_MINUTES} minutes are applied once: unless ` +
            `${PLACE_ARGUMENTS[key.place]}.${key.name} is given, hark derives it.`
          : ""),
    );
  }
  const who = (identity: Identity) => identity === "bot" ? "the app's bot" : "the signed-in user";
  lines.push(
    options.takesAs
      ? `Acts as ${who(method.identities[0])}; as: "${method.identities[1]}" acts as ` +
        `${who(method.identities[1])}.`
      : `Acts as ${who(options.identity ?? method.identities[0])}.`,
  );
  lines.push(
    `Sends ${method.http} ${method.path} (${method.id}) with hark's checks, sign-in and ` +
      "retries; the result is the answer's data.",
  );
  return lines.join(" ");
}

/**
 * The values of a call by place, from its checked arguments.
 *
 * @param values the arguments given (`path`, `params`, `data`)
 * @throws {ValidationError} naming the argument when it is not an object
 */
export function methodInputOf(values: Record<string, unknown>): MethodInput {
  const input: MethodInput = {};
  const places: [keyof MethodInput, string][] = [
    ["path", PLACE_ARGUMENTS.path],
    ["query", PLACE_ARGUMENTS.query],
    ["body", PLACE_ARGUMENTS.body],
  ];
  for (const [place, argument] of places) {
    const value = values[argument];
    if (value === undefined) continue;
    if (!isObject(value)) {
      throw new ValidationError(`Invalid argument "${argument}": expected an object`, {
        param: argument,
        suggestion: `Give ${argument} as an object of ${
          argument === "data" ? "body fields" : "parameters"
        } by name`,
      });
    }
    input[place] = value;
  }
  return input;
}

/** How errors name a field of a tool call: `data.receive_id`, `params.page_size`. */
export const argumentLabel: FieldLabel = (place, path) => {
  const argument = `${PLACE_ARGUMENTS[place]}${path === "" ? "" : `.${path}`}`;
  return { label: `argument "${argument}"`, param: argument };
};
