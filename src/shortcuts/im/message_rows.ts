/**
 * What the message listings (`+messages`, `+thread`, `+get`) share: the list request, a message
 * as an output row (Lark's fields, times in RFC 3339, plus the readable `text`), the table
 * columns, and reading pages with the sender names filled in.
 *
 * @module
 */

import type { ApiRequest } from "../../http/request.ts";
import { objectField, stringField } from "../../json/fields.ts";
import type { Column } from "../../output/mod.ts";
import { formatLocalTime, formatRfc3339InZone } from "../../time/mod.ts";
import type { ApiCaller, ShortcutInput, ShortcutScopes } from "../definition.ts";
import { followPages, pagingOptions, type PagingValues } from "../paging.ts";
import { type Mention, messageText } from "./message_text.ts";
import { type Sender, SenderNames } from "./sender_names.ts";
import { NAME_LOOKUP_SCOPES, READ_ALTERNATIVES } from "../contact/profile_scopes.ts";

/** The largest page the message list endpoint serves. */
export const MAX_MESSAGE_PAGE = 50;

/**
 * Reading messages, per identity (lark-cli `+chat-messages-list`): group and one-to-one chats
 * both, as a chat id may name either. Naming the senders Lark leaves unnamed is optional
 * (`sender_names.ts`): without it they stay unnamed, with a warning.
 */
export const READ_SCOPES: ShortcutScopes = {
  user: ["im:message.group_msg:get_as_user", "im:message.p2p_msg:get_as_user"],
  bot: ["im:message.group_msg", "im:message.p2p_msg:readonly"],
  optional: { user: NAME_LOOKUP_SCOPES.user, bot: NAME_LOOKUP_SCOPES.bot },
  alternatives: READ_ALTERNATIVES,
};

/** The scopes of a read request, for a permission error that names none. */
export function readScopes(input: ShortcutInput<unknown>): string[] {
  return [...(READ_SCOPES[input.identity] ?? [])];
}

/** A message as the list, get and mget endpoints give it. */
export interface MessageItem {
  message_id: string;
  root_id?: string;
  parent_id?: string;
  thread_id?: string;
  msg_type: string;
  /** Epoch milliseconds, as a string. */
  create_time: string;
  /** Epoch milliseconds, as a string. */
  update_time?: string;
  deleted?: boolean;
  updated?: boolean;
  chat_id: string;
  sender?: Sender;
  body?: { content: string };
  mentions?: (Mention & { id_type?: string })[];
  [key: string]: unknown;
}

/** A page of the list endpoint. */
export interface MessagePage {
  items?: MessageItem[];
  has_more?: boolean;
  page_token?: string;
}

/** Where a listing reads: a chat (with an optional window) or a thread. */
export interface Container {
  /** `chat` or `thread`. */
  type: "chat" | "thread";
  /** The chat id (`oc_…`) or thread id (`omt_…`). */
  id: string;
  /** Unix seconds, inclusive (chats only). */
  startTime?: number;
  /** Unix seconds, inclusive (chats only). */
  endTime?: number;
  /** Newest first. */
  desc: boolean;
}

/**
 * The list request of one page.
 *
 * @param input the shortcut input (limit, identity)
 * @param container where to read
 * @param pageToken the previous page's token
 */
export function listRequest(
  input: ShortcutInput<PagingValues>,
  container: Container,
  pageToken?: string,
): ApiRequest {
  const all = input.values["page-all"];
  const limit = input.values.limit;
  return {
    method: "GET",
    path: "/open-apis/im/v1/messages",
    query: {
      container_id_type: container.type,
      container_id: container.id,
      start_time: container.startTime === undefined ? undefined : String(container.startTime),
      end_time: container.endTime === undefined ? undefined : String(container.endTime),
      sort_type: container.desc ? "ByCreateTimeDesc" : "ByCreateTimeAsc",
      page_size: all ? MAX_MESSAGE_PAGE : Math.min(Math.max(1, limit), MAX_MESSAGE_PAGE),
      page_token: pageToken,
      card_msg_content_type: "raw_card_content",
      with_sender_name: true,
    },
    scopes: readScopes(input),
  };
}

function isoTime(value: unknown, timeZone: string): unknown {
  const ms = Number(value);
  return Number.isFinite(ms) && ms > 0 ? formatRfc3339InZone(ms, timeZone) : value;
}

/**
 * A message as an output row: Lark's fields as given (the content exact), `create_time` and
 * `update_time` in RFC 3339 in the user's zone, and `text`, the content as a person reads it.
 *
 * @param item the message
 * @param timeZone the zone of the times
 */
export function messageRow(item: MessageItem, timeZone: string): Record<string, unknown> {
  return {
    ...item,
    create_time: isoTime(item.create_time, timeZone),
    ...(item.update_time === undefined ? {} : { update_time: isoTime(item.update_time, timeZone) }),
    text: messageText(item),
  };
}

/** The name of a row's sender: the resolved name, else the id. */
export function senderLabel(row: Record<string, unknown>): string {
  const sender = objectField(row, "sender");
  if (!sender) return "";
  const id = stringField(sender, "id");
  return stringField(sender, "sender_name") ||
    (stringField(sender, "sender_type") === "app" ? `app ${id}` : id) || "";
}

/**
 * A row's `create_time` (RFC 3339) as local time for a table.
 *
 * @param row an output row
 * @param input the shortcut input (time zone)
 */
export function localTime(row: Record<string, unknown>, input: ShortcutInput<unknown>): string {
  const ms = Date.parse(String(row.create_time));
  return Number.isFinite(ms) ? formatLocalTime(ms, input.timeZone) : "";
}

/**
 * The table and CSV columns of message rows: time, sender, text, then the ids needed to reply,
 * open a thread or download.
 *
 * @param input the shortcut input (time zone)
 */
export function messageColumns(input: ShortcutInput<unknown>): Column<Record<string, unknown>>[] {
  return [
    { header: "TIME", kind: "time", priority: 6, value: (row) => localTime(row, input) },
    { header: "SENDER", value: senderLabel, priority: 4 },
    // The message is what a person reads: at 80 columns it keeps 30 and the ids go first.
    { header: "TEXT", value: "text", priority: 5, minWidth: 30 },
    { header: "MESSAGE ID", value: "message_id", kind: "id", priority: 3 },
    { header: "TYPE", value: "msg_type", priority: 1 },
    { header: "THREAD ID", value: "thread_id", kind: "id", priority: 2 },
  ];
}

/**
 * Reads a container page by page (up to `--limit`, or all with `--page-all`), yielding each
 * page as rows with the sender names filled in, so memory does not grow with the listing.
 *
 * @param input the shortcut input
 * @param client the client
 * @param container where to read
 */
export async function* readMessages(
  input: ShortcutInput<PagingValues>,
  client: ApiCaller,
  container: Container,
): AsyncGenerator<Record<string, unknown>[]> {
  const names = new SenderNames(client, input);
  const pages = followPages(async (pageToken) => {
    const page = await client.request<MessagePage>(listRequest(input, container, pageToken));
    return {
      items: page?.items ?? [],
      hasMore: page?.has_more === true,
      pageToken: page?.page_token,
    };
  }, pagingOptions(input, "messages"));
  for await (const items of pages) {
    yield (await names.fill(items)).map((item) => messageRow(item, input.timeZone));
  }
}
