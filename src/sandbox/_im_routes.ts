/**
 * The IM routes of the sandbox: sending messages.
 *
 * @module
 */

import {
  findUser,
  type Incoming,
  larkError,
  larkOk,
  type SandboxContext,
  type SentMessage,
} from "./_context.ts";
import { FIELD_VALIDATION_FAILED } from "./_contact_routes.ts";
import { type Caller, jsonBody, type Route } from "./_route.ts";

/** Code for an unknown message receiver. */
export const RECEIVER_NOT_FOUND = 230013;
const UUID_WINDOW_MS = 3600_000;

/** The IM routes. */
export const IM_ROUTES: Route[] = [
  {
    method: "POST",
    pattern: /^\/open-apis\/im\/v1\/messages$/,
    // lark-cli shortcuts/im/im_messages_send.go: UserScopes, BotScopes (im:message grants both).
    scopes: {
      user: ["im:message.send_as_user", "im:message"],
      bot: ["im:message:send_as_bot", "im:message"],
    },
    handle: sendMessage,
  },
];

const MSG_TYPES = [
  "text",
  "post",
  "image",
  "interactive",
  "file",
  "audio",
  "media",
  "sticker",
  "share_chat",
  "share_user",
];

function contentProblem(msgType: string, content: unknown): string | undefined {
  if (typeof content !== "object" || content === null || Array.isArray(content)) {
    return "content must be a JSON string encoding an object";
  }
  const c = content as Record<string, unknown>;
  if (msgType === "text" && typeof c.text !== "string") {
    return 'text content must be {"text": "..."}';
  }
  if (msgType === "post") {
    const locales = Object.keys(c);
    if (locales.length === 0) return "post content needs a locale such as zh_cn or en_us";
    for (const locale of locales) {
      const post = c[locale] as Record<string, unknown> | null;
      if (typeof post !== "object" || post === null || !Array.isArray(post.content)) {
        return `post content "${locale}" needs {title, content: [[...]]}`;
      }
      if (!post.content.every((line) => Array.isArray(line))) {
        return `post content "${locale}".content must be a list of lists`;
      }
    }
  }
  return undefined;
}

function sendMessage(ctx: SandboxContext, incoming: Incoming, caller: Caller): Response {
  const idType = incoming.url.searchParams.get("receive_id_type");
  const invalid = (why: string) =>
    larkError(FIELD_VALIDATION_FAILED, `field validation failed: ${why}`);
  if (!idType) return invalid("receive_id_type is required in the query");
  if (!["chat_id", "open_id", "user_id", "union_id", "email"].includes(idType)) {
    return invalid(`receive_id_type "${idType}" is not supported`);
  }
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  const { receive_id: receiveId, msg_type: msgType, content, uuid } = body;
  if (typeof receiveId !== "string" || receiveId === "") return invalid("receive_id is required");
  if (typeof msgType !== "string" || !MSG_TYPES.includes(msgType)) {
    return invalid(`msg_type "${String(msgType ?? "")}" is not supported`);
  }
  if (typeof content !== "string") {
    return invalid("content must be a string holding JSON (not a JSON object)");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return invalid("content is not valid JSON");
  }
  const problem = contentProblem(msgType, parsed);
  if (problem) return invalid(problem);
  if (uuid !== undefined && (typeof uuid !== "string" || uuid.length > 50)) {
    return invalid("uuid must be a string of at most 50 characters");
  }
  let chatId: string;
  if (idType === "chat_id") {
    const chat = ctx.chats.find((c) => c.chat_id === receiveId);
    if (!chat) {
      return larkError(RECEIVER_NOT_FOUND, `receiver not found: chat_id "${receiveId}"`);
    }
    chatId = chat.chat_id;
  } else {
    const user = findUser(ctx, receiveId, idType);
    if (!user) {
      return larkError(RECEIVER_NOT_FOUND, `receiver not found: ${idType} "${receiveId}"`);
    }
    chatId = `oc_p2p_${user.open_id.slice(3, 27)}`;
  }
  const senderId = caller.record.kind === "user" ? caller.owner : ctx.appId;
  const now = ctx.now();
  const key = uuid ? `${senderId}|${uuid}` : undefined;
  if (key) {
    const earlier = ctx.messageByUuid.get(key);
    if (earlier && now - earlier.at < UUID_WINDOW_MS) return larkOk(publicMessage(earlier.message));
  }
  const created = String(now);
  const message: SentMessage = {
    message_id: `om_${crypto.randomUUID().replaceAll("-", "")}`,
    chat_id: chatId,
    msg_type: msgType,
    create_time: created,
    update_time: created,
    deleted: false,
    updated: false,
    body: { content },
    sender: {
      id: senderId,
      id_type: caller.record.kind === "user" ? "open_id" : "app_id",
      sender_type: caller.record.kind === "user" ? "user" : "app",
      tenant_key: ctx.tenantKey,
    },
    receive_id: receiveId,
    receive_id_type: idType,
    uuid: uuid as string | undefined,
  };
  ctx.messages.push(message);
  if (key) ctx.messageByUuid.set(key, { message, at: now });
  return larkOk(publicMessage(message));
}

/** A sent message as the API returns it (without the sandbox's bookkeeping fields). */
export function publicMessage(message: SentMessage): Record<string, unknown> {
  const { receive_id: _r, receive_id_type: _t, uuid: _u, ...rest } = message;
  return rest;
}
