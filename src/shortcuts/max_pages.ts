/**
 * The default of `--max-pages`, apart from the paging code (`paging.ts`) so that the commands'
 * help states it without loading that code.
 *
 * @module
 */

/** The default of `--max-pages`: the most pages a listing reads, a safety limit. */
export const DEFAULT_MAX_PAGES = 1000;
