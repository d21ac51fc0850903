/**
 * What the message listings (`+messages`, `+thread`, `+get`) share: the list request, a message
 * as an output row (Lark's fields, times in RFC 3339, plus the readable `text`), the table
 * columns, and reading pages with the sender names filled in.
 *
 * @module
 */

import type { ApiRequest } from "../../http/request.ts";
import {
  booleanField,
  isObject,
  objectField,
  objectsField,
  stringField,
} from "../../json/fields.ts";
import type { Column } from "../../output/mod.ts";
import { badTimeWarning, epochMsOf, formatLocalTime, formatRfc3339InZone } from "../../time/mod.ts";
import type { ApiCaller, ShortcutInput, ShortcutScopes } from "../definition.ts";
import { pagingOptions, type PagingValues } from "../paging.ts";
import { resumablePages } from "./resume.ts";
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

/**
 * A message as the list, get, mget, send and reply endpoints give it (the fields hark reads);
 * read from an answer with {@link messageItemOf}.
 */
export interface MessageItem {
  message_id: string;
  root_id?: string;
  parent_id?: string;
  thread_id?: string;
  msg_type?: string;
  /** Epoch milliseconds, as text (as sent: read with `epochMsOf`). */
  create_time?: unknown;
  /** Epoch milliseconds, as text (as sent: read with `epochMsOf`). */
  update_time?: unknown;
  deleted?: boolean;
  updated?: boolean;
  chat_id?: string;
  sender?: Sender;
  body?: { content: string };
  mentions?: (Mention & { id_type?: string })[];
  [key: string]: unknown;
}

/** The fields of a message hark reads as text. */
const MESSAGE_TEXT = ["root_id", "parent_id", "thread_id", "msg_type", "chat_id"] as const;

/**
 * A message from an answer: an object with a text `message_id`; the fields hark reads kept when
 * they have the type hark reads them as (text ids, flags, a sender with a text `id`, a body
 * with a text `content`, mentions with a text `key`, `id` and `name`), the rest as sent.
 *
 * @param value the message as the service sent it
 * @returns the message, or `undefined` when it is not an object with a `message_id`
 */
export function messageItemOf(value: unknown): MessageItem | undefined {
  const id = stringField(value, "message_id");
  if (!isObject(value) || id === undefined) return undefined;
  const item: MessageItem = { ...value, message_id: id };
  for (const key of MESSAGE_TEXT) {
    if (key in item && typeof item[key] !== "string") delete item[key];
  }
  for (const key of ["deleted", "updated"] as const) {
    if (key in item && typeof item[key] !== "boolean") delete item[key];
  }
  const sender = senderOf(value.sender);
  if (sender === undefined) delete item.sender;
  else item.sender = sender;
  const content = stringField(value.body, "content");
  if (content === undefined) delete item.body;
  else item.body = { ...objectField(value, "body"), content };
  if ("mentions" in item) {
    item.mentions = objectsField(value, "mentions").flatMap((m) => {
      const [key, mentioned, name] = [m.key, m.id, m.name];
      return typeof key === "string" && typeof mentioned === "string" && typeof name === "string"
        ? [{ ...m, key, id: mentioned, name }]
        : [];
    });
  }
  return item;
}

/** A sender from an answer: an object with a text `id`, its other text fields checked. */
function senderOf(value: unknown): Sender | undefined {
  const id = stringField(value, "id");
  if (!isObject(value) || id === undefined) return undefined;
  const sender: Sender = { ...value, id };
  for (const key of ["id_type", "sender_type", "sender_name"] as const) {
    if (key in sender && typeof sender[key] !== "string") delete sender[key];
  }
  return sender;
}

/**
 * The messages of an array field of an answer (`items`); anything that is not a message is
 * skipped.
 *
 * @param data the answer's `data`
 * @param key the field
 */
export function messageItemsField(data: unknown, key: string): MessageItem[] {
  return objectsField(data, key).flatMap((item) => messageItemOf(item) ?? []);
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
  /** The page to start at (`--page-token`); the first when absent. */
  pageToken?: string;
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
  pageToken: string | undefined = container.pageToken,
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

/**
 * A message as an output row: Lark's fields as given (the content exact), `create_time` and
 * `update_time` in RFC 3339 in the user's zone (left out, and `warn` told, when not a time), and
 * `text`, the content as a person reads it.
 *
 * @param item the message
 * @param timeZone the zone of the times
 * @param warn notes a warning (`input.warn`); default none
 */
export function messageRow(
  item: MessageItem,
  timeZone: string,
  warn: (message: string) => void = () => {},
): Record<string, unknown> {
  const row: Record<string, unknown> = { ...item, text: messageText(item) };
  for (const key of ["create_time", "update_time"] as const) {
    if (item[key] === undefined) continue;
    const ms = epochMsOf(item[key], "ms");
    if (ms === undefined) {
      warn(badTimeWarning(key, item[key]));
      delete row[key];
    } else row[key] = formatRfc3339InZone(ms, timeZone);
  }
  return row;
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
  const pages = resumablePages(
    async (pageToken) => {
      const page = await client.request(listRequest(input, container, pageToken));
      return {
        items: messageItemsField(page, "items"),
        hasMore: booleanField(page, "has_more") === true,
        pageToken: stringField(page, "page_token"),
      };
    },
    pagingOptions(input, "messages"),
    container.pageToken,
    input.warn,
  );
  for await (const items of pages) {
    yield (await names.fill(items)).map((item) => messageRow(item, input.timeZone, input.warn));
  }
}
