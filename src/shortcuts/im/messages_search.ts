/**
 * `hark im +messages-search`: search the messages of every chat the user is in
 * (`POST /open-apis/im/v1/messages/search`, user token only, `search:message`, as lark-cli's
 * `+messages-search`): by words, chats, senders, attachment, chat type, sender type, mentions of
 * me and time window. The search answers message ids; each page's messages are then read with
 * mget (as `+get` does), so rows carry their text and senders.
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { booleanField, objectField, objectsField, stringField } from "../../json/fields.ts";
import { formatRfc3339InZone } from "../../time/mod.ts";
import { type ApiCaller, defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { pagingOptions, pagingParams, type PagingValues } from "../paging.ts";
import { CHAT_ID, idListParam, USER_ID } from "../contact/ids.ts";
import { mgetRequest } from "./get.ts";
import { membershipErrors } from "./membership.ts";
import { messageColumns, messageItemsField, messageRow, READ_SCOPES } from "./message_rows.ts";
import { windowOf } from "./messages.ts";
import { PAGE_TOKEN_PARAM, resumablePages, startToken } from "./resume.ts";
import { SenderNames } from "./sender_names.ts";

/** The largest page of the search (lark-cli `messagesSearchMaxPageSize`). */
export const MAX_SEARCH_PAGE = 50;
/** The most chats or senders one search names. */
export const MAX_FILTER_IDS = 50;
/** The longest query. */
export const MAX_SEARCH_QUERY = 200;
/** `--attachment`'s values (lark-cli `--include-attachment-type`). */
export const ATTACHMENT_TYPES = ["file", "image", "video", "link"] as const;
/** `--sender-type`'s values. */
export const SENDER_TYPES = ["user", "bot"] as const;

const SEARCH_SCOPE = "search:message";

const PARAMS = {
  query: param.string({ description: "words the messages hold" }),
  "chat-id": param.string({
    description: `only these chats, separated by commas (at most ${MAX_FILTER_IDS})`,
    valueName: "<oc_id,…>",
  }),
  sender: param.string({
    description: `only messages from these people (open ids, separated by commas)`,
    valueName: "<ou_id,…>",
  }),
  attachment: param.enumOf(ATTACHMENT_TYPES, { description: "only messages with this kind" }),
  "chat-type": param.enumOf(["group", "p2p"], { description: "only group or one-to-one chats" }),
  "sender-type": param.enumOf(SENDER_TYPES, { description: "only messages from people or bots" }),
  "exclude-sender-type": param.enumOf(SENDER_TYPES, {
    description: "leave out messages from people or bots",
  }),
  "at-me": param.bool({ description: "only messages that mention me", default: false }),
  start: param.datetime({ description: "the earliest messages" }),
  end: param.datetime({ description: "the latest messages (a date: all of it)" }),
  "page-token": PAGE_TOKEN_PARAM,
  ...pagingParams(20, "messages"),
};

/** The values of `+messages-search`: the paging ones always, the filters as given. */
export type MessagesSearchValues = Partial<ValuesOf<typeof PARAMS>> & PagingValues;

/**
 * The search body: the query and the filters given.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming the flag for a bad query, id, window, a search of nothing, or
 *   the same sender type both kept and left out
 */
export function searchBody(input: ShortcutInput<MessagesSearchValues>): Record<string, unknown> {
  const { values } = input;
  const query = values.query?.trim() ?? "";
  // deno-lint-ignore no-control-regex
  if ([...query].length > MAX_SEARCH_QUERY || /[\x00-\x1f\x7f]/.test(query)) {
    throw new ValidationError(
      `Invalid value for --query: expected at most ${MAX_SEARCH_QUERY} characters of text`,
      { param: "--query" },
    );
  }
  const chats = idListParam(input, "chat-id", CHAT_ID, MAX_FILTER_IDS);
  const senders = idListParam(input, "sender", USER_ID, MAX_FILTER_IDS);
  if (senders.some((id) => !id.startsWith("ou_"))) {
    throw new ValidationError("Invalid value for --sender: expected open ids (ou_…)", {
      param: "--sender",
      suggestion: "Find one with: hark contact +search-user",
    });
  }
  const kept = values["sender-type"];
  if (kept !== undefined && kept === values["exclude-sender-type"]) {
    throw new ValidationError("--sender-type and --exclude-sender-type name the same type", {
      param: "--exclude-sender-type",
    });
  }
  const { startTime, endTime } = windowOf(input);
  const filter: Record<string, unknown> = {};
  if (chats.length > 0) filter.chat_ids = chats;
  if (senders.length > 0) filter.from_ids = senders;
  if (values.attachment !== undefined) filter.include_attachment_types = [values.attachment];
  if (kept !== undefined) filter.from_types = [kept];
  const left = values["exclude-sender-type"];
  if (left !== undefined) filter.exclude_from_types = [left];
  if (values["chat-type"] !== undefined) filter.chat_type = values["chat-type"];
  if (values["at-me"]) filter.is_at_me = true;
  const range: Record<string, string> = {};
  if (startTime !== undefined) {
    range.start_time = formatRfc3339InZone(startTime * 1000, input.timeZone);
  }
  if (endTime !== undefined) range.end_time = formatRfc3339InZone(endTime * 1000, input.timeZone);
  if (Object.keys(range).length > 0) filter.time_range = range;
  if (query === "" && Object.keys(filter).length === 0) {
    throw new ValidationError("Nothing to search for: give --query or a filter", {
      param: "--query",
      suggestion: "Give --query words, or --chat-id, --sender, --at-me, --start…",
    });
  }
  return { query, ...(Object.keys(filter).length > 0 ? { filter } : {}) };
}

/**
 * The request of one page of the search.
 *
 * @param input the shortcut input
 * @param pageToken the page's token
 */
export function searchRequest(
  input: ShortcutInput<MessagesSearchValues>,
  pageToken?: string,
): ApiRequest {
  const limit = input.values["page-all"] ? MAX_SEARCH_PAGE : input.values.limit;
  return {
    method: "POST",
    path: "/open-apis/im/v1/messages/search",
    query: { page_size: Math.min(Math.max(1, limit), MAX_SEARCH_PAGE), page_token: pageToken },
    body: searchBody(input),
    scopes: [SEARCH_SCOPE],
  };
}

/** The message ids of a search page (`items[].meta_data.message_id`). */
export function foundIds(page: unknown): string[] {
  return objectsField(page, "items").flatMap((item) => {
    const id = stringField(objectField(item, "meta_data"), "message_id");
    return id === undefined ? [] : [id];
  });
}

async function* searchRows(input: ShortcutInput<MessagesSearchValues>, client: ApiCaller) {
  const names = new SenderNames(client, input);
  const pages = resumablePages(
    async (pageToken) => {
      const page = await client.request<unknown>(searchRequest(input, pageToken));
      return {
        items: foundIds(page),
        hasMore: booleanField(page, "has_more") === true,
        pageToken: stringField(page, "page_token"),
      };
    },
    pagingOptions(input, "messages"),
    startToken(input.values["page-token"]),
    input.warn,
  );
  for await (const ids of pages) {
    const data = await client.request(mgetRequest(input, ids));
    const items = await names.fill(messageItemsField(data, "items"));
    yield items.map((item) => messageRow(item, input.timeZone, input.warn));
  }
}

/** `im +messages-search`. */
export const messagesSearch = defineShortcut({
  service: "im",
  verb: "+messages-search",
  description: "Search messages across your chats by words, chat, sender, kind and time",
  examples: [
    "hark im +messages-search --query 'release notes'",
    "hark im +messages-search --at-me --start 2026-03-01 --chat-type group",
    "hark im +messages-search --query budget --sender ou_123 --attachment file --json",
  ],
  identities: ["user"],
  scopes: {
    user: [SEARCH_SCOPE, ...(READ_SCOPES.user ?? [])],
    optional: READ_SCOPES.optional,
  },
  effect: "read",
  params: PARAMS,
  validate(input) {
    searchBody(input);
    startToken(input.values["page-token"]);
    pagingOptions(input, "messages");
  },
  requests: (input) => [searchRequest(input, startToken(input.values["page-token"]))],
  stream: (input, client) => membershipErrors(input, searchRows(input, client)),
  columns: messageColumns,
});
