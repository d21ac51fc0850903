/**
 * `hark contact +search-user`: find people by name or email.
 *
 * @module
 */

import { SCOPE_CONTACT_SEARCH } from "../../auth/scopes.ts";
import { ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";

/** The most users one search page returns. */
export const MAX_PAGE_SIZE = 200;

/** A user as search returns it. */
export interface FoundUser {
  /** The name. */
  name: string;
  /** The open id. */
  open_id: string;
  /** The tenant user id. */
  user_id?: string;
  /** Department ids. */
  department_ids?: string[];
  [key: string]: unknown;
}

interface SearchPage {
  users?: FoundUser[];
  has_more?: boolean;
  page_token?: string;
}

/**
 * The search request for one page.
 *
 * @param input the shortcut input
 * @param pageToken the page token of the previous answer
 */
export function searchRequest(input: ShortcutInput, pageToken?: string): ApiRequest {
  const limit = input.values.limit as number;
  return {
    method: "GET",
    path: "/open-apis/search/v1/user",
    query: {
      query: input.values.query as string,
      page_size: Math.min(limit, MAX_PAGE_SIZE),
      page_token: pageToken,
    },
    scopes: [SCOPE_CONTACT_SEARCH],
  };
}

/** `contact +search-user`. */
export const searchUser = defineShortcut<FoundUser[]>({
  service: "contact",
  verb: "+search-user",
  description: "Search people by name or email",
  examples: [
    "hark contact +search-user --query alice",
    "hark contact +search-user --query chen --page-all --format csv",
  ],
  identities: ["user"],
  scopes: [SCOPE_CONTACT_SEARCH],
  params: [
    { name: "query", type: "string", description: "words of the name or email", required: true },
    {
      name: "limit",
      type: "int",
      description: "the most users to return (page size up to 200)",
      default: 20,
    },
    {
      name: "page-all",
      type: "bool",
      description: "follow every page to the end, ignoring --limit",
      default: false,
    },
  ],
  validate(input) {
    if ((input.values.query as string).trim() === "") {
      throw new ValidationError('Invalid value "" for --query: expected words to search for', {
        param: "--query",
      });
    }
    const limit = input.values.limit as number;
    if (limit < 1) {
      throw new ValidationError(`Invalid value "${limit}" for --limit: expected at least 1`, {
        param: "--limit",
      });
    }
  },
  requests: (input) => [searchRequest(input)],
  async run(input, client) {
    const limit = input.values.limit as number;
    const all = input.values["page-all"] === true;
    const users: FoundUser[] = [];
    const seenTokens = new Set<string>();
    let pageToken: string | undefined;
    while (true) {
      const page = await client.request<SearchPage>(searchRequest(input, pageToken));
      users.push(...(page?.users ?? []));
      if (!all && users.length >= limit) return users.slice(0, limit);
      if (!page?.has_more || !page.page_token || seenTokens.has(page.page_token)) break;
      seenTokens.add(page.page_token);
      pageToken = page.page_token;
    }
    return all ? users : users.slice(0, limit);
  },
  columns: [
    { header: "NAME", value: "name", priority: 3 },
    { header: "OPEN ID", value: "open_id", kind: "id", priority: 4 },
    { header: "USER ID", value: "user_id", kind: "id", priority: 2 },
    { header: "DEPARTMENTS", value: "department_ids", priority: 1 },
  ],
});
