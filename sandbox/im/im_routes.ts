/**
 * The IM message routes of the sandbox: send, reply (threads included), list a chat or a thread,
 * get one message or several; plus the table of every IM route (chats and files live in their
 * own files).
 *
 * Shapes follow the Node SDK's `im.v1.message` types and Lark's im-v1 message docs; scopes are
 * lark-cli's shortcut declarations plus the ones Lark's docs list for the API (any one grants
 * access).
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
  actorOf,
  memberMessage,
  readPageSize,
  renderMessage,
  type RenderOptions,
  senderOf,
  userIdType,
} from "./im_common.ts";
import { CHAT_ROUTES } from "./_im_chat_routes.ts";
import { CHAT_ADMIN_ROUTES } from "./_im_chat_admin_routes.ts";
import { SEARCH_ROUTES } from "./_im_search_routes.ts";
import { CHAT_SEARCH_V2_ROUTES } from "./_im_chat_search_v2_routes.ts";
import { REACTION_PIN_ROUTES } from "./_im_reaction_pin_routes.ts";
import { MESSAGE_ACTION_ROUTES } from "./_im_message_action_routes.ts";
import {
  fieldViolation,
  IM_ERRORS,
  imInvalid,
  larkFail,
  notInChat,
  required,
} from "../core/lark_errors.ts";
import { RESOURCE_ROUTES } from "./_im_resource_routes.ts";
import {
  type Caller,
  jsonBody,
  type Route,
  type RouteScopes,
  type UserIdType,
} from "../core/route.ts";
import { type Actor, BOT, type ChatRecord, type Cursor, type MessageItem } from "./im_store.ts";
import { contentLimit, MSG_TYPES, parseContent } from "./message_content.ts";
import { decodePageToken, encodePageToken } from "./page_token.ts";

const UUID_WINDOW_MS = 3600_000;
const RECEIVE_ID_TYPES = ["chat_id", "open_id", "user_id", "union_id", "email"];

/**
 * Sending and replying, as Lark's im-v1 message create and reply docs put it: as the app, any one
 * of im:message, im:message:send_as_bot, im:message:send; as a user, im:message and
 * im:message.send_as_user both (lark-cli `+messages-send` declares the same pair). im:message:send
 * ("发送消息V2", a legacy scope) is not in lark-cli's scope registry, so the sandbox does not
 * grant it.
 */
export const SEND_SCOPES: RouteScopes = {
  user: [["im:message.send_as_user", "im:message"]],
  bot: ["im:message:send_as_bot", "im:message"],
};

/**
 * Reading messages: lark-cli `+chat-messages-list`/`+messages-mget`, plus im:message:readonly and
 * im:message from Lark's list and get docs (which also name im:message.history:readonly, a scope
 * lark-cli's registry does not know).
 */
export const READ_SCOPES: RouteScopes = {
  user: [
    "im:message.group_msg:get_as_user",
    "im:message.p2p_msg:get_as_user",
    "im:message:readonly",
    "im:message",
  ],
  bot: ["im:message.group_msg", "im:message.p2p_msg:readonly", "im:message:readonly", "im:message"],
};

const MESSAGE_ROUTES: Route[] = [
  {
    method: "POST",
    pattern: /^\/open-apis\/im\/v1\/messages$/,
    scopes: SEND_SCOPES,
    handle: sendMessage,
  },
  {
    method: "GET",
    pattern: /^\/open-apis\/im\/v1\/messages$/,
    scopes: READ_SCOPES,
    handle: listMessages,
  },
  {
    method: "GET",
    pattern: /^\/open-apis\/im\/v1\/messages\/mget$/,
    scopes: READ_SCOPES,
    handle: mgetMessages,
  },
  {
    method: "GET",
    pattern: /^\/open-apis\/im\/v1\/messages\/([^/]+)$/,
    scopes: READ_SCOPES,
    handle: getMessage,
  },
  {
    method: "POST",
    pattern: /^\/open-apis\/im\/v1\/messages\/([^/]+)\/reply$/,
    scopes: SEND_SCOPES,
    handle: replyMessage,
  },
];

/** Every IM route: messages, chats, uploads and message resources. */
export const IM_ROUTES: Route[] = [
  ...SEARCH_ROUTES,
  ...REACTION_PIN_ROUTES,
  ...CHAT_SEARCH_V2_ROUTES,
  ...MESSAGE_ACTION_ROUTES,
  ...MESSAGE_ROUTES,
  ...CHAT_ROUTES,
  ...CHAT_ADMIN_ROUTES,
  ...RESOURCE_ROUTES,
];

/** A sent message as the API returns it (without the sandbox's bookkeeping fields). */
export function publicMessage(message: SentMessage): Record<string, unknown> {
  const { receive_id: _r, receive_id_type: _t, uuid: _u, ...rest } = message;
  return rest;
}

/** `msg_type`, `content` and `uuid` of a send or reply body, checked. */
interface Outgoing {
  msgType: string;
  content: string;
  uuid?: string;
}

function readOutgoing(body: Record<string, unknown>): Outgoing | Response {
  const { msg_type: msgType, content, uuid } = body;
  if (msgType === undefined || msgType === "") return required("msg_type");
  if (typeof msgType !== "string" || !(MSG_TYPES as readonly string[]).includes(msgType)) {
    return imInvalid("invalid msg_type");
  }
  if (content === undefined || content === "") return required("content");
  if (typeof content !== "string") {
    return fieldViolation("content", "content must be a string holding JSON");
  }
  if (uuid !== undefined && (typeof uuid !== "string" || uuid.length > 50)) {
    return fieldViolation("uuid", "the max len is 50", String(uuid));
  }
  return { msgType, content, uuid: uuid as string | undefined };
}

/**
 * Checks content against Lark's rules and the store: size, shape, and that every image, file,
 * chat and user it names exists and may be sent by this actor here.
 */
function checkContent(
  ctx: SandboxContext,
  actor: Actor,
  chat: ChatRecord,
  { msgType, content }: Outgoing,
): Response | undefined {
  if (new TextEncoder().encode(content).length > contentLimit(msgType)) {
    return larkFail(IM_ERRORS.tooLong);
  }
  const parsed = parseContent(msgType, content);
  if (parsed.problem) return imInvalid(`invalid message content. ${parsed.problem}`);
  if (msgType === "system") {
    if (actor !== BOT) return imInvalid("sending system messages as a user is not supported");
    if (chat.chatMode !== "p2p") {
      return imInvalid("sending system messages in group chats is not supported");
    }
  }
  for (const key of parsed.images) {
    if (ctx.im.resource(key)?.kind !== "image") return imInvalid("invalid image_key");
  }
  for (const key of parsed.files) {
    const file = ctx.im.resource(key);
    if (file?.kind !== "file") return imInvalid("invalid file_key");
    // Lark takes uploads with the tenant token only (im-v1 file create), so the app owns what
    // it uploaded, and its bot and its signed-in users may send it (lark-cli PR #180 uploads as
    // the bot to send as the user); a file only someone else's message holds is not theirs.
    if (file.owner !== actor && file.owner !== BOT) return larkFail(IM_ERRORS.notOwner);
    const wants = msgType === "audio"
      ? "opus"
      : msgType === "media" || msgType === "post"
      ? "mp4"
      : undefined;
    const video = file.fileType === "mp4" || file.fileType === "opus";
    if (wants ? file.fileType !== wants : video) return larkFail(IM_ERRORS.fileTypeMismatch);
  }
  if (parsed.chatId !== undefined) {
    const shared = ctx.im.chat(parsed.chatId);
    if (!shared) return imInvalid("invalid chat_id");
    if (shared.chatMode === "p2p") return larkFail(IM_ERRORS.p2pShare);
  }
  if (parsed.userId !== undefined && !findUser(ctx, parsed.userId, "open_id")) {
    return imInvalid("invalid user_id");
  }
  return undefined;
}

/** Where a new message sits: the thread fields of a reply, and how it was addressed. */
interface Placement {
  root_id?: string;
  parent_id?: string;
  thread_id?: string;
  receive_id: string;
  receive_id_type: string;
}

function newMessage(
  ctx: SandboxContext,
  actor: Actor,
  chat: ChatRecord,
  outgoing: Outgoing,
  { receive_id, receive_id_type, ...thread }: Placement,
): SentMessage {
  const created = String(ctx.now());
  return {
    message_id: `om_${crypto.randomUUID().replaceAll("-", "")}`,
    ...thread,
    msg_type: outgoing.msgType,
    create_time: created,
    update_time: created,
    deleted: false,
    updated: false,
    chat_id: chat.chat_id,
    sender: senderOf(ctx, actor),
    body: { content: outgoing.content },
    receive_id,
    receive_id_type,
    uuid: outgoing.uuid,
  };
}

function earlier(ctx: SandboxContext, key: string | undefined): SentMessage | undefined {
  if (!key) return undefined;
  const found = ctx.messageByUuid.get(key);
  return found && ctx.now() - found.at < UUID_WINDOW_MS ? found.message : undefined;
}

function remember(ctx: SandboxContext, key: string | undefined, message: SentMessage): void {
  ctx.im.append(message);
  ctx.messages.push(message);
  if (key) ctx.messageByUuid.set(key, { message, at: ctx.now() });
  messageReceived(ctx, message);
}

function sendMessage(ctx: SandboxContext, incoming: Incoming, caller: Caller): Response {
  const idType = incoming.url.searchParams.get("receive_id_type");
  if (!idType) return required("receive_id_type");
  if (!RECEIVE_ID_TYPES.includes(idType)) return imInvalid("invalid receive_id_type");
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  const receiveId = body.receive_id;
  if (receiveId === undefined || receiveId === "") return required("receive_id");
  if (typeof receiveId !== "string") {
    return fieldViolation("receive_id", "receive_id must be a string");
  }
  const outgoing = readOutgoing(body);
  if (outgoing instanceof Response) return outgoing;
  const actor = actorOf(caller);
  let chat: ChatRecord | undefined;
  if (idType === "chat_id") {
    chat = ctx.im.chat(receiveId);
    if (!chat) return imInvalid("invalid receive_id");
  } else {
    const user = findUser(ctx, receiveId, idType);
    if (!user) return imInvalid("invalid receive_id");
    if (user.resigned) return larkFail(IM_ERRORS.resigned);
    chat = ctx.im.p2pChat(actor, user.open_id, ctx.now());
  }
  if (!ctx.im.isMember(chat, actor)) return notInChat();
  const problem = checkContent(ctx, actor, chat, outgoing);
  if (problem) return problem;
  const key = outgoing.uuid ? `${senderOf(ctx, actor).id}|${outgoing.uuid}` : undefined;
  const before = earlier(ctx, key);
  if (before) return larkOk(publicMessage(before));
  const message = newMessage(ctx, actor, chat, outgoing, {
    receive_id: receiveId,
    receive_id_type: idType,
  });
  remember(ctx, key, message);
  // In a chat whose messages are threads, every message starts one (Lark's thread overview).
  if (chat.groupMessageType === "thread") ctx.im.startThread(message.message_id);
  return larkOk(publicMessage(message));
}

function replyMessage(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  [messageId]: string[],
): Response {
  const parent = ctx.im.message(messageId);
  if (!parent) return imInvalid("invalid message_id");
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  const outgoing = readOutgoing(body);
  if (outgoing instanceof Response) return outgoing;
  const inThread = body.reply_in_thread ?? false;
  if (typeof inThread !== "boolean") {
    return fieldViolation("reply_in_thread", "reply_in_thread must be a boolean");
  }
  const actor = actorOf(caller);
  const chat = ctx.im.chat(parent.chat_id)!;
  if (!ctx.im.isMember(chat, actor)) return notInChat();
  if (parent.deleted) return larkFail(IM_ERRORS.recalled);
  const problem = checkContent(ctx, actor, chat, outgoing);
  if (problem) return problem;
  const key = outgoing.uuid ? `reply|${senderOf(ctx, actor).id}|${outgoing.uuid}` : undefined;
  const before = earlier(ctx, key);
  if (before) return larkOk(publicMessage(before));
  // A reply to a thread message stays in the thread; a reply in thread starts one on the parent.
  const threadId = parent.thread_id ??
    (inThread || chat.groupMessageType === "thread"
      ? ctx.im.startThread(parent.message_id)
      : undefined);
  const root = threadId ? ctx.im.threadRoot(threadId)! : parent.root_id ?? parent.message_id;
  const message = newMessage(ctx, actor, chat, outgoing, {
    root_id: root,
    parent_id: threadId ? root : parent.message_id,
    thread_id: threadId,
    receive_id: parent.message_id,
    receive_id_type: "message_id",
  });
  if (!threadId) delete message.thread_id;
  remember(ctx, key, message);
  return larkOk(publicMessage(message));
}

const SORT_TYPES = ["ByCreateTimeAsc", "ByCreateTimeDesc"];

function isCursor(value: unknown): value is Cursor {
  return Array.isArray(value) && value.length === 3 &&
    value.every((n) => typeof n === "number" && Number.isSafeInteger(n));
}

function readSeconds(url: URL, name: string): number | undefined | Response {
  const text = url.searchParams.get(name);
  if (text === null || text === "") return undefined;
  return /^\d{1,12}$/.test(text) ? Number(text) : imInvalid(`invalid ${name}`);
}

function listMessages(ctx: SandboxContext, incoming: Incoming, caller: Caller): Response {
  const q = incoming.url.searchParams;
  const type = q.get("container_id_type");
  if (!type) return required("container_id_type");
  if (type !== "chat" && type !== "thread") return imInvalid("invalid container_id_type");
  const containerId = q.get("container_id");
  if (!containerId) return required("container_id");
  const sort = q.get("sort_type") || "ByCreateTimeAsc";
  if (!SORT_TYPES.includes(sort)) return imInvalid("invalid sort_type");
  const limit = readPageSize(incoming.url, 50, () => imInvalid("The page_size exceeds the limit"));
  if (limit instanceof Response) return limit;
  let start: number | undefined;
  let end: number | undefined;
  if (type === "thread" && (q.get("start_time") || q.get("end_time"))) {
    // Lark's doc of GET /open-apis/im/v1/messages: the thread container does not support a time
    // window ("thread 容器类型暂不支持获取指定时间范围内的消息"). Refused rather than ignored, so a
    // client never takes a whole thread for the window it asked for (the exact code Lark answers
    // is unverified; 230001 is its invalid-parameter code).
    return imInvalid("start_time and end_time are not supported for container_id_type thread");
  }
  if (type === "chat") {
    const s = readSeconds(incoming.url, "start_time");
    if (s instanceof Response) return s;
    const e = readSeconds(incoming.url, "end_time");
    if (e instanceof Response) return e;
    if (s !== undefined && e !== undefined && e < s) {
      return imInvalid("The end_time is earlier than the start_time");
    }
    start = s;
    end = e;
  }
  const actor = actorOf(caller);
  let chat: ChatRecord | undefined;
  if (type === "chat") chat = ctx.im.chat(containerId);
  else {
    const root = ctx.im.threadRoot(containerId);
    chat = root ? ctx.im.chat(ctx.im.message(root)!.chat_id) : undefined;
  }
  if (!chat) return imInvalid("invalid container_id");
  if (!ctx.im.isMember(chat, actor)) return notInChat();
  const fingerprint = [type, containerId, start ?? "", end ?? "", sort].join("|");
  const tokenText = q.get("page_token");
  let after: Cursor | undefined;
  if (tokenText) {
    const token = decodePageToken(tokenText, isCursor);
    if (!token) return imInvalid("invalid page_token");
    if (token.query !== fingerprint) {
      return imInvalid("the request parameters have changed, page_token is invalid");
    }
    after = token.position;
  }
  const query = {
    startMs: start === undefined ? undefined : start * 1000,
    endMs: end === undefined ? undefined : end * 1000,
    desc: sort === "ByCreateTimeDesc",
    after,
    limit,
  };
  const page = type === "chat"
    ? ctx.im.listChat(chat, query)
    : ctx.im.listThread(containerId, query);
  const options: RenderOptions = {
    withSenderName: q.get("with_sender_name") === "true",
    recalled: "text",
  };
  const data: Record<string, unknown> = { has_more: page.more };
  if (page.more && page.last) data.page_token = encodePageToken(fingerprint, page.last);
  data.items = page.items.map((item) => renderMessage(ctx, item, options));
  return larkOk(data);
}

function getOptions(url: URL): RenderOptions | Response {
  const type = userIdType(url);
  if (type instanceof Response) return type;
  return {
    userIdType: type as UserIdType,
    withSenderName: url.searchParams.get("with_sender_name") === "true",
    recalled: "omit",
  };
}

function getMessage(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  [messageId]: string[],
): Response {
  const options = getOptions(incoming.url);
  if (options instanceof Response) return options;
  const item = memberMessage(ctx, caller, messageId);
  if (item instanceof Response) return item;
  return larkOk({ items: [renderMessage(ctx, item, options)] });
}

function mgetMessages(ctx: SandboxContext, incoming: Incoming, caller: Caller): Response {
  const ids = incoming.url.searchParams.getAll("message_ids").filter((id) => id !== "");
  if (ids.length === 0) return required("message_ids");
  if (ids.length > 50) return fieldViolation("message_ids", "the max len is 50");
  const options = getOptions(incoming.url);
  if (options instanceof Response) return options;
  // mget is not documented to fill sender names (lark-cli sends no with_sender_name): it never
  // does here, so hark's fallback lookups are what names the senders.
  options.withSenderName = false;
  const items: MessageItem[] = [];
  for (const id of ids) {
    const item = memberMessage(ctx, caller, id);
    if (item instanceof Response) return item;
    items.push(renderMessage(ctx, item, options));
  }
  return larkOk({ items });
}
