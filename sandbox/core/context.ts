/**
 * The state every sandbox route works on, and the small response helpers they share.
 *
 * @module
 */

import type { AuthStore } from "../oauth/auth_store.ts";
import type { CalendarStore } from "../calendar/calendar_store.ts";
import type { FaultRegistry } from "../operations/fault_registry.ts";
import type { ImStore, MessageItem } from "../im/im_store.ts";
import type { RequestLog } from "../operations/request_log.ts";
import type { EventHub } from "../events/event_hub.ts";
import type { SeedChat, SeedUser } from "./seed_data.ts";

/** A message sent or replied through the sandbox: the API shape plus how it was addressed. */
export interface SentMessage extends MessageItem {
  body: { content: string };
  /** The receiver, or for a reply the message replied to. */
  receive_id: string;
  /** The `receive_id_type`, or "message_id" for a reply. */
  receive_id_type: string;
  uuid?: string;
}

/** The state shared by the routes of one sandbox. */
export interface SandboxContext {
  baseUrl: string;
  appId: string;
  appSecret: string;
  tenantKey: string;
  /** The open_id the bot has as a user (the organizer of events it creates). */
  botOpenId: string;
  /**
   * The scopes the app has enabled in its developer console: a tenant token reaches only routes
   * one of whose bot scopes is enabled, and a sign-in is granted only enabled scopes.
   */
  appScopes: Set<string>;
  users: SeedUser[];
  chats: SeedChat[];
  auth: AuthStore;
  calendars: CalendarStore;
  /** Chats, messages, threads, images and files. */
  im: ImStore;
  faults: FaultRegistry;
  log: RequestLog;
  messages: SentMessage[];
  /** The event long connection: its WebSocket server and the events waiting for delivery. */
  events: EventHub;
  /** uuid idempotency: key `<sender>|<uuid>` → the first message and when it was sent (ms). */
  messageByUuid: Map<string, { message: SentMessage; at: number }>;
  now(): number;
}

/** A parsed incoming request: the original plus its URL and body text. */
export interface Incoming {
  request: Request;
  url: URL;
  method: string;
  path: string;
  /** The body as text; empty for multipart bodies, which only `body` carries. */
  bodyText: string;
  /** The raw body. */
  body: Uint8Array<ArrayBuffer>;
}

/** A JSON response. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/** A Lark business error `{code, msg}` with an HTTP status (400 unless said otherwise). */
export function larkError(code: number, msg: string, status = 400, extra = {}): Response {
  return json({ code, msg, ...extra }, status);
}

/** The Lark success envelope. */
export function larkOk(data: unknown): Response {
  return json({ code: 0, msg: "success", data });
}

/**
 * A request id in the shape of Lark's `error.log_id`: the UTC time to the second, then random
 * upper-case hex (`20260302101500A1B2C3D4E5F6A7B8C9`).
 */
export function logId(ctx: SandboxContext): string {
  const stamp = new Date(ctx.now()).toISOString().replace(/\D/g, "").slice(0, 14);
  const random = [...crypto.getRandomValues(new Uint8Array(9))]
    .map((b) => b.toString(16).padStart(2, "0")).join("").toUpperCase();
  return stamp + random;
}

/** An RFC 6749 error body. */
export function oauthError(error: string, description: string, status = 400): Response {
  return json({ error, error_description: description }, status);
}

/** True when the request's Content-Type is `type` (parameters ignored). */
export function hasContentType(request: Request, type: string): boolean {
  return (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase() === type;
}

/** Finds a seeded user by an id of the given type ("open_id", "user_id", "union_id", "email"). */
export function findUser(ctx: SandboxContext, id: string, idType: string): SeedUser | undefined {
  switch (idType) {
    case "open_id":
      return ctx.users.find((u) => u.open_id === id);
    case "user_id":
      return ctx.users.find((u) => u.user_id === id);
    case "union_id":
      return ctx.users.find((u) => u.union_id === id);
    case "email":
      return ctx.users.find((u) => u.email.toLowerCase() === id.toLowerCase());
    default:
      return undefined;
  }
}
