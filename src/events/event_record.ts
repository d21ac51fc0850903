/**
 * An event as hark writes it: one JSON object per event with its type, id, create time (RFC
 * 3339), tenant and app, and the event body as Lark sent it. Lark's envelope is schema 2.0
 * (`{schema, header: {event_id, event_type, create_time, tenant_key, app_id, token}, event}`);
 * the old 1.0 one (`{uuid, ts, event: {type, …}}`) is read too. The verification `token` is
 * left out. `--compact` keeps what a script acts on: a message's text and ids, a reaction's
 * emoji and who, and for any other type the body's fields beside the type and id.
 *
 * @module
 */

import { isObject, type JsonObject, objectField, stringField } from "../json/fields.ts";
import { messageText } from "../shortcuts/im/message_text.ts";

/** An event read from the long connection. */
export interface EventRecord {
  /** The event type, such as `im.message.receive_v1`. */
  type: string;
  /** The event id: the same for every delivery of one event. */
  id: string;
  /** When the service created it, RFC 3339 (UTC). */
  create_time: string;
  tenant_key?: string;
  app_id?: string;
  /** The body, as sent. */
  event: JsonObject;
}

/**
 * Reads an event envelope.
 *
 * @param value the joined payload, parsed
 * @returns the record, or `undefined` when it is no event (no id or type)
 */
export function readEvent(value: unknown): EventRecord | undefined {
  if (!isObject(value)) return undefined;
  const header = objectField(value, "header");
  const event = objectField(value, "event") ?? {};
  const type = header ? stringField(header, "event_type") : stringField(event, "type");
  const id = header ? stringField(header, "event_id") : stringField(value, "uuid");
  if (!type || !id) return undefined;
  const created = header ? stringField(header, "create_time") : stringField(value, "ts");
  const ms = created !== undefined && /^\d{1,16}$/.test(created) ? Number(created) : NaN;
  const tenant = stringField(header ?? event, "tenant_key");
  const app = stringField(header ?? event, "app_id");
  return {
    type,
    id,
    create_time: Number.isFinite(ms) ? new Date(header ? ms : ms * 1000).toISOString() : "",
    ...(tenant !== undefined && { tenant_key: tenant }),
    ...(app !== undefined && { app_id: app }),
    event,
  };
}

function openIdOf(value: unknown): string | undefined {
  return stringField(value, "open_id") ?? stringField(value, "user_id");
}

/**
 * The compact form of an event: flat, the text of a message extracted, noise dropped.
 *
 * @param record the event
 */
export function compactEvent(record: EventRecord): JsonObject {
  const base = { type: record.type, id: record.id, create_time: record.create_time };
  const { event } = record;
  if (record.type === "im.message.receive_v1") {
    const message = objectField(event, "message") ?? {};
    const sender = objectField(event, "sender") ?? {};
    const mentions = Array.isArray(message.mentions) ? message.mentions.filter(isObject) : [];
    const content = stringField(message, "content") ?? "";
    const text = messageText({
      msg_type: stringField(message, "message_type"),
      body: { content },
      mentions: mentions.map((m) => ({
        key: stringField(m, "key") ?? "",
        id: openIdOf(objectField(m, "id")) ?? "",
        name: stringField(m, "name") ?? "",
      })),
    });
    return {
      ...base,
      message_id: stringField(message, "message_id"),
      chat_id: stringField(message, "chat_id"),
      chat_type: stringField(message, "chat_type"),
      message_type: stringField(message, "message_type"),
      text,
      sender_id: openIdOf(objectField(sender, "sender_id")),
      sender_type: stringField(sender, "sender_type"),
      ...(stringField(message, "thread_id") && { thread_id: stringField(message, "thread_id") }),
      ...(stringField(message, "root_id") && { root_id: stringField(message, "root_id") }),
    };
  }
  if (record.type.startsWith("im.message.reaction.")) {
    return {
      ...base,
      message_id: stringField(event, "message_id"),
      emoji_type: stringField(objectField(event, "reaction_type"), "emoji_type"),
      operator_id: openIdOf(objectField(event, "user_id")),
      operator_type: stringField(event, "operator_type"),
    };
  }
  return { ...base, ...event };
}
