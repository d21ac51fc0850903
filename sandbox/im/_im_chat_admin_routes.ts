/**
 * The chat administration routes of the sandbox: update a chat (name, description, owner,
 * permissions) and list, add and remove its members. Shapes follow the Node SDK's `im.v1.chat`
 * update and `im.v1.chatMembers` get, create and delete types; scopes are lark-cli's (`skills/
 * lark-im/SKILL.md`: `chats.update` im:chat:update, `chat.members.get` im:chat.members:read,
 * `chat.members.create`/`delete` im:chat.members:write_only) plus the broad `im:chat`.
 *
 * Who may do what, as Lark's chat docs put it: only members act on a chat (232011); with
 * `edit_permission: only_owner` only the owner or a manager edits it, and only the owner hands
 * the chat over (232017 for both); removing someone else needs the owner or a manager; the
 * owner cannot be removed.
 *
 * @module
 */

import { findUser, type Incoming, larkOk, type SandboxContext } from "../core/context.ts";
import { CHAT_ERRORS, fieldViolation, larkFail, notAnOption } from "../core/lark_errors.ts";
import { type Caller, jsonBody, type Route, type RouteScopes } from "../core/route.ts";
import { actorOf, idOf, readPageSize } from "./im_common.ts";
import { type Actor, BOT, type ChatRecord } from "./im_store.ts";
import { decodePageToken, encodePageToken } from "./page_token.ts";

/** Updating a chat. */
export const CHAT_UPDATE_SCOPES: RouteScopes = {
  user: ["im:chat:update", "im:chat"],
  bot: ["im:chat:update", "im:chat"],
};
/** Reading a chat's members. */
export const MEMBER_READ_SCOPES: RouteScopes = {
  user: ["im:chat.members:read", "im:chat:readonly", "im:chat"],
  bot: ["im:chat.members:read", "im:chat:readonly", "im:chat"],
};
/** Adding and removing members. */
export const MEMBER_WRITE_SCOPES: RouteScopes = {
  user: ["im:chat.members:write_only", "im:chat"],
  bot: ["im:chat.members:write_only", "im:chat"],
};

/** 232017: the operator is neither the owner nor a manager of the chat. */
export const NOT_MANAGER = [
  232017,
  "The operator is not the chat owner or a chat manager.",
] as const;

const PERMISSIONS: Record<string, readonly string[]> = {
  edit_permission: ["only_owner", "all_members"],
  at_all_permission: ["only_owner", "all_members"],
  add_member_permission: ["only_owner", "all_members"],
  share_card_permission: ["allowed", "not_allowed"],
  join_message_visibility: ["only_owner", "all_members", "not_anyone"],
  leave_message_visibility: ["only_owner", "all_members", "not_anyone"],
  membership_approval: ["no_approval_required", "approval_required"],
};

const MEMBER_ID_TYPES = ["open_id", "union_id", "user_id", "app_id"];

/** The chat administration routes. */
export const CHAT_ADMIN_ROUTES: Route[] = [
  {
    method: "PUT",
    pattern: /^\/open-apis\/im\/v1\/chats\/([^/]+)$/,
    scopes: CHAT_UPDATE_SCOPES,
    handle: updateChat,
  },
  {
    method: "GET",
    pattern: /^\/open-apis\/im\/v1\/chats\/([^/]+)\/members$/,
    scopes: MEMBER_READ_SCOPES,
    handle: listMembers,
  },
  {
    method: "POST",
    pattern: /^\/open-apis\/im\/v1\/chats\/([^/]+)\/members$/,
    scopes: MEMBER_WRITE_SCOPES,
    handle: addMembers,
  },
  {
    method: "DELETE",
    pattern: /^\/open-apis\/im\/v1\/chats\/([^/]+)\/members$/,
    scopes: MEMBER_WRITE_SCOPES,
    handle: removeMembers,
  },
];

/** Whether the actor owns or manages the chat (the bot manages a chat it owns or manages). */
export function isManager(chat: ChatRecord, actor: Actor): boolean {
  if (actor === BOT) return chat.botMember && (chat.owner === undefined || chat.botManager);
  return chat.owner === actor;
}

/** The group chat the actor is in, or the failure. */
function memberChat(ctx: SandboxContext, chatId: string, actor: Actor): ChatRecord | Response {
  const chat = ctx.im.chat(chatId);
  if (!chat || chat.chatMode !== "group") return larkFail(CHAT_ERRORS.invalidChatId);
  if (!ctx.im.isMember(chat, actor)) return larkFail(CHAT_ERRORS.notInChat);
  return chat;
}

function updateChat(ctx: SandboxContext, incoming: Incoming, caller: Caller, [id]: string[]) {
  const type = incoming.url.searchParams.get("user_id_type") ?? "open_id";
  if (!MEMBER_ID_TYPES.slice(0, 3).includes(type)) {
    return notAnOption("user_id_type", type, MEMBER_ID_TYPES.slice(0, 3));
  }
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  for (const field of ["name", "description", "owner_id", "avatar", ...Object.keys(PERMISSIONS)]) {
    if (body[field] !== undefined && typeof body[field] !== "string") {
      return fieldViolation(field, `${field} must be a string`);
    }
  }
  for (const [field, options] of Object.entries(PERMISSIONS)) {
    const value = body[field];
    if (typeof value === "string" && !options.includes(value)) {
      return notAnOption(field, value, options);
    }
  }
  const actor = actorOf(caller);
  const chat = memberChat(ctx, id, actor);
  if (chat instanceof Response) return chat;
  const manager = isManager(chat, actor);
  const edits = (chat.settings?.edit_permission ?? "all_members") === "all_members";
  if (!manager && !edits) return larkFail(NOT_MANAGER);
  const settingsChanged = Object.keys(PERMISSIONS).some((f) => body[f] !== undefined);
  if (!manager && settingsChanged) return larkFail(NOT_MANAGER);
  let owner: string | undefined;
  if (typeof body.owner_id === "string" && body.owner_id !== "") {
    if (!manager || (actor !== BOT && chat.owner !== actor)) return larkFail(NOT_MANAGER);
    const user = findUser(ctx, body.owner_id, type);
    if (!user || user.resigned || !chat.members.includes(user.open_id)) {
      return larkFail(CHAT_ERRORS.invalidOwner);
    }
    owner = user.open_id;
  }
  const name = typeof body.name === "string" ? body.name : undefined;
  if (name !== undefined && chat.chatType === "public" && name.trim().length < 2) {
    return larkFail(name.trim() === "" ? CHAT_ERRORS.emptyName : CHAT_ERRORS.shortName);
  }
  if (name !== undefined) chat.name = name;
  if (typeof body.description === "string") chat.description = body.description;
  if (owner !== undefined) chat.owner = owner;
  const settings = { ...chat.settings };
  for (const field of ["avatar", ...Object.keys(PERMISSIONS)]) {
    if (typeof body[field] === "string") settings[field] = body[field];
  }
  chat.settings = settings;
  return larkOk({});
}

function isOffset(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function listMembers(ctx: SandboxContext, incoming: Incoming, caller: Caller, [id]: string[]) {
  const q = incoming.url.searchParams;
  const type = q.get("member_id_type") ?? "open_id";
  if (!MEMBER_ID_TYPES.slice(0, 3).includes(type)) {
    return notAnOption("member_id_type", type, MEMBER_ID_TYPES.slice(0, 3));
  }
  const size = readPageSize(
    incoming.url,
    100,
    () => fieldViolation("page_size", "the max value is 100", q.get("page_size")!),
  );
  if (size instanceof Response) return size;
  const chat = memberChat(ctx, id, actorOf(caller));
  if (chat instanceof Response) return chat;
  const fingerprint = `members|${chat.chat_id}|${type}`;
  let offset = 0;
  const tokenText = q.get("page_token");
  if (tokenText) {
    const token = decodePageToken(tokenText, isOffset);
    if (!token || token.query !== fingerprint) return larkFail(CHAT_ERRORS.invalidParam);
    offset = token.position;
  }
  // Lark lists users only: bots are left out of the items and of member_total.
  const users = chat.members.flatMap((openId) => {
    const user = ctx.im.users.get(openId);
    return user ? [user] : [];
  });
  const page = users.slice(offset, offset + size);
  const more = offset + size < users.length;
  return larkOk({
    items: page.map((user) => ({
      member_id_type: type,
      member_id: idOf(
        user,
        type === "union_id" ? "union_id" : type === "user_id" ? "user_id" : "open_id",
      ),
      name: user.name,
      tenant_key: ctx.tenantKey,
    })),
    ...(more ? { page_token: encodePageToken(fingerprint, offset + size) } : {}),
    has_more: more,
    member_total: users.length,
  });
}

/** The body's `id_list` and the query's `member_id_type`, checked. */
function idsOf(incoming: Incoming): { ids: string[]; type: string } | Response {
  const type = incoming.url.searchParams.get("member_id_type") ?? "open_id";
  if (!MEMBER_ID_TYPES.includes(type)) return notAnOption("member_id_type", type, MEMBER_ID_TYPES);
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  const ids = body.id_list ?? [];
  if (!Array.isArray(ids) || !ids.every((v) => typeof v === "string")) {
    return fieldViolation("id_list", "id_list must be a list of strings");
  }
  if (ids.length === 0) return fieldViolation("id_list", "id_list is required");
  if (ids.length > 50) return fieldViolation("id_list", "the max len is 50");
  return { ids, type };
}

function addMembers(ctx: SandboxContext, incoming: Incoming, caller: Caller, [id]: string[]) {
  const request = idsOf(incoming);
  if (request instanceof Response) return request;
  const succeed = incoming.url.searchParams.get("succeed_type") ?? "0";
  if (!["0", "1", "2"].includes(succeed)) {
    return notAnOption("succeed_type", succeed, ["0", "1", "2"]);
  }
  const actor = actorOf(caller);
  const chat = memberChat(ctx, id, actor);
  if (chat instanceof Response) return chat;
  const open = (chat.settings?.add_member_permission ?? "all_members") === "all_members";
  if (!open && !isManager(chat, actor)) return larkFail(NOT_MANAGER);
  const found: string[] = [];
  const unknown: string[] = [];
  let bot = false;
  for (const member of request.ids) {
    if (request.type === "app_id") {
      if (member === ctx.appId) bot = true;
      else unknown.push(member);
      continue;
    }
    const user = findUser(ctx, member, request.type);
    if (!user || user.resigned) unknown.push(member);
    else found.push(user.open_id);
  }
  // succeed_type 0 (the default): one unusable id fails the whole request.
  if (unknown.length > 0 && succeed === "0") return larkFail(CHAT_ERRORS.unavailableIds);
  if (unknown.length > 0 && succeed === "2") return larkFail(CHAT_ERRORS.unavailableIds);
  chat.members = [...new Set([...chat.members, ...found])];
  if (bot) chat.botMember = true;
  return larkOk({
    invalid_id_list: [],
    not_existed_id_list: unknown,
    pending_approval_id_list: [],
  });
}

function removeMembers(ctx: SandboxContext, incoming: Incoming, caller: Caller, [id]: string[]) {
  const request = idsOf(incoming);
  if (request instanceof Response) return request;
  const actor = actorOf(caller);
  const chat = memberChat(ctx, id, actor);
  if (chat instanceof Response) return chat;
  const invalid: string[] = [];
  const gone = new Set<string>();
  let bot = false;
  for (const member of request.ids) {
    if (request.type === "app_id") {
      if (member === ctx.appId && chat.botMember) bot = true;
      else invalid.push(member);
      continue;
    }
    const user = findUser(ctx, member, request.type);
    if (!user || !chat.members.includes(user.open_id)) invalid.push(member);
    else gone.add(user.open_id);
  }
  const others = [...gone].some((m) => m !== actor) || (bot && actor !== BOT);
  if (others && !isManager(chat, actor)) return larkFail(NOT_MANAGER);
  if (chat.owner !== undefined && gone.has(chat.owner)) return larkFail(CHAT_ERRORS.invalidParam);
  chat.members = chat.members.filter((m) => !gone.has(m));
  if (bot) chat.botMember = false;
  return larkOk({ invalid_id_list: invalid });
}
