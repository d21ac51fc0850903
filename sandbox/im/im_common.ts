/**
 * What the IM routes share: who the caller is in IM terms, user ids in the type a request asks
 * for, and messages rendered in the read endpoints' shape.
 *
 * @module
 */

import { findUser, type SandboxContext } from "../core/context.ts";
import { fieldViolation, imInvalid, notAnOption, notInChat } from "../core/lark_errors.ts";
import { type Caller, USER_ID_TYPES, type UserIdType, userIdTypeParam } from "../core/route.ts";
import { type Actor, BOT, type MessageItem } from "./im_store.ts";
import { type Mention, renderContent } from "./message_content.ts";
import type { SeedUser } from "../core/seed_data.ts";

/** The display name the bot's messages carry with `with_sender_name`. */
export const BOT_NAME = "Sandbox Bot";

/** The caller as an IM actor: its open_id, or `BOT` for a tenant token. */
export function actorOf(caller: Caller): Actor {
  return caller.record.kind === "tenant" ? BOT : caller.owner;
}

/** The `sender` of a message the actor sends. */
export function senderOf(ctx: SandboxContext, actor: Actor): MessageItem["sender"] {
  return actor === BOT
    ? { id: ctx.appId, id_type: "app_id", sender_type: "app", tenant_key: ctx.tenantKey }
    : { id: actor, id_type: "open_id", sender_type: "user", tenant_key: ctx.tenantKey };
}

/**
 * Reads `user_id_type` from the query (default open_id), or the 99992402 answer for a value
 * outside its options.
 */
export function userIdType(url: URL): UserIdType | Response {
  return userIdTypeParam(url, (value) => notAnOption("user_id_type", value, USER_ID_TYPES));
}

/** A user's id of the given type. */
export function idOf(user: SeedUser, type: UserIdType): string {
  return type === "open_id" ? user.open_id : type === "union_id" ? user.union_id : user.user_id;
}

/** Converts an open_id to another id type (unknown ids are returned unchanged). */
export function convertOpenId(ctx: SandboxContext, openId: string, type: UserIdType): string {
  if (type === "open_id") return openId;
  const user = findUser(ctx, openId, "open_id");
  return user ? idOf(user, type) : openId;
}

/**
 * Reads `page_size` (default 20): 99992402 below 1 or not a number, `overMax()` above `max`.
 */
export function readPageSize(url: URL, max: number, overMax: () => Response): number | Response {
  const text = url.searchParams.get("page_size");
  if (text === null || text === "") return 20;
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    return fieldViolation("page_size", "the min value is 1", text);
  }
  return Number(text) > max ? overMax() : Number(text);
}

/** How a message should be rendered. */
export interface RenderOptions {
  userIdType?: UserIdType;
  /** Add `sender.sender_name` (the SDK's `with_sender_name`). */
  withSenderName?: boolean;
  /**
   * How a recalled message shows: the list endpoint returns the fixed text "This message was
   * recalled", the get endpoint no content at all (Lark's list and get docs).
   */
  recalled: "text" | "omit";
}

/** A stored or seeded message in the read endpoints' shape and key order. */
export function renderMessage(
  ctx: SandboxContext,
  item: MessageItem,
  options: RenderOptions,
): MessageItem {
  const type = options.userIdType ?? "open_id";
  const users = ctx.im.users;
  const sender = { ...item.sender };
  if (sender.sender_type === "user" && type !== "open_id") {
    sender.id = convertOpenId(ctx, sender.id, type);
    sender.id_type = type;
  }
  if (options.withSenderName) {
    sender.sender_name = sender.sender_type === "app"
      ? BOT_NAME
      : users.get(item.sender.id)?.name ?? "";
  }
  const out: MessageItem = { message_id: item.message_id } as MessageItem;
  if (item.root_id) out.root_id = item.root_id;
  if (item.parent_id) out.parent_id = item.parent_id;
  if (item.thread_id) out.thread_id = item.thread_id;
  Object.assign(out, {
    msg_type: item.msg_type,
    create_time: item.create_time,
    update_time: item.update_time,
    deleted: item.deleted,
    updated: item.updated,
    chat_id: item.chat_id,
    sender,
  });
  let mentions: Mention[] = item.mentions ?? [];
  if (item.deleted) {
    if (options.recalled === "text") out.body = { content: "This message was recalled" };
  } else if (item.body) {
    const rendered = renderContent(item.msg_type, item.body.content, {
      tenantKey: ctx.tenantKey,
      nameOf: (openId) => users.get(openId)?.name,
      fileOf: (key) => ctx.im.resource(key),
    });
    out.body = { content: rendered.content };
    if (mentions.length === 0) mentions = rendered.mentions;
  }
  if (mentions.length > 0 && !item.deleted) {
    out.mentions = mentions.map((m) =>
      type === "open_id" ? m : { ...m, id: convertOpenId(ctx, m.id, type), id_type: type }
    );
  }
  if (item.upper_message_id) out.upper_message_id = item.upper_message_id;
  return out;
}

/** {@link readPageSize} with Lark's answer above `max`: 99992402, "the max value is <max>". */
export function pageSizeUpTo(url: URL, max: number): number | Response {
  const text = url.searchParams.get("page_size") ?? "";
  return readPageSize(url, max, () => fieldViolation("page_size", `the max value is ${max}`, text));
}

/** The message the actor may act on, or the failure. */
export function memberMessage(
  ctx: SandboxContext,
  caller: Caller,
  messageId: string,
): MessageItem | Response {
  const item = ctx.im.message(messageId);
  if (!item) return imInvalid("invalid message_id");
  if (!ctx.im.isMember(ctx.im.chat(item.chat_id)!, actorOf(caller))) return notInChat();
  return item;
}
