/**
 * `hark contact +search-user`: find people by name or email.
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { booleanField, objectsField, stringField } from "../../json/fields.ts";
import { pagingOptions, pagingParams } from "../paging.ts";
import { PAGE_TOKEN_PARAM, resumablePages, startToken } from "../im/resume.ts";

/** The most users one search page returns. */
export const MAX_PAGE_SIZE = 200;

const PARAMS = {
  query: param.string({ description: "words of the name or email", required: true }),
  ...pagingParams(20, "users"),
  "page-token": PAGE_TOKEN_PARAM,
};

/** The values of `+search-user`. */
export type SearchValues = ValuesOf<typeof PARAMS>;

/**
 * The search request for one page.
 *
 * @param input the shortcut input
 * @param pageToken the page token of the previous answer
 */
export function searchRequest(input: ShortcutInput<SearchValues>, pageToken?: string): ApiRequest {
  return {
    method: "GET",
    path: "/open-apis/search/v1/user",
    query: {
      query: input.values.query,
      // --page-all ignores --limit: the fewest pages are the largest Lark allows (1–200, Lark's
      // doc of GET /open-apis/search/v1/user).
      page_size: input.values["page-all"]
        ? MAX_PAGE_SIZE
        : Math.min(input.values.limit, MAX_PAGE_SIZE),
      page_token: pageToken,
    },
    scopes: ["contact:user:search"],
  };
}

/** `contact +search-user`. */
export const searchUser = defineShortcut({
  service: "contact",
  verb: "+search-user",
  description: "Search people by name or email",
  examples: [
    "hark contact +search-user --query alice",
    "hark contact +search-user --query chen --page-all --format csv",
    "hark contact +search-user --query chen --limit 50 --page-token ZmFrZV90b2tlbg",
  ],
  identities: ["user"],
  scopes: { user: ["contact:user:search"] },
  effect: "read",
  params: PARAMS,
  validate(input) {
    if (input.values.query.trim() === "") {
      throw new ValidationError('Invalid value "" for --query: expected words to search for', {
        param: "--query",
      });
    }
    pagingOptions(input, "users");
    startToken(input.values["page-token"]);
  },
  requests: (input) => [searchRequest(input, startToken(input.values["page-token"]))],
  stream(input, client) {
    return resumablePages(
      async (pageToken) => {
        const page = await client.request(searchRequest(input, pageToken));
        return {
          items: objectsField(page, "users"),
          hasMore: booleanField(page, "has_more") === true,
          pageToken: stringField(page, "page_token"),
        };
      },
      pagingOptions(input, "users"),
      startToken(input.values["page-token"]),
      input.warn,
    );
  },
  columns: [
    { header: "NAME", value: "name", priority: 3 },
    { header: "OPEN ID", value: "open_id", kind: "id", priority: 4 },
    { header: "USER ID", value: "user_id", kind: "id", priority: 2 },
    { header: "DEPARTMENTS", value: "department_ids", kind: "id", priority: 1 },
  ],
});
