/**
 * Message search in the sandbox: `POST /open-apis/im/v1/messages/search` (lark-cli
 * `shortcuts/im/im_messages_search.go`): a user token only, scope `search:message`; body
 * `{query, filter: {chat_ids, from_ids, include_attachment_types, from_types, exclude_from_types,
 * chat_type, is_at_me, time_range: {start_time, end_time}}}` with ISO 8601 times; `page_size`
 * (at most 50) and `page_token` in the query; the answer's items carry only
 * `meta_data.message_id` (the details come from mget). Newest first, over the chats the user is
 * in.
 *
 * @module
 */

import { type Incoming, larkOk, type SandboxContext } from "../core/context.ts";
import { CHAT_ERRORS, fieldViolation, larkFail, notAnOption } from "../core/lark_errors.ts";
import { type Caller, jsonBody, type Route } from "../core/route.ts";
import { actorOf, readPageSize } from "./im_common.ts";
import type { MessageItem } from "./im_store.ts";
import { decodePageToken, encodePageToken } from "./page_token.ts";

/** The most recent messages of each chat a search looks at. */
const PER_CHAT = 2000;
const ATTACHMENTS = ["file", "image", "video", "link"];
const SENDER_TYPES = ["user", "bot"];

/** The search route. */
export const SEARCH_ROUTES: Route[] = [{
  method: "POST",
  pattern: /^\/open-apis\/im\/v1\/messages\/search$/,
  userOnly: true,
  scopes: { user: ["search:message"] },
  handle: searchMessages,
}];

function strings(value: unknown, field: string, allowed?: string[]): string[] | Response {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    return fieldViolation(field, `${field} must be a list of strings`);
  }
  for (const v of value) if (allowed && !allowed.includes(v)) return notAnOption(field, v, allowed);
  return value;
}

function instant(value: unknown, field: string): number | undefined | Response {
  if (value === undefined) return undefined;
  const ms = typeof value === "string" && /^\d{4}-\d\d-\d\dT/.test(value) ? Date.parse(value) : NaN;
  return Number.isNaN(ms) ? fieldViolation(field, `${field} must be an ISO 8601 time`) : ms;
}

function hasAttachment(item: MessageItem, kinds: string[]): boolean {
  const content = item.body?.content ?? "";
  return kinds.some((kind) =>
    kind === "file"
      ? item.msg_type === "file"
      : kind === "image"
      ? item.msg_type === "image" || content.includes('"image_key"')
      : kind === "video"
      ? item.msg_type === "media"
      : /https?:\/\//.test(content)
  );
}

function isOffset(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function searchMessages(ctx: SandboxContext, incoming: Incoming, caller: Caller): Response {
  const size = readPageSize(
    incoming.url,
    50,
    () =>
      fieldViolation(
        "page_size",
        "the max value is 50",
        incoming.url.searchParams.get("page_size")!,
      ),
  );
  if (size instanceof Response) return size;
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  const query = body.query ?? "";
  if (typeof query !== "string") return fieldViolation("query", "query must be a string");
  const filter = body.filter ?? {};
  if (typeof filter !== "object" || filter === null || Array.isArray(filter)) {
    return fieldViolation("filter", "filter must be an object");
  }
  const f = filter as Record<string, unknown>;
  const chatIds = strings(f.chat_ids, "filter.chat_ids");
  const fromIds = strings(f.from_ids, "filter.from_ids");
  const attachments = strings(
    f.include_attachment_types,
    "filter.include_attachment_types",
    ATTACHMENTS,
  );
  const fromTypes = strings(f.from_types, "filter.from_types", SENDER_TYPES);
  const notFromTypes = strings(f.exclude_from_types, "filter.exclude_from_types", SENDER_TYPES);
  for (const list of [chatIds, fromIds, attachments, fromTypes, notFromTypes]) {
    if (list instanceof Response) return list;
  }
  if (f.chat_type !== undefined && f.chat_type !== "group" && f.chat_type !== "p2p") {
    return notAnOption("filter.chat_type", String(f.chat_type), ["group", "p2p"]);
  }
  if (f.is_at_me !== undefined && typeof f.is_at_me !== "boolean") {
    return fieldViolation("filter.is_at_me", "is_at_me must be a boolean");
  }
  const range = (f.time_range ?? {}) as Record<string, unknown>;
  const startMs = instant(range.start_time, "filter.time_range.start_time");
  const endMs = instant(range.end_time, "filter.time_range.end_time");
  if (startMs instanceof Response) return startMs;
  if (endMs instanceof Response) return endMs;
  const actor = actorOf(caller);
  const needle = query.trim().toLowerCase();
  const wanted = chatIds as string[];
  const chats = ctx.im.allChats().filter((chat) =>
    ctx.im.isMember(chat, actor) && (wanted.length === 0 || wanted.includes(chat.chat_id))
  );
  if ((chatIds as string[]).some((id) => !ctx.im.chat(id))) {
    return larkFail(CHAT_ERRORS.invalidChatId);
  }
  const found: MessageItem[] = [];
  for (const chat of chats) {
    if (f.chat_type !== undefined && chat.chatMode !== f.chat_type) continue;
    const page = ctx.im.listChat(chat, { desc: true, limit: PER_CHAT, startMs, endMs });
    for (const item of page.items) {
      if (item.deleted) continue;
      if (needle !== "" && !(item.body?.content ?? "").toLowerCase().includes(needle)) continue;
      if ((fromIds as string[]).length > 0 && !(fromIds as string[]).includes(item.sender.id)) {
        continue;
      }
      const kind = item.sender.sender_type === "app" ? "bot" : "user";
      if ((fromTypes as string[]).length > 0 && !(fromTypes as string[]).includes(kind)) continue;
      if ((notFromTypes as string[]).includes(kind)) continue;
      if (f.is_at_me === true && !(item.mentions ?? []).some((m) => m.id === actor)) continue;
      if ((attachments as string[]).length > 0 && !hasAttachment(item, attachments as string[])) {
        continue;
      }
      found.push(item);
    }
  }
  found.sort((a, b) => Number(b.create_time) - Number(a.create_time));
  const fingerprint = `search|${actor}|${JSON.stringify(body)}`;
  let offset = 0;
  const tokenText = incoming.url.searchParams.get("page_token");
  if (tokenText) {
    const token = decodePageToken(tokenText, isOffset);
    if (!token || token.query !== fingerprint) return larkFail(CHAT_ERRORS.invalidParam);
    offset = token.position;
  }
  const page = found.slice(offset, offset + size);
  const more = offset + size < found.length;
  return larkOk({
    items: page.map((item) => ({ meta_data: { message_id: item.message_id } })),
    has_more: more,
    ...(more ? { page_token: encodePageToken(fingerprint, offset + size) } : {}),
  });
}
