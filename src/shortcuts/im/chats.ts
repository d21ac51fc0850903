/**
 * `hark im +chats`: the group chats the identity is in, or with `--query` the chats whose name
 * or members match (public chats too), page by page.
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import {
  booleanField,
  type JsonObject,
  objectField,
  objectsField,
  stringField,
} from "../../json/fields.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { pagingOptions, pagingParams } from "../paging.ts";
import { PAGE_TOKEN_PARAM, resumablePages, startToken } from "./resume.ts";
import { type IdKind, idListParam, quoted } from "../contact/ids.ts";

/** The largest page of the chat list and search endpoints. */
export const MAX_CHAT_PAGE = 100;
/** The longest query chat search takes (a longer one finds nothing). */
export const MAX_QUERY_LENGTH = 64;

/** The kinds of chat the v2 search filters by. */
export const SEARCH_TYPES = ["private", "external", "public_joined", "public_not_joined"] as const;
/** The v2 search's orders. */
export const SORTERS = ["create_time_desc", "update_time_desc", "member_count_desc"] as const;
/** The most members the v2 search filters by. */
export const MAX_FILTER_MEMBERS = 50;
const MEMBER: IdKind = { noun: "open id", prefixes: ["ou_"] };

/** Reading chats, for either identity (lark-cli `+chat-search`). */
const SCOPES = ["im:chat:read"];

const PARAMS = {
  query: param.string({
    description: "words of the chat's name or of a member's name (public chats too)",
  }),
  "search-types": param.string({
    description: "only these kinds, separated by commas: private, external, public_joined, " +
      "public_not_joined",
    valueName: "<kind,…>",
  }),
  "member-ids": param.string({
    description: `only chats with all these people (open ids, ou_…), at most ${MAX_FILTER_MEMBERS}`,
    valueName: "<ou_id,…>",
  }),
  "is-manager": param.bool({ description: "only chats you own or manage" }),
  "disable-search-by-user": param.bool({
    description: "match --query against chat names only, not members' names",
  }),
  "sort-by": param.enumOf(SORTERS, { description: "the order, largest or newest first" }),
  "page-token": PAGE_TOKEN_PARAM,
  ...pagingParams(20, "chats"),
};

/** The values of `+chats`. */
export type ChatsValues = ValuesOf<typeof PARAMS>;

/**
 * The query of `--query`, checked; `undefined` when not given.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--query` when blank, too long or holding control characters
 */
export function queryOf(
  input: ShortcutInput<Pick<Partial<ChatsValues>, "query">>,
): string | undefined {
  const query = input.values.query;
  if (query === undefined) return undefined;
  const text = query.trim();
  // deno-lint-ignore no-control-regex
  if (text === "" || text.length > MAX_QUERY_LENGTH || /[\x00-\x1f\x7f]/.test(text)) {
    throw new ValidationError(
      `Invalid value ${quoted(query)} for --query: expected words of a chat's name or of a ` +
        `member's name, 1 to ${MAX_QUERY_LENGTH} characters`,
      { param: "--query", suggestion: "Leave --query out to list every chat you are in" },
    );
  }
  return text;
}

/**
 * The filters of Lark's chat search (v2), when any is given; `undefined` for the plain list or
 * search.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming the flag for a kind Lark does not know or a bad member
 */
export function filterOf(input: ShortcutInput<ChatsValues>): Record<string, unknown> | undefined {
  const { values } = input;
  const types = values["search-types"];
  const members = idListParam(input, "member-ids", MEMBER, MAX_FILTER_MEMBERS);
  const filter: Record<string, unknown> = {};
  if (types !== undefined) {
    const kinds = [...new Set(types.split(",").map((t) => t.trim()).filter((t) => t !== ""))];
    const known: readonly string[] = SEARCH_TYPES;
    const bad = kinds.find((k) => !known.includes(k));
    if (kinds.length === 0 || bad !== undefined) {
      throw new ValidationError(
        `Invalid value ${quoted(bad ?? types)} for --search-types: expected kinds among ` +
          SEARCH_TYPES.join(", "),
        { param: "--search-types" },
      );
    }
    filter.search_types = kinds;
  }
  if (members.length > 0) filter.member_ids = members;
  if (values["is-manager"] === true) filter.is_manager = true;
  if (values["disable-search-by-user"] === true) filter.disable_search_by_user = true;
  const v2 = Object.keys(filter).length > 0 || values["sort-by"] !== undefined;
  if (v2 && values.query === undefined && members.length === 0) {
    throw new ValidationError("Lark's chat search needs --query or --member-ids with the filters", {
      param: "--query",
    });
  }
  return v2 ? filter : undefined;
}

/**
 * The request of one page: the list, or the search with `--query`.
 *
 * @param input the shortcut input
 * @param pageToken the previous page's token
 */
export function chatsRequest(
  input: ShortcutInput<ChatsValues>,
  pageToken: string | undefined = startToken(input.values["page-token"]),
): ApiRequest {
  const query = queryOf(input);
  const all = input.values["page-all"];
  const limit = input.values.limit;
  const filter = filterOf(input);
  if (filter !== undefined) {
    return {
      method: "POST",
      path: "/open-apis/im/v2/chats/search",
      query: {
        user_id_type: "open_id",
        page_size: all ? MAX_CHAT_PAGE : Math.min(Math.max(1, limit), MAX_CHAT_PAGE),
        page_token: pageToken,
      },
      body: {
        // The search reads a hyphen as an operator unless the words are quoted (lark-cli).
        ...(query === undefined ? {} : {
          query: query.includes("-") ? JSON.stringify(query.replace(/^"(.*)"$/, "$1")) : query,
        }),
        ...(Object.keys(filter).length === 0 ? {} : { filter }),
        ...(input.values["sort-by"] === undefined ? {} : { sorter: input.values["sort-by"] }),
      },
      scopes: SCOPES,
    };
  }
  return {
    method: "GET",
    path: query === undefined ? "/open-apis/im/v1/chats" : "/open-apis/im/v1/chats/search",
    query: {
      query,
      user_id_type: "open_id",
      page_size: all ? MAX_CHAT_PAGE : Math.min(Math.max(1, limit), MAX_CHAT_PAGE),
      page_token: pageToken,
    },
    scopes: SCOPES,
  };
}

/** `im +chats`. */
export const chats = defineShortcut({
  service: "im",
  verb: "+chats",
  description: "List the group chats you are in, or search chats by name or member",
  examples: [
    "hark im +chats",
    "hark im +chats --query release",
    "hark im +chats --member-ids ou_123 --search-types private --sort-by update_time_desc",
    "hark im +chats --as bot --page-all --json",
  ],
  identities: ["user", "bot"],
  scopes: { user: SCOPES, bot: SCOPES },
  effect: "read",
  params: PARAMS,
  validate(input) {
    queryOf(input);
    startToken(input.values["page-token"]);
    filterOf(input);
    pagingOptions(input, "chats");
  },
  requests: (input) => [chatsRequest(input)],
  stream(input, client) {
    return resumablePages(
      async (pageToken) => {
        const page = await client.request<unknown>(chatsRequest(input, pageToken));
        const items = objectsField(page, "items");
        return {
          // The v2 search wraps each chat in meta_data.
          items: filterOf(input) === undefined ? items : items.flatMap((item): JsonObject[] => {
            const meta = objectField(item, "meta_data");
            return meta === undefined ? [] : [meta];
          }),
          hasMore: booleanField(page, "has_more") === true,
          pageToken: stringField(page, "page_token"),
        };
      },
      pagingOptions(input, "chats"),
      startToken(input.values["page-token"]),
      input.warn,
    );
  },
  columns: [
    { header: "NAME", value: "name", priority: 4 },
    { header: "CHAT ID", value: "chat_id", kind: "id", priority: 5 },
    { header: "DESCRIPTION", value: "description", priority: 1 },
    { header: "OWNER ID", value: "owner_id", kind: "id", priority: 2 },
  ],
});
