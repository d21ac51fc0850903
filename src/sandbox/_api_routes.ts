/**
 * The business routes under /open-apis: user info, calendar, contact search and IM, behind bearer
 * token and scope checks.
 *
 * @module
 */

import type { TokenRecord } from "./auth_store.ts";
import { BOT_OWNER } from "./calendar_store.ts";
import { parseRule, timeToSeconds } from "./expand_event.ts";
import type { CalendarEvent, EventTime } from "./seed_data.ts";
import {
  findUser,
  hasContentType,
  type Incoming,
  larkError,
  larkOk,
  type SandboxContext,
  type SentMessage,
} from "./_context.ts";

const DAY = 86_400;
/** Longest span instance_view and freebusy accept. */
export const MAX_SPAN_SECONDS = 40 * DAY;
/** Most instances instance_view returns. */
export const MAX_INSTANCES = 1000;
const UUID_WINDOW_MS = 3600_000;

/**
 * Code for a bot token on a route that needs a user token. Not 99991668: DESIGN.md maps that
 * one to "token invalid", which would make clients refresh and retry for nothing.
 */
export const USER_TOKEN_REQUIRED = 20027;
/** Code for "invalid parameters" on calendar routes. */
export const CALENDAR_INVALID_PARAMS = 190002;
/** Code for a field validation failure on other routes. */
export const FIELD_VALIDATION_FAILED = 99992402;
/** Code for an unknown message receiver. */
export const RECEIVER_NOT_FOUND = 230013;

interface Caller {
  record: TokenRecord;
  /** The open_id of a user token, or `BOT_OWNER`. */
  owner: string;
}

interface Route {
  method: string;
  pattern: RegExp;
  /** Scope a user token needs; tenant tokens carry every scope. */
  scope?: string;
  userOnly?: boolean;
  handle(ctx: SandboxContext, incoming: Incoming, caller: Caller, params: string[]): Response;
}

const READ = "calendar:calendar:readonly";
const WRITE = "calendar:calendar";

const ROUTES: Route[] = [
  {
    method: "GET",
    pattern: /^\/open-apis\/authen\/v1\/user_info$/,
    userOnly: true,
    handle: userInfo,
  },
  {
    method: "GET",
    pattern: /^\/open-apis\/calendar\/v4\/calendars\/([^/]+)\/events\/instance_view$/,
    scope: READ,
    handle: instanceView,
  },
  {
    method: "POST",
    pattern: /^\/open-apis\/calendar\/v4\/calendars\/([^/]+)\/events$/,
    scope: WRITE,
    handle: createEvent,
  },
  {
    method: "POST",
    pattern: /^\/open-apis\/calendar\/v4\/calendars\/([^/]+)\/events\/([^/]+)\/attendees$/,
    scope: WRITE,
    handle: addAttendees,
  },
  {
    method: "DELETE",
    pattern: /^\/open-apis\/calendar\/v4\/calendars\/([^/]+)\/events\/([^/]+)$/,
    scope: WRITE,
    handle: deleteEvent,
  },
  {
    method: "POST",
    pattern: /^\/open-apis\/calendar\/v4\/freebusy\/list$/,
    scope: READ,
    handle: freebusy,
  },
  {
    method: "GET",
    pattern: /^\/open-apis\/search\/v1\/user$/,
    scope: "contact:user:search",
    userOnly: true,
    handle: searchUser,
  },
  {
    method: "POST",
    pattern: /^\/open-apis\/im\/v1\/messages$/,
    scope: "im:message:send",
    handle: sendMessage,
  },
];

function hasScope(granted: string[], needed: string): boolean {
  if (granted.includes(needed)) return true;
  return needed === READ && granted.includes(WRITE);
}

/**
 * Serves one /open-apis business request: route match (404 otherwise), bearer token, scope, then
 * the handler.
 */
export function serveApi(ctx: SandboxContext, incoming: Incoming): Response {
  let match: { route: Route; params: string[] } | undefined;
  for (const route of ROUTES) {
    const m = route.pattern.exec(incoming.path);
    if (m && route.method === incoming.method) {
      match = { route, params: m.slice(1).map(decodeURIComponent) };
      break;
    }
  }
  if (!match) return larkError(404, "404 page not found", 404);
  const header = incoming.request.headers.get("authorization") ?? "";
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  if (!bearer) {
    return larkError(
      99991661,
      "Missing access token for authorization. Please make a request with token attached.",
      401,
    );
  }
  const lookup = ctx.auth.lookup(bearer[1]);
  if (!lookup.ok) {
    return lookup.reason === "expired"
      ? larkError(
        99991677,
        "Authentication token expired. Please refresh the token or sign in again.",
        401,
      )
      : larkError(
        99991663,
        "Invalid access token for authorization. Please make a request with token attached.",
        401,
      );
  }
  const record = lookup.record;
  const { route, params } = match;
  if (record.kind === "tenant" && route.userOnly) {
    return larkError(
      USER_TOKEN_REQUIRED,
      "Invalid access token for authorization: this API needs a user access token, " +
        "a tenant access token is not supported",
    );
  }
  if (record.kind === "user" && route.scope && !hasScope(record.scopes, route.scope)) {
    return larkError(
      99991672,
      `Access denied. One of the following scopes is required: [${route.scope}]. ` +
        "Sign in again requesting it.",
      400,
      {
        error: {
          permission_violations: [{ type: "action_scope_required", subject: route.scope }],
        },
      },
    );
  }
  const caller = { record, owner: record.kind === "user" ? record.openId! : BOT_OWNER };
  return route.handle(ctx, incoming, caller, params);
}

function jsonBody(incoming: Incoming): Record<string, unknown> | Response {
  const bad = (why: string) =>
    larkError(9499, `Bad Request: ${why}`, 400, { error: { message: why } });
  if (!hasContentType(incoming.request, "application/json")) {
    return bad("Content-Type must be application/json");
  }
  try {
    const body = JSON.parse(incoming.bodyText);
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return bad("the body must be a JSON object");
    }
    return body;
  } catch {
    return bad("the body is not valid JSON");
  }
}

function userInfo(ctx: SandboxContext, _incoming: Incoming, caller: Caller): Response {
  const user = findUser(ctx, caller.owner, "open_id")!;
  return larkOk({
    open_id: user.open_id,
    union_id: user.union_id,
    user_id: user.user_id,
    name: user.name,
    en_name: user.en_name,
    email: user.email,
    avatar_url: user.avatar_url,
    tenant_key: ctx.tenantKey,
  });
}

function calendarOwner(
  ctx: SandboxContext,
  calendarId: string,
  caller: Caller,
): string | Response {
  const owner = ctx.calendars.ownerOf(calendarId, caller.owner);
  if (owner === undefined) return larkError(191002, `calendar not found: "${calendarId}"`, 404);
  return owner;
}

function instanceView(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  [calendarId]: string[],
): Response {
  const owner = calendarOwner(ctx, calendarId, caller);
  if (owner instanceof Response) return owner;
  const q = incoming.url.searchParams;
  const start = q.get("start_time") ?? "";
  const end = q.get("end_time") ?? "";
  if (!/^\d+$/.test(start) || !/^\d+$/.test(end)) {
    return larkError(
      CALENDAR_INVALID_PARAMS,
      "invalid parameters in request: start_time and end_time must be Unix seconds",
    );
  }
  const from = Number(start);
  const to = Number(end);
  if (to <= from) {
    return larkError(
      CALENDAR_INVALID_PARAMS,
      "invalid parameters in request: end_time must be after start_time",
    );
  }
  if (to - from > MAX_SPAN_SECONDS) {
    return larkError(193103, "the time span of instance_view must not exceed 40 days");
  }
  const items = ctx.calendars.instances(owner, from, to);
  if (items.length > MAX_INSTANCES) {
    return larkError(
      193104,
      `too many instances (${items.length}) in the time span, the limit is ${MAX_INSTANCES}; ` +
        "narrow the time span",
    );
  }
  return larkOk({ items });
}

function readEventTime(value: unknown, field: string): EventTime | string {
  if (typeof value !== "object" || value === null) return `${field} is required`;
  const v = value as Record<string, unknown>;
  if (typeof v.timestamp === "string" && /^\d+$/.test(v.timestamp)) {
    return { timestamp: v.timestamp };
  }
  if (typeof v.date === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v.date)) return { date: v.date };
  return `${field} needs a timestamp (Unix seconds as a string) or a date (YYYY-MM-DD)`;
}

function createEvent(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  [calendarId]: string[],
): Response {
  const owner = calendarOwner(ctx, calendarId, caller);
  if (owner instanceof Response) return owner;
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  const invalid = (why: string) =>
    larkError(CALENDAR_INVALID_PARAMS, `invalid parameters in request: ${why}`);
  const start = readEventTime(body.start_time, "start_time");
  if (typeof start === "string") return invalid(start);
  const end = readEventTime(body.end_time, "end_time");
  if (typeof end === "string") return invalid(end);
  if (("date" in start) !== ("date" in end)) {
    return invalid("start_time and end_time must both be timestamps or both be dates");
  }
  if (timeToSeconds(end) <= timeToSeconds(start)) {
    return invalid("end_time must be after start_time");
  }
  for (const field of ["summary", "description", "recurrence"]) {
    if (body[field] !== undefined && typeof body[field] !== "string") {
      return invalid(`${field} must be a string`);
    }
  }
  if (body.recurrence) {
    try {
      parseRule(body.recurrence as string);
    } catch (error) {
      return invalid((error as Error).message);
    }
  }
  const key = incoming.url.searchParams.get("idempotency_key");
  const idempotencyKey = key ? `${owner}|${key}` : undefined;
  if (idempotencyKey) {
    const earlier = ctx.eventByIdempotencyKey.get(idempotencyKey);
    if (earlier) return larkOk({ event: eventView(ctx, owner, earlier) });
  }
  const freeBusy = body.free_busy_status === "free" ? "free" : "busy";
  const event = ctx.calendars.create(owner, {
    summary: (body.summary as string | undefined) ?? "",
    description: (body.description as string | undefined) ?? "",
    start_time: start,
    end_time: end,
    status: "confirmed",
    free_busy_status: freeBusy,
    self_rsvp_status: "accept",
    recurrence: (body.recurrence as string | undefined) || undefined,
  });
  if (idempotencyKey) ctx.eventByIdempotencyKey.set(idempotencyKey, event);
  return larkOk({ event: eventView(ctx, owner, event) });
}

function eventView(ctx: SandboxContext, owner: string, event: CalendarEvent) {
  return {
    event_id: event.event_id,
    organizer_calendar_id: ctx.calendars.calendarIdOf(owner),
    summary: event.summary,
    description: event.description,
    start_time: { ...event.start_time, timezone: "UTC" },
    end_time: { ...event.end_time, timezone: "UTC" },
    status: event.status,
    free_busy_status: event.free_busy_status,
    visibility: "default",
    recurrence: event.recurrence ?? "",
    create_time: event.create_time,
  };
}

function addAttendees(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  [calendarId, eventId]: string[],
): Response {
  const owner = calendarOwner(ctx, calendarId, caller);
  if (owner instanceof Response) return owner;
  const event = ctx.calendars.find(owner, eventId);
  if (!event) return larkError(193001, `event not found: "${eventId}"`, 404);
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  const idType = incoming.url.searchParams.get("user_id_type") ?? "open_id";
  const invalid = (why: string) =>
    larkError(CALENDAR_INVALID_PARAMS, `invalid parameters in request: ${why}`);
  if (!["open_id", "user_id", "union_id"].includes(idType)) {
    return invalid(`user_id_type "${idType}" is not supported`);
  }
  if (!Array.isArray(body.attendees) || body.attendees.length === 0) {
    return invalid("attendees must be a non-empty list");
  }
  const added: Record<string, unknown>[] = [];
  for (const raw of body.attendees as Record<string, unknown>[]) {
    const type = raw?.type;
    const attendeeId = `user_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;
    const common = {
      type,
      attendee_id: attendeeId,
      rsvp_status: "needs_action",
      is_optional: false,
    };
    if (type === "user") {
      const user = typeof raw.user_id === "string" ? findUser(ctx, raw.user_id, idType) : undefined;
      if (!user) {
        return invalid(`attendee user_id "${String(raw.user_id ?? "")}" (${idType}) not found`);
      }
      added.push({
        ...common,
        user_id: raw.user_id,
        display_name: user.name,
        is_organizer: false,
        is_external: false,
      });
    } else if (type === "chat") {
      const chat = ctx.chats.find((c) => c.chat_id === raw.chat_id);
      if (!chat) return invalid(`attendee chat_id "${String(raw.chat_id ?? "")}" not found`);
      added.push({ ...common, chat_id: chat.chat_id, display_name: chat.name });
    } else if (type === "third_party") {
      if (typeof raw.third_party_email !== "string" || !raw.third_party_email.includes("@")) {
        return invalid("third_party attendees need third_party_email");
      }
      added.push({ ...common, third_party_email: raw.third_party_email, is_external: true });
    } else {
      return invalid(`attendee type "${String(type ?? "")}" is not supported`);
    }
  }
  ctx.calendars.noteAttendees(event.event_id, added);
  return larkOk({ attendees: added });
}

function deleteEvent(
  ctx: SandboxContext,
  _incoming: Incoming,
  caller: Caller,
  [calendarId, eventId]: string[],
): Response {
  const owner = calendarOwner(ctx, calendarId, caller);
  if (owner instanceof Response) return owner;
  if (!ctx.calendars.remove(owner, eventId)) {
    return larkError(193001, `event not found: "${eventId}"`, 404);
  }
  return larkOk({});
}

function rfc3339(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function freebusy(ctx: SandboxContext, incoming: Incoming): Response {
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  const invalid = (why: string) =>
    larkError(CALENDAR_INVALID_PARAMS, `invalid parameters in request: ${why}`);
  const parse = (value: unknown) =>
    typeof value === "string" && /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
  const from = parse(body.time_min) / 1000;
  const to = parse(body.time_max) / 1000;
  if (Number.isNaN(from) || Number.isNaN(to)) {
    return invalid("time_min and time_max must be RFC 3339 times");
  }
  if (to <= from) return invalid("time_max must be after time_min");
  if (to - from > MAX_SPAN_SECONDS) {
    return larkError(193103, "the time span of freebusy must not exceed 40 days");
  }
  const idType = incoming.url.searchParams.get("user_id_type") ?? "open_id";
  if (typeof body.user_id !== "string" || body.user_id === "") {
    return invalid("user_id is required");
  }
  const user = findUser(ctx, body.user_id, idType);
  if (!user) return invalid(`user_id "${body.user_id}" (${idType}) not found`);
  const busy = ctx.calendars.instances(user.open_id, from, to).filter((i) =>
    i.status !== "cancelled" && i.free_busy_status === "busy" && i.self_rsvp_status !== "decline"
  );
  return larkOk({
    freebusy_list: busy.map((i) => ({
      start_time: rfc3339(timeToSeconds(i.start_time)),
      end_time: rfc3339(timeToSeconds(i.end_time)),
    })),
  });
}

function searchUser(ctx: SandboxContext, incoming: Incoming): Response {
  const q = incoming.url.searchParams;
  const invalid = (why: string) =>
    larkError(FIELD_VALIDATION_FAILED, `field validation failed: ${why}`);
  const query = (q.get("query") ?? "").trim().toLowerCase();
  if (query === "") return invalid("query is required");
  const sizeText = q.get("page_size") ?? "20";
  const pageSize = Number(sizeText);
  if (!/^\d+$/.test(sizeText) || pageSize < 1 || pageSize > 200) {
    return invalid(`page_size "${sizeText}" must be an integer from 1 to 200`);
  }
  const tokenText = q.get("page_token") ?? "";
  let offset = 0;
  if (tokenText !== "") {
    const m = /^p(\d+)$/.exec(safeAtob(tokenText));
    if (!m) return invalid(`page_token "${tokenText}" is invalid`);
    offset = Number(m[1]);
  }
  const matches = ctx.users.filter((u) =>
    u.name.toLowerCase().includes(query) || u.en_name.toLowerCase().includes(query) ||
    u.email.toLowerCase().split("@")[0].includes(query)
  );
  const page = matches.slice(offset, offset + pageSize);
  const hasMore = offset + pageSize < matches.length;
  const data: Record<string, unknown> = {
    users: page.map((u) => ({
      name: u.name,
      open_id: u.open_id,
      user_id: u.user_id,
      department_ids: u.department_ids,
      avatar: {
        avatar_72: `${u.avatar_url}?s=72`,
        avatar_240: `${u.avatar_url}?s=240`,
        avatar_640: `${u.avatar_url}?s=640`,
        avatar_origin: u.avatar_url,
      },
    })),
    has_more: hasMore,
  };
  if (hasMore) data.page_token = btoa(`p${offset + pageSize}`);
  return larkOk(data);
}

function safeAtob(text: string): string {
  try {
    return atob(text);
  } catch {
    return "";
  }
}

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
