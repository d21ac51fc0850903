/**
 * The chat routes of the sandbox: the chats an identity is in, search, create (idempotent with
 * `uuid`), and one chat's details. Shapes follow the Node SDK's `im.v1.chat` types and Lark's
 * im-v1 chat docs (list, search, create, get).
 *
 * @module
 */

import { findUser, type Incoming, larkOk, type SandboxContext } from "../core/context.ts";
import { actorOf, convertOpenId, readPageSize, userIdType } from "./im_common.ts";
import { CHAT_ERRORS, fieldViolation, larkFail, notAnOption } from "../core/lark_errors.ts";
import {
  type Caller,
  jsonBody,
  type Route,
  type RouteScopes,
  type UserIdType,
} from "../core/route.ts";
import { BOT, type ChatRecord } from "./im_store.ts";
import { decodePageToken, encodePageToken } from "./page_token.ts";

/** Reading chats: lark-cli `+chat-search` declares im:chat:read; Lark's docs add the rest. */
export const CHAT_READ_SCOPES: RouteScopes = {
  user: ["im:chat:read", "im:chat:readonly", "im:chat", "im:chat.group_info:readonly"],
  bot: ["im:chat:read", "im:chat:readonly", "im:chat", "im:chat.group_info:readonly"],
};

/** Creating chats: lark-cli `+chat-create`; Lark's create doc adds im:chat. */
export const CHAT_CREATE_SCOPES: RouteScopes = {
  user: ["im:chat:create_by_user", "im:chat:create", "im:chat"],
  bot: ["im:chat:create", "im:chat"],
};

/** The chat routes. */
export const CHAT_ROUTES: Route[] = [
  {
    method: "GET",
    pattern: /^\/open-apis\/im\/v1\/chats$/,
    scopes: CHAT_READ_SCOPES,
    handle: listChats,
  },
  {
    method: "GET",
    pattern: /^\/open-apis\/im\/v1\/chats\/search$/,
    scopes: CHAT_READ_SCOPES,
    handle: searchChats,
  },
  {
    method: "POST",
    pattern: /^\/open-apis\/im\/v1\/chats$/,
    scopes: CHAT_CREATE_SCOPES,
    handle: createChat,
  },
  {
    method: "GET",
    pattern: /^\/open-apis\/im\/v1\/chats\/([^/]+)$/,
    scopes: CHAT_READ_SCOPES,
    handle: getChat,
  },
];

const ALL_MEMBERS = "all_members";
const RESTRICTED_MODE = {
  status: false,
  screenshot_has_permission_setting: ALL_MEMBERS,
  download_has_permission_setting: ALL_MEMBERS,
  message_has_permission_setting: ALL_MEMBERS,
};
/** Settings a create request may set, with Lark's defaults (create doc). */
const SETTINGS: Record<string, { options: string[]; fallback: string }> = {
  join_message_visibility: {
    options: ["only_owner", ALL_MEMBERS, "not_anyone"],
    fallback: ALL_MEMBERS,
  },
  leave_message_visibility: {
    options: ["only_owner", ALL_MEMBERS, "not_anyone"],
    fallback: ALL_MEMBERS,
  },
  membership_approval: {
    options: ["no_approval_required", "approval_required"],
    fallback: "no_approval_required",
  },
  urgent_setting: { options: ["only_owner", ALL_MEMBERS], fallback: ALL_MEMBERS },
  video_conference_setting: { options: ["only_owner", ALL_MEMBERS], fallback: ALL_MEMBERS },
  edit_permission: { options: ["only_owner", ALL_MEMBERS], fallback: ALL_MEMBERS },
  hide_member_count_setting: { options: [ALL_MEMBERS, "only_owner"], fallback: ALL_MEMBERS },
};

function setting(chat: ChatRecord, name: string): string {
  return (chat.settings?.[name] as string | undefined) ?? SETTINGS[name].fallback;
}

function avatarOf(chat: ChatRecord): string {
  return (chat.settings?.avatar as string | undefined) ??
    `https://example.com/chat-avatar/${chat.chat_id}.png`;
}

function owner(ctx: SandboxContext, chat: ChatRecord, type: UserIdType) {
  // Lark returns no owner fields when the bot owns the chat.
  return chat.owner === undefined
    ? {}
    : { owner_id: convertOpenId(ctx, chat.owner, type), owner_id_type: type };
}

/** A chat as list and search return it (`list_chat`). */
export function listItem(ctx: SandboxContext, chat: ChatRecord, type: UserIdType) {
  return {
    chat_id: chat.chat_id,
    avatar: avatarOf(chat),
    name: chat.name,
    description: chat.description,
    ...owner(ctx, chat, type),
    external: false,
    tenant_key: ctx.tenantKey,
    chat_status: "normal",
  };
}

function i18nNames(chat: ChatRecord) {
  return (chat.settings?.i18n_names as Record<string, string> | undefined) ??
    { zh_cn: chat.name, en_us: chat.name, ja_jp: chat.name };
}

/** A chat as create returns it. */
function createdItem(ctx: SandboxContext, chat: ChatRecord, type: UserIdType) {
  return {
    chat_id: chat.chat_id,
    avatar: avatarOf(chat),
    name: chat.name,
    description: chat.description,
    i18n_names: i18nNames(chat),
    ...owner(ctx, chat, type),
    urgent_setting: setting(chat, "urgent_setting"),
    video_conference_setting: setting(chat, "video_conference_setting"),
    add_member_permission: ALL_MEMBERS,
    share_card_permission: "allowed",
    at_all_permission: ALL_MEMBERS,
    edit_permission: setting(chat, "edit_permission"),
    group_message_type: chat.groupMessageType,
    chat_mode: chat.chatMode,
    chat_type: chat.chatType,
    chat_tag: "inner",
    external: false,
    tenant_key: ctx.tenantKey,
    join_message_visibility: setting(chat, "join_message_visibility"),
    leave_message_visibility: setting(chat, "leave_message_visibility"),
    membership_approval: setting(chat, "membership_approval"),
    moderation_permission: ALL_MEMBERS,
    restricted_mode_setting: RESTRICTED_MODE,
    hide_member_count_setting: setting(chat, "hide_member_count_setting"),
  };
}

/** A chat as get returns it; p2p chats leave out the group-only fields (get doc). */
function detail(ctx: SandboxContext, chat: ChatRecord, type: UserIdType) {
  const group = chat.chatMode === "group";
  return {
    avatar: avatarOf(chat),
    name: chat.name,
    description: chat.description,
    i18n_names: i18nNames(chat),
    ...(group
      ? {
        add_member_permission: ALL_MEMBERS,
        share_card_permission: "allowed",
        at_all_permission: ALL_MEMBERS,
      }
      : {}),
    edit_permission: setting(chat, "edit_permission"),
    ...owner(ctx, chat, type),
    user_manager_id_list: [],
    bot_manager_id_list: chat.botManager ? [ctx.appId] : [],
    ...(group ? { group_message_type: chat.groupMessageType } : {}),
    chat_mode: chat.chatMode,
    ...(group
      ? {
        chat_type: chat.chatType,
        chat_tag: "inner",
        join_message_visibility: setting(chat, "join_message_visibility"),
        leave_message_visibility: setting(chat, "leave_message_visibility"),
        membership_approval: setting(chat, "membership_approval"),
      }
      : {}),
    moderation_permission: ALL_MEMBERS,
    external: false,
    tenant_key: ctx.tenantKey,
    user_count: String(chat.members.length),
    bot_count: String(chat.botMember ? 1 : 0),
    restricted_mode_setting: RESTRICTED_MODE,
    urgent_setting: setting(chat, "urgent_setting"),
    video_conference_setting: setting(chat, "video_conference_setting"),
    hide_member_count_setting: setting(chat, "hide_member_count_setting"),
    chat_status: "normal",
  };
}

function isOffset(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/** Pages a list of chats by offset; the token is bound to `fingerprint`. */
function pageOf(
  ctx: SandboxContext,
  incoming: Incoming,
  chats: ChatRecord[],
  fingerprint: string,
  type: UserIdType,
): Response {
  const q = incoming.url.searchParams;
  const size = readPageSize(
    incoming.url,
    100,
    () => fieldViolation("page_size", "the max value is 100", q.get("page_size")!),
  );
  if (size instanceof Response) return size;
  let offset = 0;
  const tokenText = q.get("page_token");
  if (tokenText) {
    const token = decodePageToken(tokenText, isOffset);
    if (!token || token.query !== fingerprint) return larkFail(CHAT_ERRORS.invalidParam);
    offset = token.position;
  }
  const page = chats.slice(offset, offset + size);
  const more = offset + size < chats.length;
  const data: Record<string, unknown> = { items: page.map((c) => listItem(ctx, c, type)) };
  if (more) data.page_token = encodePageToken(fingerprint, offset + size);
  data.has_more = more;
  return larkOk(data);
}

function listChats(ctx: SandboxContext, incoming: Incoming, caller: Caller): Response {
  const type = userIdType(incoming.url);
  if (type instanceof Response) return type;
  const sort = incoming.url.searchParams.get("sort_type") || "ByCreateTimeAsc";
  const sorts = ["ByCreateTimeAsc", "ByActiveTimeDesc"];
  if (!sorts.includes(sort)) return notAnOption("sort_type", sort, sorts);
  const actor = actorOf(caller);
  const chats = ctx.im.groupChats().filter((c) => ctx.im.isMember(c, actor));
  if (sort === "ByActiveTimeDesc") {
    chats.sort((a, b) => ctx.im.lastActivity(b) - ctx.im.lastActivity(a));
  }
  return pageOf(ctx, incoming, chats, `list|${actor}|${sort}`, type);
}

function searchChats(ctx: SandboxContext, incoming: Incoming, caller: Caller): Response {
  const type = userIdType(incoming.url);
  if (type instanceof Response) return type;
  const query = (incoming.url.searchParams.get("query") ?? "").trim();
  const actor = actorOf(caller);
  // Lark: an empty query or one over 64 characters finds nothing.
  const needle = query.replace(/^"(.*)"$/, "$1").toLowerCase();
  const found = query === "" || query.length > 64 ? [] : ctx.im.groupChats().filter((chat) => {
    if (!ctx.im.isMember(chat, actor) && chat.chatType !== "public") return false;
    if (chat.name.toLowerCase().includes(needle)) return true;
    return chat.members.some((id) => ctx.im.users.get(id)?.name.toLowerCase().includes(needle));
  });
  return pageOf(ctx, incoming, found, `search|${actor}|${query}`, type);
}

function getChat(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  [chatId]: string[],
): Response {
  const type = userIdType(incoming.url);
  if (type instanceof Response) return type;
  const chat = ctx.im.chat(chatId);
  if (!chat) return larkFail(CHAT_ERRORS.invalidChatId);
  if (!ctx.im.isMember(chat, actorOf(caller))) return larkFail(CHAT_ERRORS.notInChat);
  return larkOk(detail(ctx, chat, type));
}

function stringList(body: Record<string, unknown>, field: string, max: number) {
  const value = body[field] ?? [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    return fieldViolation(field, `${field} must be a list of strings`);
  }
  if (value.length > max) return fieldViolation(field, `the max len is ${max}`);
  return value as string[];
}

function createChat(ctx: SandboxContext, incoming: Incoming, caller: Caller): Response {
  const q = incoming.url.searchParams;
  const type = userIdType(incoming.url);
  if (type instanceof Response) return type;
  const botManager = q.get("set_bot_manager") ?? "false";
  if (botManager !== "true" && botManager !== "false") {
    return notAnOption("set_bot_manager", botManager, ["true", "false"]);
  }
  const uuid = q.get("uuid") ?? "";
  if (uuid.length > 50) return fieldViolation("uuid", "the max len is 50", uuid);
  // The SDK sends no body at all when `data` is left out; Lark treats that as {}.
  const body = incoming.bodyText.trim() === "" ? {} : jsonBody(incoming);
  if (body instanceof Response) return body;
  for (const field of ["name", "description", "owner_id", "avatar"]) {
    if (body[field] !== undefined && typeof body[field] !== "string") {
      return fieldViolation(field, `${field} must be a string`);
    }
  }
  const userIds = stringList(body, "user_id_list", 50);
  if (userIds instanceof Response) return userIds;
  const botIds = stringList(body, "bot_id_list", 5);
  if (botIds instanceof Response) return botIds;
  const chatMode = body.chat_mode ?? "group";
  const chatType = body.chat_type ?? "private";
  const messageType = body.group_message_type ?? "chat";
  if (
    chatMode !== "group" || (chatType !== "private" && chatType !== "public") ||
    (messageType !== "chat" && messageType !== "thread")
  ) {
    return larkFail(CHAT_ERRORS.invalidParam);
  }
  if (body.external === true) return larkFail(CHAT_ERRORS.external);
  const settings: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(SETTINGS)) {
    const value = body[name];
    if (value === undefined) continue;
    if (typeof value !== "string" || !rule.options.includes(value)) {
      return notAnOption(name, String(value), rule.options);
    }
    settings[name] = value;
  }
  if (typeof body.avatar === "string") settings.avatar = body.avatar;
  if (typeof body.i18n_names === "object" && body.i18n_names !== null) {
    settings.i18n_names = body.i18n_names;
  }
  const name = (body.name as string | undefined) ?? "";
  if (chatType === "public" && name.trim() === "") return larkFail(CHAT_ERRORS.emptyName);
  if (chatType === "public" && name.trim().length < 2) return larkFail(CHAT_ERRORS.shortName);
  const members: string[] = [];
  for (const id of userIds) {
    const user = findUser(ctx, id, type);
    if (!user) return larkFail(CHAT_ERRORS.unavailableIds);
    if (user.resigned) return larkFail(CHAT_ERRORS.resigned);
    members.push(user.open_id);
  }
  if (botIds.some((id) => id !== ctx.appId)) return larkFail(CHAT_ERRORS.unavailableIds);
  let ownerId: string | undefined;
  if (body.owner_id !== undefined && body.owner_id !== "") {
    const user = findUser(ctx, body.owner_id as string, type);
    if (!user || user.resigned) return larkFail(CHAT_ERRORS.invalidOwner);
    ownerId = user.open_id;
  }
  const actor = actorOf(caller);
  const now = ctx.now();
  // Lark: the same uuid (and owner) creates at most one chat in 10 hours.
  const uuidKey = uuid ? `${actor}|${uuid}|${ownerId ?? ""}` : undefined;
  const earlier = uuidKey ? ctx.im.chatByUuid(uuidKey, now) : undefined;
  if (earlier) return larkOk(createdItem(ctx, earlier, type));
  const owner = ownerId ?? (actor === BOT ? undefined : actor);
  const all = [owner, actor === BOT ? undefined : actor, ...members].filter((id): id is string =>
    id !== undefined
  );
  const chat: ChatRecord = {
    chat_id: `oc_${crypto.randomUUID().replaceAll("-", "")}`,
    name,
    description: (body.description as string | undefined) ?? "",
    members: [...new Set(all)],
    botMember: actor === BOT || botIds.includes(ctx.appId),
    owner,
    botManager: botManager === "true" && actor === BOT && ownerId !== undefined,
    chatMode: "group",
    chatType: chatType as ChatRecord["chatType"],
    groupMessageType: messageType as ChatRecord["groupMessageType"],
    createTime: now,
    settings,
  };
  ctx.im.addChat(chat);
  if (uuidKey) ctx.im.rememberChatUuid(uuidKey, chat.chat_id, now);
  return larkOk(createdItem(ctx, chat, type));
}
