/**
 * `hark im +chats`: the group chats the identity is in, or with `--query` the chats whose name
 * or members match (public chats too), page by page.
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { booleanField, objectsField, stringField } from "../../json/fields.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { pagingOptions, pagingParams } from "../paging.ts";
import { PAGE_TOKEN_PARAM, resumablePages, startToken } from "./resume.ts";
import { quoted } from "../contact/ids.ts";

/** The largest page of the chat list and search endpoints. */
export const MAX_CHAT_PAGE = 100;
/** The longest query chat search takes (a longer one finds nothing). */
export const MAX_QUERY_LENGTH = 64;

/** Reading chats, for either identity (lark-cli `+chat-search`). */
const SCOPES = ["im:chat:read"];

const PARAMS = {
  query: param.string({
    description: "words of the chat's name or of a member's name (public chats too)",
  }),
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
    "hark im +chats --as bot --page-all --json",
  ],
  identities: ["user", "bot"],
  scopes: { user: SCOPES, bot: SCOPES },
  effect: "read",
  params: PARAMS,
  validate(input) {
    queryOf(input);
    startToken(input.values["page-token"]);
    pagingOptions(input, "chats");
  },
  requests: (input) => [chatsRequest(input)],
  stream(input, client) {
    return resumablePages(
      async (pageToken) => {
        const page = await client.request<unknown>(chatsRequest(input, pageToken));
        return {
          items: objectsField(page, "items"),
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
