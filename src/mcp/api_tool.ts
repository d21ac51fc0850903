/**
 * `hark api` as one MCP tool, `api`, exposed only with `hark mcp --allow-raw-api`: any Open
 * Platform endpoint with hark's sign-in, retries and errors. With `--read-only` it sends GET
 * requests only.
 *
 * @module
 */

import type { Identity } from "../auth/identity.ts";
import { IDENTITIES } from "../auth/identity.ts";
import { API_METHODS } from "../api_call/api_methods.ts";
import type { ApiOptions } from "../api_call/api_request.ts";
import { ValidationError } from "../errors/mod.ts";
import { EXTRA_ARGUMENTS, type McpTool } from "./tool_schema.ts";
import { outputSchemaOf } from "./tool_output.ts";

/** The name of the raw API tool. */
export const API_TOOL_NAME = "api";

/** The raw API tool with how it was configured. */
export interface ApiTool {
  /** The tool as listed. */
  tool: McpTool;
  /** Whether only GET is allowed (`--read-only`). */
  readOnly: boolean;
  /** Whether the tool takes `as`. */
  takesAs: boolean;
}

/**
 * The `api` tool.
 *
 * @param options `readOnly` allows GET only; `identity` fixes who acts
 */
export function apiTool(options: { readOnly: boolean; identity?: Identity }): ApiTool {
  const methods = options.readOnly ? ["GET"] : [...API_METHODS];
  const takesAs = options.identity === undefined;
  const properties: McpTool["inputSchema"]["properties"] = {
    method: { type: "string", enum: methods, description: "the HTTP method" },
    path: {
      type: "string",
      description: "the endpoint, such as /open-apis/calendar/v4/calendars (the /open-apis/ " +
        "prefix is optional; a query may follow ?)",
    },
    params: {
      type: "object",
      description: "query parameters: strings, numbers, booleans or lists of them",
    },
    data: {
      anyOf: [{ type: "object" }, { type: "array" }],
      description: "the JSON body",
    },
    idempotency_key: {
      type: "string",
      description: "marks a POST or PATCH as safe to retry (the body must carry the key, " +
        "such as uuid of a message)",
    },
    scopes: {
      type: "array",
      items: { type: "string" },
      description: "scopes the call needs, named in a permission error when Lark names none",
    },
  };
  if (takesAs) {
    properties[EXTRA_ARGUMENTS.as] = {
      type: "string",
      enum: [...IDENTITIES],
      default: "user",
      description: "who acts: user (the signed-in person) or bot (the app)",
    };
  }
  properties[EXTRA_ARGUMENTS.dryRun] = {
    type: "boolean",
    default: false,
    description: "return the request it would send, and send nothing",
  };
  if (!options.readOnly) {
    properties[EXTRA_ARGUMENTS.yes] = {
      type: "boolean",
      default: false,
      description: "confirm a DELETE: without yes: true no DELETE is sent",
    };
  }
  const what = options.readOnly
    ? "Call any Lark Open Platform endpoint with GET (hark runs read-only), for what no other " +
      "tool covers. The result is the answer's data."
    : "Call any Lark Open Platform endpoint, for what no other tool covers. The result is the " +
      "answer's data. Calls other than GET may change or delete data: preview with dry_run: " +
      "true; a DELETE runs only with yes: true.";
  const who = options.identity === "bot"
    ? "Acts as the app's bot."
    : options.identity === "user"
    ? "Acts as the signed-in user."
    : 'Acts as the signed-in user; as: "bot" acts as the app\'s bot.';
  return {
    tool: {
      name: API_TOOL_NAME,
      title: "hark api",
      description: `${what} ${who}`,
      inputSchema: {
        type: "object",
        properties,
        required: ["method", "path"],
        additionalProperties: false,
      },
      outputSchema: outputSchemaOf("object"),
      annotations: {
        title: "hark api",
        readOnlyHint: options.readOnly,
        destructiveHint: !options.readOnly,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    readOnly: options.readOnly,
    takesAs,
  };
}

/**
 * The options of `hark api` from the tool's checked arguments. Objects are passed as JSON text,
 * which `hark api` reads as inline JSON (never as `@file` or stdin).
 *
 * @param api the tool
 * @param args the arguments, already checked against the schema's names and required ones
 * @throws {ValidationError} for a method other than GET in read-only mode, a bad argument type,
 *   or a DELETE without `yes: true`
 */
export function apiOptionsOf(
  api: ApiTool,
  args: Record<string, unknown>,
  dryRun: boolean,
): ApiOptions {
  const text = (name: string): string | undefined => {
    const value = args[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string") {
      throw new ValidationError(`Invalid argument "${name}": expected a string`, { param: name });
    }
    return value;
  };
  const required = (name: string): string => {
    const value = text(name);
    if (value === undefined) {
      throw new ValidationError(`Missing required argument "${name}"`, { param: name });
    }
    return value;
  };
  const method = required("method").toUpperCase();
  if (api.readOnly && method !== "GET") {
    throw new ValidationError(
      `Cannot send ${method}: hark mcp runs with --read-only, which allows GET only`,
      {
        param: "method",
        suggestion: "Ask the person running hark to restart it without --read-only",
      },
    );
  }
  if (method === "DELETE" && !dryRun && args[EXTRA_ARGUMENTS.yes] !== true) {
    throw new ValidationError("Cannot send DELETE without confirmation: pass yes: true", {
      param: EXTRA_ARGUMENTS.yes,
      suggestion: "Confirm with the person you act for, then call again with yes: true " +
        "(or preview with dry_run: true)",
    });
  }
  const scopes = args.scopes ?? undefined;
  if (
    scopes !== undefined &&
    (!Array.isArray(scopes) || !scopes.every((s): s is string => typeof s === "string"))
  ) {
    throw new ValidationError('Invalid argument "scopes": expected a list of strings', {
      param: "scopes",
    });
  }
  const json = (name: string) =>
    args[name] === undefined || args[name] === null ? undefined : JSON.stringify(args[name]);
  return {
    method,
    path: required("path"),
    params: json("params"),
    data: json("data"),
    idempotencyKey: text("idempotency_key"),
    scopes,
  };
}
