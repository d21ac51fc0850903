/**
 * A raw call to any Open Platform endpoint, as `hark api` and the MCP server's `api` tool take
 * it: the method, the path, query parameters and body as JSON (inline, `@file` or stdin), an
 * idempotency key and the scopes the call needs, checked and built into one request (no
 * network).
 *
 * @module
 */

import type { Context } from "../context.ts";
import { parseScopes } from "../auth/scopes.ts";
import { ValidationError } from "../errors/mod.ts";
import { type ApiRequest, type HttpMethod, isDotSegment } from "../http/request.ts";
import { isOneOf } from "../json/is_one_of.ts";
import { API_METHODS } from "./api_methods.ts";
import { readJsonFlag } from "./read_json_flag.ts";
import { hasSpaceOrControl } from "../text_classes.ts";

/** The arguments of a raw API call: `hark api`'s, or the MCP server's `api` tool's. */
export interface ApiOptions {
  /** The HTTP method, any case. */
  method: string;
  /** `/open-apis/...`, or the part after `/open-apis/`; may carry a query. */
  path: string;
  /** `--params`: a JSON object of query parameters, `@file`, or `-` for stdin. */
  params?: string;
  /** `--data`: a JSON body, `@file`, or `-` for stdin. */
  data?: string;
  /** `--idempotency-key`: lets a POST or PATCH be retried after it reached the service. */
  idempotencyKey?: string;
  /** `--scope`: scopes the call needs, named in a permission error when the service names none. */
  scopes?: string[];
}

/**
 * Checks the method.
 *
 * @param method as typed
 * @returns the method in upper case
 * @throws {ValidationError} naming the method and the allowed ones
 */
export function parseMethod(method: string): HttpMethod {
  const upper = method.toUpperCase();
  if (!isOneOf(API_METHODS, upper)) {
    throw new ValidationError(
      `Invalid method "${method}": expected one of ${API_METHODS.join(", ")}`,
      { param: "<METHOD>" },
    );
  }
  return upper;
}

/**
 * Normalizes the path: `/open-apis/...` stays; `calendar/v4/...` or `/calendar/v4/...` gets the
 * `/open-apis/` prefix. A query in the path is split off.
 *
 * @param path as typed
 * @returns the path and the query parameters it carried
 * @throws {ValidationError} for a full URL, an empty path, `.` and `..` segments (plain or
 *   percent-encoded), a backslash or a percent-encoded slash or backslash
 */
export function parseApiPath(path: string): { path: string; query: URLSearchParams } {
  const text = path.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    throw new ValidationError(`Invalid path "${path}": give the path, not a full URL`, {
      param: "<path>",
      suggestion: "Drop the scheme and host (the profile's base_url is used), e.g. " +
        "/open-apis/calendar/v4/calendars",
    });
  }
  const cut = text.indexOf("?");
  const bare = cut >= 0 ? text.slice(0, cut) : text;
  const query = new URLSearchParams(cut >= 0 ? text.slice(cut + 1) : "");
  const rest = bare.replace(/^\/+/, "").replace(/^open-apis(\/|$)/, "");
  if (rest === "" || rest.split("/").some(isDotSegment)) {
    throw new ValidationError(`Invalid path "${path}"`, {
      param: "<path>",
      suggestion: "Give an Open Platform path such as /open-apis/calendar/v4/calendars",
    });
  }
  // The URL parser reads `\` as `/` (so `..\..\x` climbs out of /open-apis/), and a server may
  // decode `%2F` or `%5C` into one: neither can be part of a path to an Open API.
  const separator = /\\|%2f|%5c/i.exec(rest)?.[0];
  if (separator !== undefined) {
    throw new ValidationError(
      `Invalid path ${JSON.stringify(path)}: it contains "${separator}", which could reach a ` +
        "path outside /open-apis/",
      {
        param: "<path>",
        suggestion: "Separate the path's segments with / only, such as " +
          "/open-apis/calendar/v4/calendars",
      },
    );
  }
  if (hasSpaceOrControl(rest)) {
    throw new ValidationError(
      `Invalid path ${JSON.stringify(path)}: it contains white space or control characters`,
      {
        param: "<path>",
        suggestion: "URL-encode the path segments",
      },
    );
  }
  return { path: `/open-apis/${rest}`, query };
}

type QueryValue = string | number | boolean;

/**
 * Turns the `--params` JSON into query parameters: scalars, or lists of scalars (repeated
 * parameters); `null` leaves a parameter out.
 *
 * @param value the parsed JSON
 * @param query where to add them (parameters in the path come first and are replaced)
 * @throws {ValidationError} when it is not an object of scalars
 */
export function addQueryParams(value: unknown, query: URLSearchParams): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ValidationError("Invalid --params: expected a JSON object of query parameters", {
      param: "--params",
      suggestion: `Give an object such as '{"page_size": 50}'`,
    });
  }
  for (const [key, raw] of Object.entries(value)) {
    const values: unknown[] = Array.isArray(raw) ? raw : [raw];
    if (!values.every(isScalar)) {
      throw new ValidationError(
        `Invalid --params value for "${key}": expected a string, number, boolean or a list of them`,
        { param: "--params" },
      );
    }
    query.delete(key);
    for (const item of values) {
      if (item !== null) query.append(key, String(item));
    }
  }
}

function isScalar(value: unknown): value is QueryValue | null {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

/**
 * Builds the request of `hark api` from its arguments (no network).
 *
 * @param ctx the context (files, stdin)
 * @param options the arguments
 * @throws {ValidationError} for a bad method, path or JSON
 */
export async function buildApiRequest(ctx: Context, options: ApiOptions): Promise<ApiRequest> {
  const method = parseMethod(options.method);
  const { path, query } = parseApiPath(options.path);
  if (options.params === "-" && options.data === "-") {
    throw new ValidationError("Only one of --params and --data can read stdin", {
      param: "--data",
      suggestion: "Pass the other one inline or as @file",
    });
  }
  if (options.params !== undefined) {
    addQueryParams(await readJsonFlag(ctx, options.params, "--params"), query);
  }
  const search = query.toString();
  const request: ApiRequest = { method, path: search === "" ? path : `${path}?${search}` };
  if (options.data !== undefined) {
    const body = await readJsonFlag(ctx, options.data, "--data");
    if (body === null || typeof body !== "object") {
      throw new ValidationError("Invalid --data: expected a JSON object (or array) as the body", {
        param: "--data",
        suggestion: `Give the body, such as '{"receive_id": "oc_123"}'`,
      });
    }
    request.body = body;
  }
  if (options.idempotencyKey !== undefined) {
    if (options.idempotencyKey.trim() === "") {
      throw new ValidationError("Invalid --idempotency-key: it is empty", {
        param: "--idempotency-key",
      });
    }
    request.idempotencyKey = options.idempotencyKey;
  }
  if (options.scopes && options.scopes.length > 0) request.scopes = parseScopes(options.scopes);
  return request;
}
