/**
 * Following Lark's pages (`has_more`, `page_token`) for a listing: up to `--limit` items, or
 * every page with `--page-all`, never more than `--max-pages` pages, and never the same page
 * token twice (a service that repeats one would otherwise loop forever).
 *
 * @module
 */

import { ApiError, ValidationError } from "../errors/hark_error.ts";
import type { ShortcutInput } from "./definition.ts";
import { DEFAULT_MAX_PAGES } from "./max_pages.ts";
import { param, type ValuesOf } from "./param.ts";

export { DEFAULT_MAX_PAGES };

/** How a listing cut by `--limit` begins the warning that says how to go on. */
export const CONTINUE_NOTE = "There is more: continue with --page-token";

/**
 * The warning of a listing cut by `--limit`: the `--page-token` that continues it. `hark mcp`
 * leaves it out of tool results, which carry their own `page_token`.
 *
 * @param token the token that continues the listing
 */
export function continueNote(token: string): string {
  return `${CONTINUE_NOTE} ${token}`;
}

/** One page of a listing, as the caller reads it from an answer. */
export interface Page<T> {
  /** The items of the page. */
  items: readonly T[];
  /** Whether the service has more (`has_more`). */
  hasMore: boolean;
  /** The token of the next page (`page_token`), when there is one. */
  pageToken?: string;
}

/** Options of {@link followPages}. */
export interface FollowPagesOptions {
  /** The most items to yield; `undefined` for all (`--page-all`). */
  limit?: number;
  /** The most pages to read; default {@link DEFAULT_MAX_PAGES}. */
  maxPages?: number;
  /** Called after each page with the pages and items so far (progress). */
  onPage?: (pages: number, items: number) => void;
  /** Called when `maxPages` stopped a listing that had more. */
  onMaxPages?: (pages: number) => void;
}

/**
 * Reads pages until the listing ends, `limit` items were yielded, or `maxPages` pages were read,
 * yielding each page's items as it arrives.
 *
 * @param fetchPage reads the page after `pageToken` (the first page without one)
 * @param options the limits
 * @throws {ApiError} when the service hands out a page token it gave before
 * @example
 * ```ts
 * for await (const users of followPages((token) => searchPage(token), { limit: 50 })) out.write(users);
 * ```
 */
export async function* followPages<T>(
  fetchPage: (pageToken: string | undefined) => Promise<Page<T>>,
  options: FollowPagesOptions = {},
): AsyncGenerator<T[]> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const seen = new Set<string>();
  let token: string | undefined;
  let count = 0;
  for (let pages = 1;; pages++) {
    const page = await fetchPage(token);
    const room = options.limit === undefined ? page.items.length : options.limit - count;
    const items = page.items.slice(0, Math.max(0, room));
    count += items.length;
    options.onPage?.(pages, count);
    if (items.length > 0) yield items;
    if (options.limit !== undefined && count >= options.limit) return;
    if (!page.hasMore || !page.pageToken) return;
    if (seen.has(page.pageToken)) {
      throw new ApiError(
        "The service returned a page token it had given before; stopped reading so as not to " +
          "loop forever",
        { type: "invalid_response", suggestion: "Retry later; the listing so far was written" },
      );
    }
    if (pages >= maxPages) {
      options.onMaxPages?.(pages);
      return;
    }
    seen.add(page.pageToken);
    token = page.pageToken;
  }
}

/**
 * `--limit`, `--page-all` and `--max-pages` of a listing.
 *
 * @param limitDefault the default of `--limit`
 * @param what what is listed, for help (`users`, `messages`)
 */
export function pagingParams(limitDefault: number, what: string) {
  return {
    limit: param.int({ description: `the most ${what} to return`, default: limitDefault }),
    "page-all": param.bool({
      description: "follow every page to the end, ignoring --limit",
      default: false,
    }),
    "max-pages": param.int({
      description: "stop after this many pages (a safety limit)",
      default: DEFAULT_MAX_PAGES,
    }),
  };
}

/** The values of {@link pagingParams}. */
export type PagingValues = ValuesOf<ReturnType<typeof pagingParams>>;

/**
 * The limits of {@link followPages} from a shortcut's paging parameters, with progress on the
 * status line and a warning when `--max-pages` cut the listing short.
 *
 * @param input the shortcut input
 * @param what what is listed, for messages
 * @throws {ValidationError} naming `--limit` or `--max-pages` when below 1
 */
export function pagingOptions(
  input: ShortcutInput<PagingValues>,
  what: string,
): FollowPagesOptions {
  const { values } = input;
  for (const name of ["limit", "max-pages"] as const) {
    if (values[name] < 1) {
      throw new ValidationError(
        `Invalid value "${values[name]}" for --${name}: expected at least 1`,
        {
          param: `--${name}`,
        },
      );
    }
  }
  return {
    limit: values["page-all"] ? undefined : values.limit,
    maxPages: values["max-pages"],
    onPage: (pages, items) => input.ctx.status(`${items} ${what} read (${pages} pages)`),
    onMaxPages: (pages) =>
      input.warn(
        `Stopped after ${pages} pages (--max-pages); the service has more: raise --max-pages to ` +
          "read further",
      ),
  };
}
