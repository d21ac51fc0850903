/**
 * `--page-token` of the IM listings: start a listing at the page a previous run stopped before,
 * and, when a listing stops at `--limit` with more to read, the warning that says which token
 * continues it. Page tokens come from the network: one that is not plain printable text is never
 * echoed to the terminal.
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import { param } from "../param.ts";
import { quoted } from "../contact/ids.ts";
import { continueNote, followPages, type FollowPagesOptions, type Page } from "../paging.ts";

/** The longest page token taken or shown. */
export const MAX_PAGE_TOKEN_LENGTH = 1024;
const TOKEN_SHAPE = /^[A-Za-z0-9_\-=+/.~:|%]+$/;

/** `--page-token`, for any IM listing. */
export const PAGE_TOKEN_PARAM = param.string({
  description: "start at this page: the token a previous, shorter listing printed",
  valueName: "<token>",
});

/**
 * The page token a listing starts at, checked; `undefined` to start at the first page.
 *
 * @param value `--page-token` as given
 * @throws {ValidationError} naming `--page-token` for blank, over-long or non-printable text
 */
export function startToken(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const token = value.trim();
  if (token.length > MAX_PAGE_TOKEN_LENGTH || !TOKEN_SHAPE.test(token)) {
    throw new ValidationError(
      `Invalid value ${quoted(value)} for --page-token: expected the token a previous listing ` +
        "printed",
      { param: "--page-token", suggestion: "Leave --page-token out to start at the first page" },
    );
  }
  return token;
}

/**
 * {@link followPages} from `start`; when the listing stopped at a page boundary with more to
 * read (`--limit`, `--max-pages`), warns with the `--page-token` that continues it.
 *
 * @param fetchPage reads the page after a token
 * @param options the limits
 * @param start the first page's token (`--page-token`)
 * @param warn where the continuation warning goes
 */
export async function* resumablePages<T>(
  fetchPage: (pageToken: string | undefined) => Promise<Page<T>>,
  options: FollowPagesOptions,
  start: string | undefined,
  warn: (message: string) => void,
): AsyncGenerator<T[]> {
  let last: Page<T> | undefined;
  let fetched = 0;
  let yielded = 0;
  const pages = followPages(async (token) => {
    last = await fetchPage(token ?? start);
    fetched += last.items.length;
    return last;
  }, options);
  for await (const items of pages) {
    yielded += items.length;
    yield items;
  }
  const next = last?.pageToken;
  if (last?.hasMore && next !== undefined && yielded === fetched) {
    if (next.length <= MAX_PAGE_TOKEN_LENGTH && TOKEN_SHAPE.test(next)) {
      warn(continueNote(next));
    }
  }
}
