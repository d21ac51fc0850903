/**
 * Reactions and pins in the sandbox. Shapes follow the Node SDK's `im.v1.messageReaction`
 * create, list, delete and `im.v1.pin` create, list, delete types; scopes are Lark's docs (any
 * one): reactions write im:message.reactions:write_only or im:message, read
 * im:message.reactions:read or im:message:readonly; pins write im:message.pins:write_only,
 * im:message or im:message:send_as_bot, read im:message.pins:read, im:message:readonly or
 * im:message.
 *
 * Rules, as the docs put them: the caller must be in the message's chat (230002); recalled
 * messages take no reactions (230011); only a known emoji type is taken (231001); a caller
 * removes only a reaction it added (231003 otherwise). Pinning a pinned message answers the pin
 * there is. A user's reaction raises `im.message.reaction.created_v1`, its removal
 * `…deleted_v1`.
 *
 * @module
 */

import { reactionCreated, reactionDeleted } from "../events/event_routes.ts";
import { type Incoming, larkOk, type SandboxContext } from "../core/context.ts";
import {
  CHAT_ERRORS,
  fieldViolation,
  IM_ERRORS,
  imInvalid,
  larkFail,
  notInChat,
  required,
} from "../core/lark_errors.ts";
import { type Caller, jsonBody, type Route, type RouteScopes } from "../core/route.ts";
import { actorOf, convertOpenId, memberMessage, pageSizeUpTo, userIdType } from "./im_common.ts";
import { type Actor, BOT } from "./im_store.ts";
import { EMOJI_TYPES } from "./emoji_types.ts";
import { encodePageToken, offsetOf } from "./page_token.ts";

/** Reaction and pin errors (Lark's message-reaction docs). */
export const REACTION_ERRORS = {
  badEmoji: [231001, "reaction type is invalid."],
  notYours: [231003, "The reaction does not exist or was not added by the operator."],
} as const;

const REACTION_WRITE: RouteScopes = {
  user: ["im:message.reactions:write_only", "im:message"],
  bot: ["im:message.reactions:write_only", "im:message"],
};
const REACTION_READ: RouteScopes = {
  user: ["im:message.reactions:read", "im:message:readonly"],
  bot: ["im:message.reactions:read", "im:message:readonly"],
};
const PIN_WRITE: RouteScopes = {
  user: ["im:message.pins:write_only", "im:message"],
  bot: ["im:message.pins:write_only", "im:message", "im:message:send_as_bot"],
};
const PIN_READ: RouteScopes = {
  user: ["im:message.pins:read", "im:message:readonly", "im:message"],
  bot: ["im:message.pins:read", "im:message:readonly", "im:message"],
};

/** One reaction as the sandbox keeps it. */
export interface Reaction {
  reaction_id: string;
  actor: Actor;
  emoji: string;
  at: number;
}

interface Pin {
  message_id: string;
  chat_id: string;
  actor: Actor;
  at: number;
}

interface State {
  reactions: Map<string, Reaction[]>;
  pins: Map<string, Pin>;
}

const STATES = new WeakMap<SandboxContext, State>();

function stateOf(ctx: SandboxContext): State {
  let state = STATES.get(ctx);
  if (!state) {
    state = { reactions: new Map(), pins: new Map() };
    STATES.set(ctx, state);
  }
  return state;
}

/** The reactions on a message, oldest first (the read status counts reacting as reading). */
export function reactionsOf(ctx: SandboxContext, messageId: string): readonly Reaction[] {
  return stateOf(ctx).reactions.get(messageId) ?? [];
}

/** The reaction and pin routes. */
export const REACTION_PIN_ROUTES: Route[] = [
  {
    method: "POST",
    pattern: /^\/open-apis\/im\/v1\/messages\/([^/]+)\/reactions$/,
    scopes: REACTION_WRITE,
    handle: addReaction,
  },
  {
    method: "GET",
    pattern: /^\/open-apis\/im\/v1\/messages\/([^/]+)\/reactions$/,
    scopes: REACTION_READ,
    handle: listReactions,
  },
  {
    method: "DELETE",
    pattern: /^\/open-apis\/im\/v1\/messages\/([^/]+)\/reactions\/([^/]+)$/,
    scopes: REACTION_WRITE,
    handle: removeReaction,
  },
  { method: "POST", pattern: /^\/open-apis\/im\/v1\/pins$/, scopes: PIN_WRITE, handle: addPin },
  { method: "GET", pattern: /^\/open-apis\/im\/v1\/pins$/, scopes: PIN_READ, handle: listPins },
  {
    method: "DELETE",
    pattern: /^\/open-apis\/im\/v1\/pins\/([^/]+)$/,
    scopes: PIN_WRITE,
    handle: removePin,
  },
];

function operatorOf(ctx: SandboxContext, actor: Actor, type: "open_id" | "union_id" | "user_id") {
  return actor === BOT
    ? { operator_id: ctx.appId, operator_type: "app" }
    : { operator_id: convertOpenId(ctx, actor, type), operator_type: "user" };
}

function reactionJson(ctx: SandboxContext, r: Reaction, type: "open_id" | "union_id" | "user_id") {
  return {
    reaction_id: r.reaction_id,
    operator: operatorOf(ctx, r.actor, type),
    action_time: String(r.at),
    reaction_type: { emoji_type: r.emoji },
  };
}

function addReaction(ctx: SandboxContext, incoming: Incoming, caller: Caller, [id]: string[]) {
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  const type = body.reaction_type;
  if (type === undefined) return required("reaction_type");
  const emoji = typeof type === "object" && type !== null && "emoji_type" in type
    ? type.emoji_type
    : undefined;
  if (emoji === undefined || emoji === "") return required("reaction_type.emoji_type");
  if (typeof emoji !== "string" || !EMOJI_TYPES.has(emoji)) {
    return larkFail(REACTION_ERRORS.badEmoji);
  }
  const item = memberMessage(ctx, caller, id);
  if (item instanceof Response) return item;
  if (item.deleted) return larkFail(IM_ERRORS.recalled);
  const actor = actorOf(caller);
  const reaction = {
    reaction_id: crypto.randomUUID().replaceAll("-", ""),
    actor,
    emoji,
    at: ctx.now(),
  };
  const all = stateOf(ctx).reactions;
  all.set(item.message_id, [...(all.get(item.message_id) ?? []), reaction]);
  if (actor !== BOT) reactionCreated(ctx, item.message_id, emoji, actor);
  return larkOk(reactionJson(ctx, reaction, "open_id"));
}

/** One page of `items` from an offset token; `fingerprint` ties a token to its query. */
function offsetPage<T>(
  incoming: Incoming,
  all: readonly T[],
  size: number,
  fingerprint: string,
): { page: T[]; next?: string } | Response {
  const offset = offsetOf(incoming.url, fingerprint);
  if (offset === undefined) return imInvalid("invalid page_token");
  const more = offset + size < all.length;
  return {
    page: all.slice(offset, offset + size),
    next: more ? encodePageToken(fingerprint, offset + size) : undefined,
  };
}

function listReactions(ctx: SandboxContext, incoming: Incoming, caller: Caller, [id]: string[]) {
  const q = incoming.url.searchParams;
  const type = userIdType(incoming.url);
  if (type instanceof Response) return type;
  const size = pageSizeUpTo(incoming.url, 50);
  if (size instanceof Response) return size;
  const emoji = q.get("reaction_type") ?? "";
  if (emoji !== "" && !EMOJI_TYPES.has(emoji)) return larkFail(REACTION_ERRORS.badEmoji);
  const item = memberMessage(ctx, caller, id);
  if (item instanceof Response) return item;
  if (item.deleted) return larkFail(IM_ERRORS.recalled);
  const all = reactionsOf(ctx, item.message_id).filter((r) => emoji === "" || r.emoji === emoji);
  const page = offsetPage(incoming, all, size, `reactions|${item.message_id}|${emoji}|${type}`);
  if (page instanceof Response) return page;
  return larkOk({
    items: page.page.map((r) => reactionJson(ctx, r, type)),
    has_more: page.next !== undefined,
    page_token: page.next ?? "",
  });
}

function removeReaction(
  ctx: SandboxContext,
  _incoming: Incoming,
  caller: Caller,
  [id, reactionId]: string[],
) {
  const item = memberMessage(ctx, caller, id);
  if (item instanceof Response) return item;
  const actor = actorOf(caller);
  const all = stateOf(ctx).reactions;
  const list = all.get(item.message_id) ?? [];
  const found = list.find((r) => r.reaction_id === reactionId);
  if (!found || found.actor !== actor) return larkFail(REACTION_ERRORS.notYours);
  all.set(item.message_id, list.filter((r) => r !== found));
  if (actor !== BOT) reactionDeleted(ctx, item.message_id, found.emoji, actor);
  return larkOk(reactionJson(ctx, found, "open_id"));
}

function pinJson(ctx: SandboxContext, pin: Pin) {
  return {
    message_id: pin.message_id,
    chat_id: pin.chat_id,
    operator_id: pin.actor === BOT ? ctx.appId : pin.actor,
    operator_id_type: pin.actor === BOT ? "app_id" : "open_id",
    create_time: String(pin.at),
  };
}

function addPin(ctx: SandboxContext, incoming: Incoming, caller: Caller) {
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  const id = body.message_id;
  if (id === undefined || id === "") return required("message_id");
  if (typeof id !== "string") return fieldViolation("message_id", "message_id must be a string");
  const item = memberMessage(ctx, caller, id);
  if (item instanceof Response) return item;
  if (item.deleted) return larkFail(IM_ERRORS.recalled);
  const pins = stateOf(ctx).pins;
  // Pinning a pinned message answers the pin there is (Lark's pin create doc).
  const pin = pins.get(item.message_id) ??
    { message_id: item.message_id, chat_id: item.chat_id, actor: actorOf(caller), at: ctx.now() };
  pins.set(item.message_id, pin);
  return larkOk({ pin: pinJson(ctx, pin) });
}

function listPins(ctx: SandboxContext, incoming: Incoming, caller: Caller) {
  const q = incoming.url.searchParams;
  const chatId = q.get("chat_id");
  if (!chatId) return required("chat_id");
  const size = pageSizeUpTo(incoming.url, 50);
  if (size instanceof Response) return size;
  const bounds: number[] = [];
  for (const field of ["start_time", "end_time"]) {
    const text = q.get(field);
    if (text !== null && !/^\d{1,16}$/.test(text)) {
      return fieldViolation(field, `${field} must be a millisecond timestamp`, text);
    }
    bounds.push(text === null ? (field === "start_time" ? 0 : Infinity) : Number(text));
  }
  const chat = ctx.im.chat(chatId);
  if (!chat) return larkFail(CHAT_ERRORS.invalidChatId);
  if (!ctx.im.isMember(chat, actorOf(caller))) return notInChat();
  const all = [...stateOf(ctx).pins.values()]
    .filter((p) => p.chat_id === chatId && p.at >= bounds[0] && p.at <= bounds[1])
    .sort((a, b) => b.at - a.at);
  const fingerprint = `pins|${chatId}|${bounds.join("|")}`;
  const page = offsetPage(incoming, all, size, fingerprint);
  if (page instanceof Response) return page;
  return larkOk({
    items: page.page.map((p) => pinJson(ctx, p)),
    has_more: page.next !== undefined,
    ...(page.next === undefined ? {} : { page_token: page.next }),
  });
}

function removePin(ctx: SandboxContext, _incoming: Incoming, caller: Caller, [id]: string[]) {
  const item = memberMessage(ctx, caller, id);
  if (item instanceof Response) return item;
  // Unpinning a message with no pin changes nothing.
  stateOf(ctx).pins.delete(item.message_id);
  return larkOk({});
}
