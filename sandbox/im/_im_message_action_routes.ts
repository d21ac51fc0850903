/**
 * Forward, recall, read status, urgent notifications and the p2p chat lookup in the sandbox. Shapes follow the Node
 * SDK's `im.v1.message` forward, delete, readUsers, urgentApp, urgentSms and urgentPhone types;
 * scopes are Lark's docs (any one).
 *
 * Rules, as the docs put them:
 * - forward: a tenant token only; the source message readable by the bot, the target a chat the
 *   bot is in or a person; `uuid` in the query sends once per hour;
 * - recall (delete): the sender recalls its own message; in a group the owner (or the bot when
 *   it owns or manages the chat) recalls anyone's (230026 otherwise); a recalled message cannot
 *   be recalled again (230011); the seeded history predates the tenant's recall window
 *   (230009): only messages sent while the sandbox runs are recalled;
 * - read_users: a tenant token only, a message the bot sent within 7 days, the bot still in the
 *   chat; a member has read a message when they reacted to it or sent a message in the chat
 *   after it;
 * - urgent: a tenant token only, a message the bot sent, the bot in the chat; with the chat's
 *   `urgent_setting` at only_owner the bot must own or manage it; ids not in the chat come back
 *   in `invalid_user_id_list`.
 *
 * @module
 */

import { messageReceived } from "../events/event_routes.ts";
import {
  findUser,
  type Incoming,
  larkOk,
  type SandboxContext,
  type SentMessage,
} from "../core/context.ts";
import {
  fieldViolation,
  IM_ERRORS,
  imInvalid,
  larkFail,
  notAnOption,
  notInChat,
  required,
} from "../core/lark_errors.ts";
import { type Caller, jsonBody, type Route, USER_ID_TYPES } from "../core/route.ts";
import {
  actorOf,
  convertOpenId,
  memberMessage,
  pageSizeUpTo,
  senderOf,
  userIdType,
} from "./im_common.ts";
import { BOT, type ChatRecord } from "./im_store.ts";
import { reactionsOf } from "./_im_reaction_pin_routes.ts";
import { isManager } from "./_im_chat_admin_routes.ts";
import { encodePageToken, offsetOf } from "./page_token.ts";

/** The errors of these routes. */
export const ACTION_ERRORS = {
  tooOld: [230009, "The message has exceeded the recall time limit."],
  notYours: [230026, "No permission to recall this message."],
  notSender: [230017, "Bot is NOT the owner of the resource."],
} as const;

const SEVEN_DAYS_MS = 7 * 86_400_000;
const UUID_WINDOW_MS = 3600_000;
const FORWARD_TYPES = ["open_id", "user_id", "union_id", "email", "chat_id", "thread_id"];

/** The action routes. */
export const MESSAGE_ACTION_ROUTES: Route[] = [
  {
    method: "POST",
    pattern: /^\/open-apis\/im\/v1\/messages\/([^/]+)\/forward$/,
    tenantOnly: true,
    scopes: { bot: ["im:message", "im:message:send_as_bot"] },
    handle: forwardMessage,
  },
  {
    method: "DELETE",
    pattern: /^\/open-apis\/im\/v1\/messages\/([^/]+)$/,
    scopes: {
      user: ["im:message:recall", "im:message"],
      bot: ["im:message:recall", "im:message", "im:message:send_as_bot"],
    },
    handle: recallMessage,
  },
  {
    method: "GET",
    pattern: /^\/open-apis\/im\/v1\/messages\/([^/]+)\/read_users$/,
    tenantOnly: true,
    scopes: { bot: ["im:message:readonly", "im:message", "im:message:basic"] },
    handle: readUsers,
  },
  {
    method: "POST",
    pattern: /^\/open-apis\/im\/v1\/chat_p2p\/batch_query$/,
    userOnly: true,
    scopes: {
      user: ["im:message.p2p_msg:get_as_user", "im:message:readonly", "im:message", "im:chat:read"],
    },
    handle: p2pChats,
  },
  ...(["app", "sms", "phone"] as const).map((kind): Route => ({
    method: "PATCH",
    pattern: new RegExp(`^/open-apis/im/v1/messages/([^/]+)/urgent_${kind}$`),
    tenantOnly: true,
    scopes: {
      bot: kind === "app"
        ? ["im:message.urgent", "im:message.urgent:app_send"]
        : [`im:message.urgent:${kind}`, `im:message.urgent:${kind}_send`],
    },
    handle: urgent,
  })),
];

/**
 * `POST /open-apis/im/v1/chat_p2p/batch_query` (lark-cli `shortcuts/im/helpers.go`, the p2p
 * lookup of `+chat-messages-list --user-id`): a user token only; `chatter_id_type` in the query,
 * `chatter_ids` in the body; the answer's `p2p_chats` hold the one-to-one chats the caller has
 * with each of them, only those that exist. The docs we could reach do not list its scopes: the
 * sandbox takes the p2p reading scopes lark-cli's shortcut asks for.
 */
function p2pChats(ctx: SandboxContext, incoming: Incoming, caller: Caller) {
  const type = incoming.url.searchParams.get("chatter_id_type") ?? "open_id";
  if (!(USER_ID_TYPES as readonly string[]).includes(type)) {
    return notAnOption("chatter_id_type", type, USER_ID_TYPES);
  }
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  const ids = body.chatter_ids;
  if (ids === undefined) return required("chatter_ids");
  if (!Array.isArray(ids) || !ids.every((v) => typeof v === "string") || ids.length > 50) {
    return fieldViolation("chatter_ids", "chatter_ids must be a list of at most 50 strings");
  }
  const actor = actorOf(caller);
  const found = ids.flatMap((id) => {
    const user = findUser(ctx, id, type);
    const chat = user && ctx.im.existingP2pChat(actor, user.open_id);
    return chat ? [{ chatter_id: id, chat_id: chat.chat_id }] : [];
  });
  return larkOk({ p2p_chats: found });
}

function sentMessage(ctx: SandboxContext, id: string): SentMessage | undefined {
  return ctx.messages.find((m) => m.message_id === id);
}

function forwardMessage(ctx: SandboxContext, incoming: Incoming, caller: Caller, [id]: string[]) {
  const q = incoming.url.searchParams;
  const idType = q.get("receive_id_type");
  if (!idType) return required("receive_id_type");
  if (!FORWARD_TYPES.includes(idType)) return notAnOption("receive_id_type", idType, FORWARD_TYPES);
  const uuid = q.get("uuid") ?? "";
  if (uuid.length > 50) return fieldViolation("uuid", "the max len is 50", uuid);
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  const receiveId = body.receive_id;
  if (receiveId === undefined || receiveId === "") return required("receive_id");
  if (typeof receiveId !== "string") {
    return fieldViolation("receive_id", "receive_id must be a string");
  }
  const source = memberMessage(ctx, caller, id);
  if (source instanceof Response) return source;
  if (source.deleted) return larkFail(IM_ERRORS.recalled);
  let chat: ChatRecord | undefined;
  if (idType === "chat_id") chat = ctx.im.chat(receiveId);
  else if (idType === "thread_id") {
    const root = ctx.im.threadRoot(receiveId);
    chat = root === undefined ? undefined : ctx.im.chat(ctx.im.message(root)!.chat_id);
  } else {
    const user = findUser(ctx, receiveId, idType);
    if (user?.resigned) return larkFail(IM_ERRORS.resigned);
    chat = user && ctx.im.p2pChat(BOT, user.open_id, ctx.now());
  }
  if (!chat) return imInvalid("invalid receive_id");
  if (!ctx.im.isMember(chat, BOT)) return notInChat();
  const key = uuid === "" ? undefined : `forward|${uuid}`;
  const earlier = key === undefined ? undefined : ctx.messageByUuid.get(key);
  if (earlier && ctx.now() - earlier.at < UUID_WINDOW_MS) return larkOk(shown(earlier.message));
  const created = String(ctx.now());
  const message: SentMessage = {
    message_id: `om_${crypto.randomUUID().replaceAll("-", "")}`,
    ...(idType === "thread_id" ? { thread_id: receiveId } : {}),
    msg_type: source.msg_type,
    create_time: created,
    update_time: created,
    deleted: false,
    updated: false,
    chat_id: chat.chat_id,
    sender: senderOf(ctx, BOT),
    body: { content: source.body?.content ?? "{}" },
    receive_id: receiveId,
    receive_id_type: idType,
    uuid: uuid === "" ? undefined : uuid,
  };
  ctx.im.append(message);
  ctx.messages.push(message);
  if (key !== undefined) ctx.messageByUuid.set(key, { message, at: ctx.now() });
  messageReceived(ctx, message);
  return larkOk(shown(message));
}

/** A sent message without the sandbox's bookkeeping fields. */
function shown(message: SentMessage): Record<string, unknown> {
  const { receive_id: _r, receive_id_type: _t, uuid: _u, ...rest } = message;
  return rest;
}

/** Whether the actor owns or manages a group chat (a p2p chat has no manager). */
function managesChat(chat: ChatRecord, actor: string): boolean {
  return chat.chatMode === "group" && isManager(chat, actor);
}

function recallMessage(ctx: SandboxContext, _incoming: Incoming, caller: Caller, [id]: string[]) {
  const item = memberMessage(ctx, caller, id);
  if (item instanceof Response) return item;
  if (item.deleted) return larkFail(IM_ERRORS.recalled);
  const actor = actorOf(caller);
  const own = item.sender.id === senderOf(ctx, actor).id;
  if (!own && !managesChat(ctx.im.chat(item.chat_id)!, actor)) {
    return larkFail(ACTION_ERRORS.notYours);
  }
  const sent = sentMessage(ctx, item.message_id);
  if (!sent) return larkFail(ACTION_ERRORS.tooOld);
  sent.deleted = true;
  sent.update_time = String(ctx.now());
  return larkOk({});
}

/** The bot's own message of the last 7 days, or the failure. */
function botMessage(ctx: SandboxContext, caller: Caller, id: string): SentMessage | Response {
  const item = memberMessage(ctx, caller, id);
  if (item instanceof Response) return item;
  const sent = sentMessage(ctx, item.message_id);
  if (!sent || sent.sender.sender_type !== "app") return larkFail(ACTION_ERRORS.notSender);
  if (sent.deleted) return larkFail(IM_ERRORS.recalled);
  return sent;
}

function readUsers(ctx: SandboxContext, incoming: Incoming, caller: Caller, [id]: string[]) {
  const q = incoming.url.searchParams;
  if (!q.get("user_id_type")) return required("user_id_type");
  const type = userIdType(incoming.url);
  if (type instanceof Response) return type;
  const size = pageSizeUpTo(incoming.url, 100);
  if (size instanceof Response) return size;
  const sent = botMessage(ctx, caller, id);
  if (sent instanceof Response) return sent;
  const at = Number(sent.create_time);
  if (ctx.now() - at > SEVEN_DAYS_MS) return larkFail(ACTION_ERRORS.tooOld);
  const readAt = new Map<string, number>();
  for (const r of reactionsOf(ctx, sent.message_id)) {
    if (r.actor !== BOT && !readAt.has(r.actor)) readAt.set(r.actor, r.at);
  }
  for (const m of ctx.messages) {
    const time = Number(m.create_time);
    if (m.chat_id !== sent.chat_id || m.sender.sender_type !== "user" || time < at) continue;
    if (!readAt.has(m.sender.id)) readAt.set(m.sender.id, time);
  }
  const readers = [...readAt].sort((a, b) => a[1] - b[1]);
  const fingerprint = `read|${sent.message_id}|${type}`;
  const offset = offsetOf(incoming.url, fingerprint);
  if (offset === undefined) return imInvalid("invalid page_token");
  const more = offset + size < readers.length;
  return larkOk({
    items: readers.slice(offset, offset + size).map(([openId, time]) => ({
      user_id_type: type,
      user_id: convertOpenId(ctx, openId, type),
      timestamp: String(time),
      tenant_key: ctx.tenantKey,
    })),
    has_more: more,
    ...(more ? { page_token: encodePageToken(fingerprint, offset + size) } : {}),
  });
}

function urgent(ctx: SandboxContext, incoming: Incoming, caller: Caller, [id]: string[]) {
  const type = incoming.url.searchParams.get("user_id_type");
  if (!type) return required("user_id_type");
  if (!(USER_ID_TYPES as readonly string[]).includes(type)) {
    return notAnOption("user_id_type", type, USER_ID_TYPES);
  }
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  const ids = body.user_id_list;
  if (ids === undefined) return required("user_id_list");
  if (!Array.isArray(ids) || !ids.every((v) => typeof v === "string") || ids.length === 0) {
    return fieldViolation("user_id_list", "user_id_list must be a non-empty list of strings");
  }
  const sent = botMessage(ctx, caller, id);
  if (sent instanceof Response) return sent;
  const chat = ctx.im.chat(sent.chat_id)!;
  if (!ctx.im.isMember(chat, BOT)) return notInChat();
  const onlyOwner = chat.settings?.urgent_setting === "only_owner";
  if (onlyOwner && !managesChat(chat, BOT)) return larkFail(ACTION_ERRORS.notYours);
  const invalid = ids.filter((given) => {
    const user = findUser(ctx, given, type);
    return !user || user.resigned || !chat.members.includes(user.open_id);
  });
  return larkOk({ invalid_user_id_list: invalid });
}
