/**
 * The long connection's HTTP side: the endpoint the SDKs ask for a connection URL
 * (`POST /callback/ws/endpoint` with `{AppID, AppSecret}`, answered `{code, msg, data: {URL,
 * ClientConfig}}`), the events the sandbox's own state raises (a user's message in a chat the
 * bot is in, a reaction, a calendar event's change) in Lark's schema 2.0 envelope, and the
 * operations routes: `POST /sandbox/events` injects any event (`GET /sandbox/events` is the
 * calendar's), `GET /sandbox/event_stream` counts, `POST|DELETE /sandbox/event_stream/faults`
 * sets and clears faults.
 *
 * @module
 */

import { type Incoming, json, type SandboxContext, type SentMessage } from "../core/context.ts";
import { jsonBody } from "../core/route.ts";
import { isObject, stringField } from "../../src/json/fields.ts";
import type { EventFault } from "./event_hub.ts";

/** The endpoint's path (the SDKs' `GenEndpointUri`). */
export const ENDPOINT_PATH = "/callback/ws/endpoint";

/**
 * `POST /callback/ws/endpoint`. Wrong credentials get code 514, the SDKs' `AuthFailed` (the
 * exact code Lark sends there is not documented; the SDKs treat every code but 0, 1 and
 * 1000040343 as final).
 */
export function wsEndpoint(ctx: SandboxContext, incoming: Incoming): Response {
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  if (body.AppID !== ctx.appId || body.AppSecret !== ctx.appSecret) {
    return json({ code: 514, msg: "auth failed: app_id or app_secret is invalid", data: {} });
  }
  return json({
    code: 0,
    msg: "ok",
    data: { URL: ctx.events.connectionUrl(ctx.now()), ClientConfig: ctx.events.clientConfig },
  });
}

/**
 * Wraps an event body in Lark's schema 2.0 envelope.
 *
 * @param ctx the sandbox
 * @param type the event type, such as `im.message.receive_v1`
 * @param event the body
 */
export function envelope(
  ctx: SandboxContext,
  type: string,
  event: unknown,
): Record<string, unknown> {
  return {
    schema: "2.0",
    header: {
      event_id: crypto.randomUUID().replaceAll("-", ""),
      token: "",
      create_time: String(ctx.now()),
      event_type: type,
      tenant_key: ctx.tenantKey,
      app_id: ctx.appId,
    },
    event,
  };
}

function userIds(ctx: SandboxContext, openId: string) {
  const user = ctx.users.find((u) => u.open_id === openId);
  return { union_id: user?.union_id ?? "", user_id: user?.user_id ?? "", open_id: openId };
}

/**
 * Raises `im.message.receive_v1` for a message a user sent: in a p2p chat with the bot
 * (`im:message.p2p_msg:readonly`), or in a group the bot is in when it is mentioned
 * (`im:message.group_at_msg:readonly`) or the app reads every group message
 * (`im:message.group_msg`). The bot's own messages raise nothing, as in Lark.
 */
export function messageReceived(ctx: SandboxContext, message: SentMessage): void {
  if (message.sender.sender_type !== "user") return;
  const chat = ctx.im.chat(message.chat_id);
  if (!chat?.botMember) return;
  const p2p = chat.chatMode === "p2p";
  const mentioned = message.mentions?.some((m) => m.id === ctx.appId || m.id === ctx.botOpenId);
  const allowed = p2p
    ? ctx.appScopes.has("im:message.p2p_msg:readonly")
    : ctx.appScopes.has("im:message.group_msg") ||
      (mentioned === true && ctx.appScopes.has("im:message.group_at_msg:readonly"));
  if (!allowed) return;
  ctx.events.publish(envelope(ctx, "im.message.receive_v1", {
    sender: {
      sender_id: userIds(ctx, message.sender.id),
      sender_type: "user",
      tenant_key: ctx.tenantKey,
    },
    message: {
      message_id: message.message_id,
      ...(message.root_id && { root_id: message.root_id }),
      ...(message.parent_id && { parent_id: message.parent_id }),
      create_time: message.create_time,
      update_time: message.update_time,
      chat_id: message.chat_id,
      ...(message.thread_id && { thread_id: message.thread_id }),
      chat_type: p2p ? "p2p" : "group",
      message_type: message.msg_type,
      content: message.body.content,
      mentions: (message.mentions ?? []).map((m) => ({
        key: m.key,
        id: m.id_type === "open_id" ? userIds(ctx, m.id) : { open_id: m.id },
        name: m.name,
        tenant_key: m.tenant_key,
      })),
    },
  }));
}

/** Raises `im.message.reaction.created_v1`: `operator` reacted to a message with an emoji. */
export function reactionCreated(
  ctx: SandboxContext,
  messageId: string,
  emoji: string,
  operator: string,
): void {
  reactionEvent(ctx, "created", messageId, emoji, operator);
}

/** Raises `im.message.reaction.deleted_v1`: `operator` took back a reaction to a message. */
export function reactionDeleted(
  ctx: SandboxContext,
  messageId: string,
  emoji: string,
  operator: string,
): void {
  reactionEvent(ctx, "deleted", messageId, emoji, operator);
}

function reactionEvent(
  ctx: SandboxContext,
  kind: "created" | "deleted",
  messageId: string,
  emoji: string,
  operator: string,
): void {
  ctx.events.publish(envelope(ctx, `im.message.reaction.${kind}_v1`, {
    message_id: messageId,
    reaction_type: { emoji_type: emoji },
    operator_type: "user",
    user_id: userIds(ctx, operator),
    action_time: String(ctx.now()),
  }));
}

/** Raises `calendar.calendar.event.changed_v4` for a change to an event of a calendar. */
export function calendarEventChanged(
  ctx: SandboxContext,
  calendarId: string,
  eventId: string,
  changeType: "create" | "update" | "delete",
  userOpenIds: string[],
): void {
  ctx.events.publish(envelope(ctx, "calendar.calendar.event.changed_v4", {
    calendar_id: calendarId,
    user_id_list: userOpenIds.map((id) => userIds(ctx, id)),
    calendar_event_id: eventId,
    change_type: changeType,
  }));
}

/**
 * `/sandbox/events`: `POST` injects an event (a whole envelope with `header` and `event`, or
 * `{"event_type", "event", "count"?}` to be wrapped (`count` copies, each its own id), or `{"reaction": {message_id, emoji_type,
 * operator}}`). `GET /sandbox/event_stream`: the hub's counts. `/sandbox/event_stream/faults`: `POST` a fault or a
 * list of them, `DELETE` clears them.
 */
export function serveEventOps(ctx: SandboxContext, incoming: Incoming): Response {
  const path = incoming.path.replace(/\/$/, "");
  if (path === "/sandbox/event_stream" && incoming.method === "GET") {
    return json(ctx.events.stats());
  }
  if (path === "/sandbox/event_stream/faults" && incoming.method === "DELETE") {
    ctx.events.clearFaults();
    return json({ ok: true });
  }
  if (incoming.method !== "POST") {
    return json({ error: "not_found", error_description: `No sandbox route ${path}` }, 404);
  }
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  const bad = (why: string) => json({ error: "invalid_request", error_description: why }, 400);
  if (path === "/sandbox/event_stream/faults") {
    const list = Array.isArray(body.faults) ? body.faults : [body];
    const kinds = ["close", "drop", "ignore_acks", "delay_acks", "split", "refuse"];
    const faults: EventFault[] = [];
    for (const f of list) {
      if (typeof f !== "object" || f === null || !kinds.includes(f.kind)) {
        return bad(`a fault's kind is one of ${kinds.join(", ")}`);
      }
      faults.push(f);
    }
    ctx.events.addFaults(faults);
    return json({ ok: true });
  }
  if (path !== "/sandbox/events") return bad(`No sandbox route ${path}`);
  if (isObject(body.reaction)) {
    const messageId = stringField(body.reaction, "message_id");
    if (messageId === undefined || !ctx.im.message(messageId)) {
      return bad("reaction.message_id names no message");
    }
    const emoji = stringField(body.reaction, "emoji_type") ?? "THUMBSUP";
    reactionCreated(ctx, messageId, emoji, stringField(body.reaction, "operator") ?? "");
    return json({ ok: true });
  }
  if (isObject(body.header)) {
    ctx.events.publish(body);
    return json({ ok: true });
  }
  if (typeof body.event_type !== "string") return bad("give header and event, or event_type");
  const count = typeof body.count === "number" && body.count >= 1
    ? Math.min(body.count, 100_000)
    : 1;
  const ids: (string | undefined)[] = [];
  for (let i = 0; i < count; i++) {
    const event = envelope(ctx, body.event_type, body.event ?? {});
    ctx.events.publish(event);
    ids.push(stringField(event.header, "event_id"));
  }
  return json({ ok: true, event_id: ids[0], event_ids: ids });
}
