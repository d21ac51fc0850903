/**
 * Results that fit a context window: a listing tool's rows go out a page at a time, cut at
 * `limit` rows or at {@link PAGE_BUDGET_BYTES} of JSON, whichever comes first, with `has_more`
 * and an opaque `page_token` that continues it. The token is hark's, not Lark's: where to resume
 * (the rows already sent) bound to the tool and the other arguments, so a token is never applied
 * to another listing. A resumed call runs the listing again and skips what was sent.
 *
 * @module
 */

import { ValidationError } from "../errors/mod.ts";
import { numberField } from "../json/fields.ts";
import { cursorBinding, encodeCursor, isCountField, openCursor } from "../json/page_cursor.ts";
import { parseFields } from "../output/fields.ts";

/** The most JSON one page of a listing carries, in bytes (about 25k tokens). */
export const PAGE_BUDGET_BYTES = 100_000;

/** Room kept in a page for `has_more`, `page_token` and the braces around the rows. */
const ENVELOPE_BYTES = 2_000;

/** The arguments of listing tools that the MCP layer reads, not the shortcut. */
export const PAGING_ARGUMENTS = {
  /** The most rows one call returns. */
  limit: "limit",
  /** Where to continue: the token a previous call returned. */
  pageToken: "page_token",
  /** Cut every row down to these fields. */
  fields: "fields",
} as const;

/** Where a call of a listing tool starts and how much it returns. */
export interface PageRequest {
  /** The rows already sent, skipped. */
  offset: number;
  /** The most rows to return; undefined: as many as fit the budget. */
  limit?: number;
  /** What binds a token to the tool and the other arguments. */
  binding: string;
}

/** One page of a listing, as a tool result carries it. */
export interface ListingPage {
  /** The rows of this page. */
  items: unknown[];
  /** Whether more rows follow. */
  has_more: boolean;
  /** The token that continues the listing, when more rows follow. */
  page_token?: string;
}

/**
 * Reads the paging arguments of a call.
 *
 * @param tool the tool's name
 * @param values the call's arguments (the paging ones included)
 * @throws {ValidationError} naming `page_token` for a token that is not one of hark's, or that
 *   another tool or other arguments returned; naming `limit` for a count below 1
 */
export async function pageRequestOf(
  tool: string,
  values: Record<string, unknown>,
): Promise<PageRequest> {
  const { [PAGING_ARGUMENTS.pageToken]: token, ...others } = values;
  const binding = await cursorBinding(tool, others);
  const limit = values[PAGING_ARGUMENTS.limit];
  if (limit !== undefined && (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1)) {
    throw new ValidationError(`Invalid argument "limit": expected a whole number of 1 or more`, {
      param: PAGING_ARGUMENTS.limit,
    });
  }
  const request = { offset: 0, limit, binding };
  if (token === undefined) return request;
  const cursor = openCursor(token, binding, (c) => isCountField(c, "o"));
  const offset = typeof cursor === "string" ? undefined : numberField(cursor, "o");
  if (cursor === "foreign") {
    throw new ValidationError(`Invalid argument "page_token": not a token ${tool} returned`, {
      param: PAGING_ARGUMENTS.pageToken,
      suggestion: "Give the page_token of the previous page as it was, or leave it out to start " +
        "at the first row",
    });
  }
  if (cursor === "other-arguments" || offset === undefined) {
    throw new ValidationError(
      `Invalid argument "page_token": it continues a call of ${tool} with other arguments`,
      {
        param: PAGING_ARGUMENTS.pageToken,
        suggestion: "Call again with exactly the arguments of the call that returned the token " +
          "(only page_token changes), or leave page_token out to start over",
      },
    );
  }
  return { ...request, offset };
}

/**
 * The page of `rows` a call returns: from the request's offset, at most `limit` rows and at most
 * {@link PAGE_BUDGET_BYTES} of JSON (always at least one row, so a listing always advances).
 *
 * @param rows every row of the listing
 * @param request where to start, how many
 * @param budget the most bytes of JSON; default {@link PAGE_BUDGET_BYTES}
 */
export function cutPage(
  rows: readonly unknown[],
  request: PageRequest,
  budget = PAGE_BUDGET_BYTES,
): ListingPage {
  const encoder = new TextEncoder();
  const items: unknown[] = [];
  let bytes = ENVELOPE_BYTES;
  for (let i = request.offset; i < rows.length; i++) {
    if (request.limit !== undefined && items.length >= request.limit) break;
    const size = encoder.encode(JSON.stringify(rows[i]) ?? "null").length + 1;
    if (items.length > 0 && bytes + size > budget) break;
    items.push(rows[i]);
    bytes += size;
  }
  const next = request.offset + items.length;
  if (next >= rows.length) return { items, has_more: false };
  return { items, has_more: true, page_token: encodeCursor({ o: next, b: request.binding }) };
}

/**
 * Fits a listing shortcut's command line to a page: its own `limit` (the page size, or its
 * default) becomes the rows to read up to the end of the page and one more, so that the cut
 * knows whether more follow; and `fields`, given as a list, is checked as `--fields` is.
 *
 * @param argv the shortcut's values by parameter name, changed in place
 * @param request the page
 * @param ownLimit the shortcut's `limit`, when it has one, and its default (`+agenda`'s has
 *   none: without a `limit` argument the whole listing is read)
 * @param fields the `fields` argument
 * @returns the fields to project rows to, if any
 * @throws {ValidationError} naming `fields` when it is not a list of field names
 */
export function fitListing(
  argv: Record<string, unknown>,
  request: PageRequest,
  ownLimit: { default?: number } | undefined,
  fields: unknown,
): string[] | undefined {
  const size = request.limit ?? ownLimit?.default;
  if (ownLimit !== undefined) {
    argv.limit = size === undefined ? undefined : request.offset + size + 1;
  }
  if (fields === undefined) return undefined;
  if (!Array.isArray(fields) || !fields.every((f) => typeof f === "string")) {
    throw new ValidationError(`Invalid argument "fields": expected a list of field names`, {
      param: PAGING_ARGUMENTS.fields,
      suggestion: 'Give field names, such as ["event_id", "summary"]',
    });
  }
  return parseFields(fields.join(","));
}
