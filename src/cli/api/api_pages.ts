/**
 * The pages of a raw answer: `--page-all` follows `page_token` to the end with the shortcuts'
 * safety limits (`src/shortcuts/paging.ts`), and a table or CSV says where the page ended.
 *
 * @module
 */

import type { ApiRequest } from "../../http/request.ts";
import { booleanField, isObject, type JsonObject, stringField } from "../../json/fields.ts";
import { terminalSafe } from "../../output/terminal_safe.ts";
import { followPages } from "../../shortcuts/paging.ts";

/** The list of an answer's data: its one array field (`items`, `users`…), by name. */
export function listKeyOf(data: unknown): string | undefined {
  if (!isObject(data)) return undefined;
  const keys = Object.keys(data).filter((key) => Array.isArray(data[key]));
  return keys.length === 1 ? keys[0] : undefined;
}

/** The request for the page after `pageToken` (the query's `page_token`, Lark's for every list). */
export function pageRequest(request: ApiRequest, pageToken: string | undefined): ApiRequest {
  if (pageToken === undefined) return request;
  const cut = request.path.indexOf("?");
  const path = cut < 0 ? request.path : request.path.slice(0, cut);
  const query = new URLSearchParams(cut < 0 ? "" : request.path.slice(cut + 1));
  query.set("page_token", pageToken);
  return { ...request, path: `${path}?${query}` };
}

/** Options of {@link fetchAllPages}. */
export interface AllPagesOptions {
  /** The most pages to read. */
  maxPages: number;
  /** Told when `maxPages` stopped a listing that had more. */
  onMaxPages: (pages: number) => void;
  /** Told after each page (progress). */
  onPage?: (pages: number, items: number) => void;
}

/**
 * Reads every page of a listing and joins them: the first page's data with the items of all
 * pages under its list key, `has_more` and `page_token` as the last page read left them.
 *
 * @param send sends one request and returns the answer's data
 * @param request the first page's request
 * @param options the limits
 * @returns the joined data; the first page's data as it is when it holds no single list
 * @throws {ApiError} when the service hands out a page token it gave before
 */
export async function fetchAllPages(
  send: (request: ApiRequest) => Promise<unknown>,
  request: ApiRequest,
  options: AllPagesOptions,
): Promise<unknown> {
  let first: JsonObject | undefined;
  let last: unknown;
  let key: string | undefined;
  const items: unknown[] = [];
  const pages = followPages(async (token) => {
    last = await send(pageRequest(request, token));
    first ??= isObject(last) ? last : undefined;
    key ??= listKeyOf(last);
    const list = key !== undefined && isObject(last) ? last[key] : undefined;
    return {
      items: Array.isArray(list) ? list : [],
      // Without a list there is nothing to join: the first page is the answer.
      hasMore: key !== undefined && booleanField(last, "has_more") === true,
      pageToken: stringField(last, "page_token"),
    };
  }, options);
  for await (const batch of pages) items.push(...batch);
  if (first === undefined || key === undefined) return last;
  const joined: JsonObject = { ...first, [key]: items };
  joined.has_more = booleanField(last, "has_more") ?? false;
  // The token of the last page read (none at the end), not the first page's.
  delete joined.page_token;
  const token = stringField(last, "page_token");
  if (token !== undefined) joined.page_token = token;
  return joined;
}

/**
 * The line a table or CSV of a listing ends with on stderr, so that the paging fields stay in
 * sight: `has_more: true, page_token: "…"`, and how to read on. Nothing for an answer without
 * paging fields.
 *
 * @param data the answer's data
 * @returns the line, or `undefined`
 */
export function pagingLine(data: unknown): string | undefined {
  const hasMore = booleanField(data, "has_more");
  const token = stringField(data, "page_token");
  if (hasMore === undefined && token === undefined) return undefined;
  const parts = [`has_more: ${hasMore ?? false}`];
  // The token came from the network: shown terminal-safe, and cut if it is absurdly long.
  if (token !== undefined && token !== "") {
    parts.push(`page_token: ${terminalSafe(JSON.stringify(token.slice(0, 200)))}`);
  }
  const more = hasMore === true
    ? " (next page: -f page_token=<page_token>; every page: --page-all)"
    : "";
  return `${parts.join(", ")}${more}`;
}
