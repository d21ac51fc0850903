/**
 * What a tool returns, as the `outputSchema` of `tools/list`, and the paging arguments of a
 * listing tool (a shortcut that streams rows): `limit`, `page_token` and `fields`. Every result
 * is an object: a listing's page (`items`, `has_more`, `page_token`), a command's JSON object
 * (a list from another command as `items`), a dry run's requests, or a tool error's envelope.
 *
 * @module
 */

import type { ParamSpec } from "../shortcuts/definition.ts";
import type { JsonSchema } from "./tool_schema.ts";
import { PAGE_BUDGET_BYTES, PAGING_ARGUMENTS } from "./result_page.ts";

/** A dry run's result: the requests it would send. */
const DRY_RUN_RESULT: JsonSchema = {
  type: "object",
  description: "a dry run: nothing was sent",
  properties: {
    dry_run: { type: "boolean", description: "always true" },
    requests: {
      type: "array",
      description: "the requests the call would send",
      items: {
        type: "object",
        properties: { method: { type: "string" }, url: { type: "string" } },
        required: ["method", "url"],
      },
    },
  },
  required: ["dry_run", "requests"],
};

/** A page of a listing. */
const PAGE_RESULT: JsonSchema = {
  type: "object",
  description: "one page of the listing",
  properties: {
    items: { type: "array", description: "the rows of this page", items: { type: "object" } },
    has_more: { type: "boolean", description: "whether more rows follow" },
    page_token: {
      type: "string",
      description: "call again with the same arguments and this page_token for the next page",
    },
  },
  required: ["items", "has_more"],
  additionalProperties: false,
};

/**
 * A tool error's structured content: the error envelope (`errors/envelope.ts`). The official
 * client checks it against the output schema too.
 */
const ERROR_RESULT: JsonSchema = {
  type: "object",
  description: "a tool error (isError: true): the error envelope",
  properties: {
    error: {
      type: "object",
      properties: {
        code: { type: "integer", description: "the exit code hark would exit with" },
        type: { type: "string", description: "the error type, such as auth or validation" },
        message: { type: "string" },
        recovery: {
          type: "object",
          properties: { suggestion: { type: "string" }, command: { type: "string" } },
          required: ["suggestion", "command"],
        },
      },
      required: ["code", "type", "message", "recovery"],
    },
  },
  required: ["error"],
};

/** Any other result: the command's JSON object, or `{items}` for a list, `{result}` else. */
const OBJECT_RESULT: JsonSchema = {
  type: "object",
  description: "the command's JSON output: an object as it is, a list as items",
};

/**
 * The output schema of a tool.
 *
 * @param shape `listing` for a shortcut that streams rows, `object` for anything else
 */
export function outputSchemaOf(shape: "listing" | "object"): JsonSchema & { type: "object" } {
  return {
    type: "object",
    anyOf: [shape === "listing" ? PAGE_RESULT : OBJECT_RESULT, DRY_RUN_RESULT, ERROR_RESULT],
  };
}

/**
 * Adds the paging arguments to a listing tool's input schema: `limit` (the shortcut's own, as the
 * page size, when it has one), `page_token` (hark's, in place of a Lark page token the shortcut
 * takes) and `fields`.
 *
 * @param properties the input schema's properties, changed in place
 * @param params the parameter of each argument, changed in place
 */
export function addPagingArguments(
  properties: Record<string, JsonSchema>,
  params: Map<string, ParamSpec>,
): void {
  const { limit, pageToken, fields } = PAGING_ARGUMENTS;
  const own = properties[limit];
  properties[limit] = {
    ...own,
    type: "integer",
    description:
      `the most rows this call returns${
        own?.default === undefined ? "" : ` (default ${own.default})`
      }; a page also ends before ${PAGE_BUDGET_BYTES / 1000} KB of JSON. When has_more is ` +
      "true, call again with the same arguments and the page_token returned",
  };
  // A Lark page token of the shortcut's own gives way to hark's, which any page can resume.
  params.delete(pageToken);
  properties[pageToken] = {
    type: "string",
    description: "continue a listing: the page_token the previous call returned (same arguments)",
  };
  properties[fields] = {
    type: "array",
    items: { type: "string" },
    description: 'cut every row down to these fields, such as ["event_id", "summary"]',
  };
}
