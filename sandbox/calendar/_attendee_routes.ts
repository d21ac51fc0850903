/**
 * The attendee routes of the sandbox: add attendees to an event (users, chats, external emails),
 * list them (paged) and remove them (by attendee id or by user).
 *
 * Who may: the organizer, or an attendee when the event's `attendee_ability` allows it
 * (types/index.d.ts, calendar.v4.calendarEventAttendee.create: "当前身份需要是日程的组织者，或者是
 * 日程参与人且确保日程设置了参与人可邀请其它参与人权限"). Refusals are 190002, whose documented meaning
 * includes "no permission on the resource". Scopes: lark-cli `internal/registry/meta_data.json`
 * (d5d198a), event.attendees create / list / batch_delete.
 *
 * @module
 */

import { SEED_ROOMS } from "./seed_rooms.ts";
import type { Attendee } from "../core/seed_data.ts";
import { attendeeView } from "./_calendar_view.ts";
import {
  booleanParam,
  both,
  checkedBody,
  EVENT_READ_SCOPES,
  EVENT_UPDATE_SCOPES,
  eventRequest,
  invalidParams,
  pageOf,
  pageToken,
  userById,
  visibleAttendees,
} from "./_calendar_common.ts";
import { type Incoming, larkOk, type SandboxContext } from "../core/context.ts";
import type { FieldSpec } from "../core/body_check.ts";
import type { Caller, Route } from "../core/route.ts";

const EVENT = String.raw`^\/open-apis\/calendar\/v4\/calendars\/([^/]+)\/events\/([^/]+)`;

type Body = Record<string, unknown>;

/** The attendee routes. */
export const ATTENDEE_ROUTES: Route[] = [
  {
    method: "POST",
    pattern: new RegExp(`${EVENT}\\/attendees$`),
    scopes: both(EVENT_UPDATE_SCOPES),
    handle: addAttendees,
  },
  {
    method: "GET",
    pattern: new RegExp(`${EVENT}\\/attendees$`),
    scopes: both(EVENT_READ_SCOPES),
    handle: listAttendees,
  },
  {
    method: "POST",
    pattern: new RegExp(`${EVENT}\\/attendees\\/batch_delete$`),
    scopes: both([
      "calendar:calendar",
      "calendar:calendar.event:writeonly",
      "calendar:calendar.event:update",
    ]),
    handle: removeAttendees,
  },
];

const ATTENDEE_IN: FieldSpec = {
  object: {
    type: { enum: ["user", "chat", "third_party", "resource"] },
    is_optional: "boolean",
    user_id: "string",
    chat_id: "string",
    room_id: "string",
    third_party_email: "string",
    operate_id: "string",
    resource_customization: {
      array: {
        object: {
          index_key: "string",
          input_content: "string",
          options: { array: { object: { option_key: "string", others_content: "string" } } },
        },
        required: ["index_key"],
      },
    },
    approval_reason: "string",
  },
  required: ["type"],
};
const ADD_BODY: FieldSpec = {
  object: {
    attendees: { array: ATTENDEE_IN },
    need_notification: "boolean",
    instance_start_time_admin: "string",
    is_enable_admin: "boolean",
    add_operator_to_attendee: "boolean",
  },
  required: ["attendees"],
};
/**
 * At most 1000 attendees (rooms included) per request (MCP server `calendar_v4` schema of
 * attendees.create: "单次请求可设置的参与人数量（含会议室）上限为 1000").
 */
export const MAX_ATTENDEES_PER_REQUEST = 1000;

function addAttendees(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  params: string[],
): Response {
  const request = eventRequest(ctx, incoming, caller, params, "writer");
  if (request instanceof Response) return request;
  const { found, idType } = request;
  const body = checkedBody(incoming, ADD_BODY);
  if (body instanceof Response) return body;
  const list = body.attendees as Body[];
  if (list.length === 0) return invalidParams("attendees must not be empty");
  if (list.length > MAX_ATTENDEES_PER_REQUEST) {
    return invalidParams(
      `at most ${MAX_ATTENDEES_PER_REQUEST} attendees per request, got ${list.length}`,
    );
  }
  const ability = found.event.attendee_ability ?? "none";
  const inviter = ctx.calendars.attendeeOf(found.event, caller.owner);
  if (
    !found.organizer &&
    !(inviter && (ability === "can_invite_others" || ability === "can_modify_event"))
  ) {
    return invalidParams("no permission: only the organizer may invite attendees to this event");
  }
  const fresh: Omit<Attendee, "attendee_id">[] = [];
  for (const raw of list) {
    const common = {
      rsvp_status: "needs_action" as const,
      is_optional: raw.is_optional === true,
    };
    if (raw.type === "user") {
      const user = typeof raw.user_id === "string" ? userById(ctx, raw.user_id, idType) : undefined;
      if (!user) {
        return invalidParams(
          `attendee user_id "${String(raw.user_id ?? "")}" (${idType}) not found`,
        );
      }
      fresh.push({ ...common, type: "user", open_id: user.open_id, display_name: user.name });
    } else if (raw.type === "chat") {
      const chat = ctx.chats.find((c) => c.chat_id === raw.chat_id);
      if (!chat) return invalidParams(`attendee chat_id "${String(raw.chat_id ?? "")}" not found`);
      fresh.push({ ...common, type: "chat", chat_id: chat.chat_id, display_name: chat.name });
    } else if (raw.type === "third_party") {
      const email = raw.third_party_email;
      if (typeof email !== "string" || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
        return invalidParams("third_party attendees need a valid third_party_email");
      }
      fresh.push({ ...common, type: "third_party", third_party_email: email, display_name: email });
    } else {
      const room = SEED_ROOMS.find((r) => r.room_id === raw.room_id);
      if (!room) return invalidParams(`attendee room_id "${String(raw.room_id ?? "")}" not found`);
      // A room accepts on its own unless it is taken then.
      fresh.push({ ...common, type: "resource", room_id: room.room_id, display_name: room.name });
    }
  }
  const added = ctx.calendars.addAttendees(found.event, fresh);
  return larkOk({ attendees: added.map((a) => attendeeView(ctx, found.event, a, idType)) });
}

/**
 * Attendee list page sizes: default 20 (lark-cli meta_data.json), at least 10 ("传入小于 10 的值
 * 默认按照 10 计算", MCP server `calendar_v4` schema), at most 100 (*unverified*).
 */
const ATTENDEE_PAGE = { default: 20, min: 10, max: 100 };

function listAttendees(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  params: string[],
): Response {
  const request = eventRequest(ctx, incoming, caller, params, "reader");
  if (request instanceof Response) return request;
  const { found, idType } = request;
  const custom = booleanParam(incoming, "need_resource_customization", false);
  if (custom instanceof Response) return custom;
  const page = pageOf(incoming, ATTENDEE_PAGE);
  if (page instanceof Response) return page;
  const all = visibleAttendees(found, caller);
  const slice = all.slice(page.offset, page.offset + page.size);
  const hasMore = page.offset + page.size < all.length;
  const data: Record<string, unknown> = {
    items: slice.map((a) => attendeeView(ctx, found.event, a, idType, found.occurrence)),
    has_more: hasMore,
  };
  if (hasMore) data.page_token = pageToken(page.offset + page.size);
  return larkOk(data);
}

const REMOVE_BODY: FieldSpec = {
  object: {
    attendee_ids: { array: "string" },
    delete_ids: {
      array: {
        object: {
          type: { enum: ["user", "chat", "resource", "third_party"] },
          user_id: "string",
          chat_id: "string",
          room_id: "string",
          third_party_email: "string",
        },
      },
    },
    need_notification: "boolean",
    instance_start_time_admin: "string",
    is_enable_admin: "boolean",
  },
};
/**
 * At most 500 attendees per batch_delete, attendee_ids and delete_ids together (MCP server
 * `calendar_v4` schema: "一次最多删除500个参与人（与delete_ids一起计算）").
 */
export const MAX_REMOVED_PER_REQUEST = 500;

function removeAttendees(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  params: string[],
): Response {
  const request = eventRequest(ctx, incoming, caller, params, "writer");
  if (request instanceof Response) return request;
  const { found, idType } = request;
  const body = checkedBody(incoming, REMOVE_BODY);
  if (body instanceof Response) return body;
  const ids = (body.attendee_ids as string[] | undefined) ?? [];
  const refs = (body.delete_ids as Body[] | undefined) ?? [];
  if (ids.length + refs.length === 0) {
    return invalidParams("attendee_ids or delete_ids is required");
  }
  if (ids.length + refs.length > MAX_REMOVED_PER_REQUEST) {
    return invalidParams(`at most ${MAX_REMOVED_PER_REQUEST} attendees per request`);
  }
  const editor = found.organizer ||
    (found.event.attendee_ability === "can_modify_event" &&
      !!ctx.calendars.attendeeOf(found.event, caller.owner));
  if (!editor) return invalidParams("no permission: only the organizer may remove attendees");
  const live = (found.event.attendees ?? []).filter((a) => a.rsvp_status !== "removed");
  const targets: Attendee[] = [];
  for (const id of ids) {
    const hit = live.find((a) => a.attendee_id === id);
    if (!hit) return invalidParams(`attendee_id "${id}" is not an attendee of the event`);
    targets.push(hit);
  }
  for (const ref of refs) {
    const user = ref.type === "user" && typeof ref.user_id === "string"
      ? userById(ctx, ref.user_id, idType)
      : undefined;
    const hit = live.find((a) =>
      a.type === ref.type &&
      (a.type === "user"
        ? a.open_id === user?.open_id
        : a.type === "chat"
        ? a.chat_id === ref.chat_id
        : a.type === "resource"
        ? a.room_id === ref.room_id
        : a.third_party_email === ref.third_party_email)
    );
    if (!hit) return invalidParams(`${JSON.stringify(ref)} is not an attendee of the event`);
    targets.push(hit);
  }
  for (const attendee of targets) attendee.rsvp_status = "removed";
  return larkOk({});
}
