/**
 * `hark api <METHOD> <path>`: a raw call to any Open Platform endpoint, with the same auth,
 * retries, errors and output as the shortcuts.
 *
 * @module
 */

import type { Context } from "../../context.ts";
import { parseScopes } from "../../auth/scopes.ts";
import { HarkError, ValidationError } from "../../errors/mod.ts";
import { shellQuote } from "../../errors/shell_quote.ts";
import { readJson } from "../../json/read_json.ts";
import {
  type ApiRequest,
  type HttpMethod,
  isDotSegment,
  previewRequest,
} from "../../http/request.ts";
import { formatJson, writeData } from "../../output/output.ts";
import type { CommandCall, FlagValuesOf } from "../command_spec.ts";
import type { API_FLAGS } from "./api.ts";
import { openSession, type Session } from "../session.ts";
import { API_METHODS } from "./api.ts";

/**
 * Runs `hark api <METHOD> <path>`.
 *
 * @param call the parsed command line
 */
export async function runApiCommand(
  call: CommandCall<FlagValuesOf<typeof API_FLAGS>>,
): Promise<void> {
  const [method, path] = call.args;
  const { flags } = call;
  await runApi(await openSession(call.ctx, call.globals), {
    method,
    path,
    params: flags.params,
    data: flags.data,
    idempotencyKey: flags["idempotency-key"],
    scopes: flags.scope,
  });
}

/** The parsed arguments of `hark api`. */
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
  const upper = method.toUpperCase() as HttpMethod;
  if (!API_METHODS.includes(upper)) {
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
 * @throws {ValidationError} for a full URL, an empty path or `.` and `..` segments, plain or
 *   percent-encoded
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
  if (/[\s\p{Cc}]/u.test(rest)) {
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

/**
 * A failed write that may have been applied, sent with `--idempotency-key`: the advice to send it
 * again with the same key (the body must carry the same key for the service to see it).
 *
 * @param error the failure
 * @param options the arguments
 */
export function apiRetryAdvice(error: HarkError, options: ApiOptions): HarkError {
  if (!error.mayHaveApplied || options.idempotencyKey === undefined) return error;
  const words = ["hark", "api", options.method.toUpperCase(), shellQuote(options.path)];
  if (options.params !== undefined) words.push("--params", shellQuote(options.params));
  if (options.data !== undefined) words.push("--data", shellQuote(options.data));
  for (const scope of options.scopes ?? []) words.push("--scope", shellQuote(scope));
  words.push("--idempotency-key", shellQuote(options.idempotencyKey));
  const stdin = options.params === "-" || options.data === "-";
  return error.withRecovery({
    suggestion: "The request may have been applied before its answer was lost: check, or send " +
      "it again with the same idempotency key (and the same body)" +
      (stdin ? "; give it the same input on stdin again" : ""),
    command: words.join(" "),
  });
}

/**
 * Reads a JSON flag value: inline JSON, `@file`, or `-` for stdin.
 *
 * @param ctx the context (files, stdin)
 * @param value the flag's value
 * @param flag the flag, for messages (`--data`)
 * @returns the parsed JSON
 * @throws {ValidationError} naming the flag, and the line and column of a syntax error
 */
export async function readJsonFlag(ctx: Context, value: string, flag: string): Promise<unknown> {
  let input: string | Uint8Array = value;
  let source = flag;
  if (value === "-") {
    if (ctx.stdin.isTerminal) {
      throw new ValidationError(`Cannot read ${flag} from stdin: stdin is a terminal`, {
        param: flag,
        suggestion: `Pipe the JSON in, or pass it inline or as ${flag} @file`,
      });
    }
    input = await ctx.stdin.readAll();
    source = `${flag} (stdin)`;
  } else if (value.startsWith("@")) {
    const path = value.slice(1);
    try {
      input = await ctx.fs.readFile(path);
    } catch (error) {
      const reason = error instanceof Error && error.name === "NotFound"
        ? "no such file"
        : error instanceof Error
        ? error.message
        : String(error);
      throw new ValidationError(`Cannot read ${flag} file "${path}": ${reason}`, {
        param: flag,
        cause: error,
      });
    }
    source = `${flag} (file "${path}")`;
  }
  return readJson(input, { source, param: flag });
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
    const values = Array.isArray(raw) ? raw : [raw];
    if (!values.every(isScalar)) {
      throw new ValidationError(
        `Invalid --params value for "${key}": expected a string, number, boolean or a list of them`,
        { param: "--params" },
      );
    }
    query.delete(key);
    for (const item of values as (QueryValue | null)[]) {
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

/**
 * Runs `hark api`: with `--dry-run` prints the request (Authorization masked) and sends nothing;
 * otherwise sends it as `--as` (default user) and writes the answer's `data`.
 *
 * @param session the command's session
 * @param options the arguments
 * @throws {ValidationError} for bad arguments
 * @throws {HarkError} the errors of `ApiClient.request`
 */
export async function runApi(session: Session, options: ApiOptions): Promise<void> {
  const { ctx, globals } = session;
  const request = await buildApiRequest(ctx, options);
  if (globals.dryRun) {
    const preview = previewRequest(session.baseUrl(), request);
    ctx.stdout.write(formatJson(preview, ctx.stdout.isTerminal) + "\n");
    return;
  }
  let data: unknown;
  try {
    data = await session.client().request(request);
  } catch (error) {
    throw error instanceof HarkError ? apiRetryAdvice(error, options) : error;
  }
  const format = session.output.format ?? session.output.preferences?.output_format ?? "json";
  const output = { ...session.output, format };
  writeData(ctx, output, session.wantsJson() ? (data ?? {}) : tableData(data));
}

/**
 * What a table or CSV shows of an answer: the list when the data holds exactly one list (such as
 * `items` or `users`), else the data itself.
 *
 * @param data the answer's data
 */
export function tableData(data: unknown): unknown {
  if (data === undefined || data === null) return {};
  if (typeof data === "object" && !Array.isArray(data)) {
    const lists = Object.values(data).filter(Array.isArray);
    if (lists.length === 1) return lists[0];
  }
  return data;
}
