/**
 * How calendars, events, instances and attendees look on the wire: the field names and types of
 * the SDK's response types (types/index.d.ts, calendar.v4.calendar, calendar.v4.calendarEvent,
 * calendar.v4.calendarEventAttendee).
 *
 * @module
 */

import { BOT_OWNER, type Calendar, type Role, type StoredEvent } from "./calendar_store.ts";
import type { Occurrence } from "./expand_event.ts";
import type { Attendee, EventTime } from "../core/seed_data.ts";
import type { SandboxContext } from "../core/context.ts";
import type { UserIdType } from "../core/route.ts";

/** The id of a user (an open_id or `BOT_OWNER`) in the id type the caller asked for. */
export function userIdOf(ctx: SandboxContext, owner: string, idType: UserIdType): string {
  if (owner === BOT_OWNER) return ctx.botOpenId;
  const user = ctx.users.find((u) => u.open_id === owner);
  if (!user) return owner;
  return idType === "union_id" ? user.union_id : idType === "user_id" ? user.user_id : owner;
}

function nameOf(ctx: SandboxContext, owner: string): string {
  if (owner === BOT_OWNER) return ctx.appId;
  return ctx.users.find((u) => u.open_id === owner)?.name ?? "";
}

/** A calendar as `calendars/get` and `calendars` (list) return it, with the caller's role. */
export function calendarView(calendar: Calendar, role: Role): Record<string, unknown> {
  return {
    calendar_id: calendar.calendar_id,
    summary: calendar.summary,
    description: calendar.description,
    permissions: calendar.permissions,
    color: calendar.color,
    type: calendar.type,
    summary_alias: "",
    is_deleted: false,
    is_third_party: false,
    role,
  };
}

/**
 * An event time with its time zone: a timed event without one is stored in Asia/Shanghai and an
 * all-day event is always UTC (MCP server `calendar_v4` schema of `start_time.timezone`:
 * "全天日程时区固定为UTC +0；非全天日程时区默认为 Asia/Shanghai").
 */
export function timeView(time: EventTime): EventTime {
  if ("date" in time) return { date: time.date, timezone: "UTC" };
  return { timestamp: time.timestamp, timezone: time.timezone ?? "Asia/Shanghai" };
}

/** An attendee as `attendees` (create and list) return it. */
export function attendeeView(
  ctx: SandboxContext,
  event: StoredEvent,
  attendee: Attendee,
  idType: UserIdType,
  occurrence?: Occurrence,
): Record<string, unknown> {
  const view: Record<string, unknown> = {
    type: attendee.type,
    attendee_id: attendee.attendee_id,
    rsvp_status: (attendee.open_id && occurrence?.override?.rsvp?.[attendee.open_id]) ??
      attendee.rsvp_status,
    is_optional: attendee.is_optional,
    is_organizer: attendee.type === "user" && attendee.open_id === event.organizer,
    is_external: attendee.type === "third_party",
    display_name: attendee.display_name,
  };
  if (attendee.type === "user") view.user_id = userIdOf(ctx, attendee.open_id!, idType);
  if (attendee.type === "chat") {
    view.chat_id = attendee.chat_id;
    const chat = ctx.chats.find((c) => c.chat_id === attendee.chat_id);
    view.chat_members = (chat?.member_open_ids ?? []).map((id) => ({
      rsvp_status: "needs_action",
      is_optional: attendee.is_optional,
      display_name: nameOf(ctx, id),
      is_organizer: id === event.organizer,
      is_external: false,
    }));
  }
  if (attendee.type === "third_party") view.third_party_email = attendee.third_party_email;
  if (attendee.type === "resource") view.room_id = attendee.room_id;
  return view;
}

/** Who looks at an event, and how ids are written for them. */
export interface Viewer {
  /** The caller (an open_id or `BOT_OWNER`). */
  who: string;
  /** Its RSVP for the event or instance. */
  rsvp: string;
  idType: UserIdType;
}

function applinkOf(event: StoredEvent, occurrence?: Occurrence): string {
  const start = occurrence ? occurrence.start_time : event.start_time;
  const seconds = "timestamp" in start
    ? start.timestamp
    : String(Date.parse(`${start.date}T00:00:00Z`) / 1000);
  const query = new URLSearchParams({
    calendarId: event.calendar_id,
    key: event.event_id.replace(/_0$/, ""),
    originalTime: String(occurrence?.originalStart ?? 0),
    startTime: seconds,
  });
  return `https://applink.feishu.cn/client/calendar/event/detail?${query}`;
}

/**
 * The fields an event and an instance share, with the instance's changes and the viewer's own
 * settings (an attendee's free/busy, visibility, colour and reminders) applied.
 */
function commonView(
  ctx: SandboxContext,
  event: StoredEvent,
  occurrence: Occurrence | undefined,
  viewer: Viewer,
): Record<string, unknown> {
  const override = occurrence?.override;
  const personal = event.attendees?.find((a) => a.type === "user" && a.open_id === viewer.who)
    ?.personal;
  const view: Record<string, unknown> = {
    event_id: occurrence?.id ?? event.event_id,
    organizer_calendar_id: event.calendar_id,
    summary: override?.summary ?? event.summary,
    description: override?.description ?? event.description,
    start_time: timeView(occurrence?.start_time ?? event.start_time),
    end_time: timeView(occurrence?.end_time ?? event.end_time),
    visibility: personal?.visibility ?? event.visibility ?? "default",
    attendee_ability: event.attendee_ability ?? "none",
    free_busy_status: personal?.free_busy_status ?? event.free_busy_status,
    color: personal?.color ?? event.color ?? -1,
    status: override?.status ?? event.status,
    is_exception: override !== undefined,
    app_link: applinkOf(event, occurrence),
    event_organizer: {
      user_id: userIdOf(ctx, event.organizer, viewer.idType),
      display_name: nameOf(ctx, event.organizer),
    },
    self_rsvp_status: viewer.rsvp,
  };
  if (occurrence?.originalStart !== undefined) view.recurring_event_id = event.event_id;
  const location = override?.location ?? event.location;
  if (location) view.location = location;
  if (event.vchat) view.vchat = event.vchat;
  if (event.description_rich !== undefined) view.description_rich = event.description_rich;
  return view;
}

/** An instance as `events/instance_view` returns it. */
export function instanceView(
  ctx: SandboxContext,
  event: StoredEvent,
  occurrence: Occurrence,
  viewer: Viewer,
): Record<string, unknown> {
  return commonView(ctx, event, occurrence, viewer);
}

/**
 * An event as `events/get`, `create` and `patch` return it; `attendees` are added when the
 * caller asked for them.
 */
export function eventView(
  ctx: SandboxContext,
  event: StoredEvent,
  occurrence: Occurrence | undefined,
  viewer: Viewer,
  attendees?: { list: Attendee[]; max: number },
): Record<string, unknown> {
  const personal = event.attendees?.find((a) => a.type === "user" && a.open_id === viewer.who)
    ?.personal;
  const view: Record<string, unknown> = {
    ...commonView(ctx, event, occurrence, viewer),
    reminders: personal?.reminders ?? event.reminders ?? [],
    recurrence: occurrence ? "" : event.recurrence ?? "",
    create_time: event.create_time ?? "0",
    attachments: (event.attachments ?? []).map((a) => ({ ...a, name: "", file_size: "0" })),
    source: event.source ?? "",
  };
  if (event.schemas) view.schemas = event.schemas;
  if (event.event_check_in) view.event_check_in = event.event_check_in;
  if (attendees) {
    const shown = attendees.list.slice(0, attendees.max);
    view.attendees = shown.map((a) => attendeeView(ctx, event, a, viewer.idType, occurrence));
    view.has_more_attendee = attendees.list.length > shown.length;
  }
  return view;
}
