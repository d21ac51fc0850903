/**
 * The request as hark would send it: URL building and the `--dry-run` preview.
 *
 * @module
 */

import { ValidationError } from "../errors/mod.ts";
import { VERSION } from "../version.ts";
import { maskFields, maskObjectFields } from "./mask_fields.ts";

/**
 * Who a call acts as, by the token it carries: `user` a user access token, `bot` the app's tenant
 * token (the auth layer's identities; the HTTP layer does not import it).
 */
export type CallIdentity = "user" | "bot";

/** The HTTP methods of business calls. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** One business call. */
export interface ApiRequest {
  /** The HTTP method. GET, PUT and DELETE are idempotent and retried after any failure. */
  method: HttpMethod;
  /** `/open-apis/calendar/v4/...`, path segments already URL-encoded. */
  path: string;
  /** Query parameters; `undefined` values are left out, a list repeats its key. */
  query?: Record<string, string | number | boolean | readonly string[] | undefined>;
  /** The body, sent as JSON. */
  body?: unknown;
  /**
   * A multipart form sent instead of a JSON body (uploads): its file is streamed from disk, and
   * opened again for each attempt.
   */
  form?: UploadForm;
  /**
   * The idempotency key the body carries (message send's `uuid`). Not sent by the client: its
   * presence tells the client that a POST or PATCH may be retried after it reached the service
   * (5xx, dropped connection, broken answer). Set it on a POST that only reads, too.
   */
  idempotencyKey?: string;
  /**
   * A POST whose repetition does no harm although it carries no idempotency key (an upload that
   * only stores a file and answers its key: a second one leaves an unused copy): retried like a
   * GET.
   */
  repeatable?: boolean;
  /** The scopes the call needs, named in a permission error when the service names none. */
  scopes?: string[];
  /**
   * The identity whose token the call must carry whatever the command acts as: `bot` for the
   * calls Lark takes with the tenant token only (im-v1 image and file create). Absent: the
   * command's identity.
   */
  identity?: CallIdentity;
  /** Cancels the call; composed with the context's Ctrl-C signal. */
  signal?: AbortSignal;
  /**
   * A clean-up call that must run even after Ctrl-C (undoing half of a two-step change): the
   * context's signal does not cancel it, only `signal` does — give it a timeout.
   */
  cleanup?: boolean;
}

/** The file part of an upload. */
export interface UploadFile {
  /** The form field that holds it, such as `image` or `file`. */
  field: string;
  /** Where it is on disk. */
  path: string;
  /** The file name the part carries. */
  name: string;
  /** The part's `Content-Type`. */
  contentType: string;
  /**
   * The most bytes of it sent (the service's limit): a file that grew past it since it was
   * checked stops the upload with an error, never sent whole.
   */
  maxBytes?: number;
  /** The flag it was named by (`--file`), for that error. */
  flag?: string;
}

/** A `multipart/form-data` body: text fields, then one file. */
export interface UploadForm {
  /** The text fields, in order. */
  fields: Record<string, string>;
  /** The file. */
  file: UploadFile;
}

/** What `--dry-run` prints for a request. */
export interface RequestPreview {
  /** The HTTP method. */
  method: string;
  /** The full URL, with the query. */
  url: string;
  /** The query parameters. */
  query: Record<string, string>;
  /** The headers, `Authorization` masked as `Bearer ****`. */
  headers: Record<string, string>;
  /**
   * Which token `Authorization` would carry, in Lark's words: `user_access_token` or
   * `tenant_access_token`; absent when the caller did not say which identity sends it.
   */
  token?: "user_access_token" | "tenant_access_token";
  /**
   * The JSON body, secret fields masked; for a multipart form its fields, the file shown as
   * `@<path>`; absent when there is none.
   */
  body?: unknown;
}

/** `User-Agent` of every call: `hark/<version>`. */
export const USER_AGENT = `hark/${VERSION}`;

/**
 * Whether a path segment is `.` or `..`, also percent-encoded (`%2e%2e`, `.%2E`): URL parsing
 * resolves those as it resolves `..`, which would address another resource (an event id `..`
 * names the calendar itself) or climb out of `/open-apis/`.
 *
 * @param segment one segment of a path
 */
export function isDotSegment(segment: string): boolean {
  const decoded = segment.replace(/%2e/gi, ".");
  return decoded === "." || decoded === "..";
}

/**
 * The URL of a request: `baseUrl` + `path`, with the query appended (undefined values left out).
 *
 * @param baseUrl the service address, such as `https://open.larksuite.com`
 * @param request the request
 * @throws {ValidationError} when a segment of the path is `.` or `..` (plain or percent-encoded):
 *   URL parsing would drop it and the request would go to another resource
 * @throws {TypeError} when the result is not a valid URL
 */
export function requestUrl(baseUrl: string, request: Pick<ApiRequest, "path" | "query">): URL {
  const path = request.path.startsWith("/") ? request.path : `/${request.path}`;
  // The URL parser reads `\` as `/`: a segment `..\..` is two dot segments to it.
  const dot = path.split(/[?#]/, 1)[0].split(/[\\/]/).find(isDotSegment);
  if (dot !== undefined) {
    throw new ValidationError(
      `Cannot send a request to ${JSON.stringify(path)}: its path has the segment ` +
        `${JSON.stringify(dot)}, which URL parsing would drop (the request would reach another ` +
        "resource)",
      { param: "path", suggestion: 'Give real ids: an id is never "." or ".."' },
    );
  }
  const url = new URL(baseUrl.replace(/\/+$/, "") + path);
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      url.searchParams.append(key, String(item));
    }
  }
  return url;
}

/**
 * The headers of a request carrying `token`.
 *
 * @param token the bearer token
 * @param hasBody whether a JSON body is sent
 */
export function requestHeaders(token: string, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    "Authorization": `Bearer ${token}`,
    "User-Agent": USER_AGENT,
    "Accept": "application/json",
  };
  if (hasBody) headers["Content-Type"] = "application/json; charset=utf-8";
  return headers;
}

/**
 * What `--dry-run` prints for a request: method, full URL, query, headers with Authorization
 * masked, which token it would carry, and the body with secret fields masked. Needs no token.
 *
 * @param baseUrl the service address
 * @param request the request
 * @param identity who sends it unless the request says (its {@link ApiRequest.identity}); absent:
 *   the preview names no token
 * @example
 * ```ts
 * previewRequest("https://open.larksuite.com", {
 *   method: "GET",
 *   path: "/open-apis/search/v1/user",
 *   query: { query: "ann", page_size: 20 },
 * }).url; // "https://open.larksuite.com/open-apis/search/v1/user?query=ann&page_size=20"
 * ```
 */
export function previewRequest(
  baseUrl: string,
  request: ApiRequest,
  identity?: CallIdentity,
): RequestPreview {
  const url = requestUrl(baseUrl, request);
  const hasBody = request.body !== undefined;
  const preview: RequestPreview = {
    method: request.method,
    url: url.toString(),
    query: Object.fromEntries(url.searchParams),
    headers: requestHeaders("****", hasBody),
  };
  const sender = request.identity ?? identity;
  if (sender !== undefined) {
    preview.token = sender === "bot" ? "tenant_access_token" : "user_access_token";
  }
  if (hasBody) preview.body = maskFields(request.body);
  if (request.form) {
    const { fields, file } = request.form;
    preview.headers["Content-Type"] = "multipart/form-data";
    preview.body = {
      ...maskObjectFields(fields),
      [file.field]: `@${file.path}`,
    };
  }
  return preview;
}
