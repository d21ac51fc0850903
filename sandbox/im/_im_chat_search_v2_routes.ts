/**
 * Chat search v2 in the sandbox: `POST /open-apis/im/v2/chats/search` (lark-cli
 * `shortcuts/im/im_chat_search.go`): either identity, scope im:chat:read (or the broader ones of
 * the chat read routes); `page_size` (at most 100), `page_token` and `user_id_type` in the query;
 * body `{query, filter: {search_types, member_ids, is_manager, disable_search_by_user},
 * sorter}`; the answer's items wrap each chat in `meta_data`, with `total`.
 *
 * What the sandbox reads: `search_types` private (a private chat the caller is in), external
 * (none here: the sandbox has one tenant), public_joined and public_not_joined; `member_ids`
 * (open ids, every one in the chat); `is_manager` (chats the caller owns, or the bot manages);
 * `disable_search_by_user` (match chat names only, not members' names); sorters
 * create_time_desc, update_time_desc, member_count_desc (default: creation order).
 *
 * @module
 */

import { type Incoming, larkOk, type SandboxContext } from "../core/context.ts";
import { CHAT_ERRORS, fieldViolation, larkFail, notAnOption } from "../core/lark_errors.ts";
import { type Caller, jsonBody, type Route } from "../core/route.ts";
import { CHAT_READ_SCOPES, listItem } from "./_im_chat_routes.ts";
import { isManager } from "./_im_chat_admin_routes.ts";
import { actorOf, pageSizeUpTo, userIdType } from "./im_common.ts";
import type { ChatRecord } from "./im_store.ts";
import { encodePageToken, offsetOf } from "./page_token.ts";

const SEARCH_TYPES = ["private", "external", "public_joined", "public_not_joined"];
const SORTERS = ["create_time_desc", "update_time_desc", "member_count_desc"];

/** The v2 chat search route. */
export const CHAT_SEARCH_V2_ROUTES: Route[] = [{
  method: "POST",
  pattern: /^\/open-apis\/im\/v2\/chats\/search$/,
  scopes: CHAT_READ_SCOPES,
  handle: searchChatsV2,
}];

function strings(value: unknown, field: string, max: number): string[] | Response {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    return fieldViolation(field, `${field} must be a list of strings`);
  }
  if (value.length > max) return fieldViolation(field, `the max len is ${max}`);
  return value;
}

function searchChatsV2(ctx: SandboxContext, incoming: Incoming, caller: Caller): Response {
  const type = userIdType(incoming.url);
  if (type instanceof Response) return type;
  const size = pageSizeUpTo(incoming.url, 100);
  if (size instanceof Response) return size;
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  const query = body.query ?? "";
  if (typeof query !== "string") return fieldViolation("query", "query must be a string");
  if ([...query].length > 64) return fieldViolation("query", "the max len is 64");
  const filter = body.filter ?? {};
  if (typeof filter !== "object" || filter === null || Array.isArray(filter)) {
    return fieldViolation("filter", "filter must be an object");
  }
  const f = filter as Record<string, unknown>;
  const types = strings(f.search_types, "filter.search_types", 4);
  if (types instanceof Response) return types;
  for (const t of types) {
    if (!SEARCH_TYPES.includes(t)) return notAnOption("filter.search_types", t, SEARCH_TYPES);
  }
  const members = strings(f.member_ids, "filter.member_ids", 50);
  if (members instanceof Response) return members;
  for (const field of ["is_manager", "disable_search_by_user"]) {
    if (f[field] !== undefined && typeof f[field] !== "boolean") {
      return fieldViolation(`filter.${field}`, `filter.${field} must be a boolean`);
    }
  }
  const sorter = body.sorter;
  if (sorter !== undefined && (typeof sorter !== "string" || !SORTERS.includes(sorter))) {
    return notAnOption("sorter", String(sorter), SORTERS);
  }
  const actor = actorOf(caller);
  const needle = query.trim().replace(/^"(.*)"$/, "$1").toLowerCase();
  const byName = (chat: ChatRecord) =>
    chat.name.toLowerCase().includes(needle) ||
    (f.disable_search_by_user !== true &&
      chat.members.some((id) => ctx.im.users.get(id)?.name.toLowerCase().includes(needle)));
  const kindOf = (chat: ChatRecord) =>
    chat.chatType === "private"
      ? "private"
      : ctx.im.isMember(chat, actor)
      ? "public_joined"
      : "public_not_joined";
  const found = needle === "" && members.length === 0
    ? []
    : ctx.im.groupChats().filter((chat) =>
      (ctx.im.isMember(chat, actor) || chat.chatType === "public") &&
      (needle === "" || byName(chat)) &&
      members.every((id) => chat.members.includes(id)) &&
      (types.length === 0 || types.includes(kindOf(chat))) &&
      (f.is_manager !== true || isManager(chat, actor))
    );
  if (sorter === "create_time_desc") found.sort((a, b) => b.createTime - a.createTime);
  if (sorter === "update_time_desc") {
    found.sort((a, b) => ctx.im.lastActivity(b) - ctx.im.lastActivity(a));
  }
  if (sorter === "member_count_desc") found.sort((a, b) => b.members.length - a.members.length);
  const fingerprint = `v2|${actor}|${JSON.stringify(body)}|${type}`;
  const offset = offsetOf(incoming.url, fingerprint);
  if (offset === undefined) return larkFail(CHAT_ERRORS.invalidParam);
  const more = offset + size < found.length;
  return larkOk({
    items: found.slice(offset, offset + size).map((chat) => ({
      meta_data: listItem(ctx, chat, type),
    })),
    total: found.length,
    has_more: more,
    ...(more ? { page_token: encodePageToken(fingerprint, offset + size) } : {}),
  });
}
