/**
 * The official SDK against the sandbox's calendar: every call is built by the SDK, and every
 * answer must have the fields and JS types of the SDK's response type (types/index.d.ts,
 * calendar.v4.*), nothing more.
 *
 * @module
 */

import assert from "node:assert/strict";
import { assertShape, envelope, sdkError, type Shape, t, withSdkSandbox } from "./_harness.ts";

// ---- shapes from types/index.d.ts ----

const RSVP = t.enum("accept", "decline", "tentative", "needs_action", "removed");
const CALENDAR = t.object({
  calendar_id: t.string,
  summary: t.optional(t.string),
  description: t.optional(t.string),
  permissions: t.optional(t.enum("private", "show_only_free_busy", "public")),
  color: t.optional(t.number),
  type: t.optional(t.enum("unknown", "resource", "primary", "shared", "google", "exchange")),
  summary_alias: t.optional(t.string),
  is_deleted: t.optional(t.boolean),
  is_third_party: t.optional(t.boolean),
  role: t.optional(t.enum("unknown", "free_busy_reader", "reader", "writer", "owner")),
});
const TIME = t.object({
  date: t.optional(t.string),
  timestamp: t.optional(t.string),
  timezone: t.optional(t.string),
});
const LOCATION = t.object({
  name: t.optional(t.string),
  address: t.optional(t.string),
  latitude: t.optional(t.number),
  longitude: t.optional(t.number),
});
const VCHAT_FIELDS = {
  vc_type: t.optional(
    t.enum("unknown", "vc", "third_party", "no_meeting", "lark_live", "third_party_meeting"),
  ),
  icon_type: t.optional(t.enum("default", "vc", "live")),
  description: t.optional(t.string),
  meeting_url: t.optional(t.string),
  live_link: t.optional(t.string),
  vc_info: t.optional(t.object({ unique_id: t.string, meeting_no: t.string })),
};
const VCHAT = t.object({
  ...VCHAT_FIELDS,
  meeting_settings: t.optional(t.object({
    owner_id: t.optional(t.string),
    join_meeting_permission: t.optional(
      t.enum("anyone_can_join", "only_organization_employees", "only_event_attendees"),
    ),
    password: t.optional(t.string),
    assign_hosts: t.optional(t.array(t.string)),
    auto_record: t.optional(t.boolean),
    open_lobby: t.optional(t.boolean),
    allow_attendees_start: t.optional(t.boolean),
  })),
  third_party_meeting_settings: t.optional(t.object({
    meeting_type: t.optional(t.string),
    meeting_id: t.optional(t.string),
    meeting_no: t.optional(t.string),
    password: t.optional(t.string),
    meeting_descriptions: t.optional(
      t.array(t.object({ lang: t.optional(t.string), description: t.optional(t.string) })),
    ),
  })),
});
const CHECK_IN_TIME = t.object({
  time_type: t.enum("before_event_start", "after_event_start", "after_event_end"),
  duration: t.number,
});
const ATTENDEE_FIELDS = {
  type: t.optional(t.enum("user", "chat", "third_party", "resource")),
  attendee_id: t.optional(t.string),
  rsvp_status: t.optional(RSVP),
  is_optional: t.optional(t.boolean),
  is_organizer: t.optional(t.boolean),
  is_external: t.optional(t.boolean),
  display_name: t.optional(t.string),
  chat_members: t.optional(t.array(t.object({
    rsvp_status: t.optional(RSVP),
    is_optional: t.optional(t.boolean),
    display_name: t.optional(t.string),
    is_organizer: t.optional(t.boolean),
    is_external: t.optional(t.boolean),
  }))),
  user_id: t.optional(t.string),
  chat_id: t.optional(t.string),
  room_id: t.optional(t.string),
  third_party_email: t.optional(t.string),
  operate_id: t.optional(t.string),
};
const RESOURCE_CUSTOMIZATION = t.optional(t.array(t.object({
  index_key: t.string,
  input_content: t.optional(t.string),
  options: t.optional(t.array(t.object({
    option_key: t.optional(t.string),
    others_content: t.optional(t.string),
  }))),
})));
const COMMON_EVENT_FIELDS = {
  event_id: t.string,
  organizer_calendar_id: t.optional(t.string),
  summary: t.optional(t.string),
  description: t.optional(t.string),
  start_time: TIME,
  end_time: TIME,
  vchat: t.optional(VCHAT),
  visibility: t.optional(t.enum("default", "private", "public")),
  attendee_ability: t.optional(
    t.enum("none", "can_see_others", "can_invite_others", "can_modify_event"),
  ),
  free_busy_status: t.optional(t.enum("free", "busy")),
  location: t.optional(LOCATION),
  color: t.optional(t.number),
  reminders: t.optional(t.array(t.object({ minutes: t.optional(t.number) }))),
  recurrence: t.optional(t.string),
  status: t.optional(t.enum("tentative", "confirmed", "cancelled")),
  is_exception: t.optional(t.boolean),
  recurring_event_id: t.optional(t.string),
  create_time: t.optional(t.string),
  schemas: t.optional(t.array(t.object({
    ui_name: t.optional(t.string),
    ui_status: t.optional(t.enum("unknown", "hide", "readonly", "editable")),
    app_link: t.optional(t.string),
  }))),
  event_organizer: t.optional(t.object({
    user_id: t.optional(t.string),
    display_name: t.optional(t.string),
  })),
  app_link: t.optional(t.string),
  event_check_in: t.optional(t.object({
    enable_check_in: t.boolean,
    check_in_start_time: t.optional(CHECK_IN_TIME),
    check_in_end_time: t.optional(CHECK_IN_TIME),
    need_notify_attendees: t.optional(t.boolean),
  })),
  source: t.optional(t.string),
  self_rsvp_status: t.optional(RSVP),
  description_rich: t.optional(t.string),
};
/** calendar.v4.calendarEvent.get. */
const EVENT = t.object({
  ...COMMON_EVENT_FIELDS,
  attendees: t.optional(t.array(t.object(ATTENDEE_FIELDS))),
  has_more_attendee: t.optional(t.boolean),
  attachments: t.optional(t.array(t.object({
    file_token: t.optional(t.string),
    file_size: t.optional(t.string),
    name: t.optional(t.string),
  }))),
});
/** calendar.v4.calendarEvent.create and .patch. */
const WRITTEN_EVENT = t.object({
  ...COMMON_EVENT_FIELDS,
  attachments: t.optional(t.array(t.object({
    file_token: t.optional(t.string),
    file_size: t.optional(t.string),
    is_deleted: t.optional(t.boolean),
    name: t.optional(t.string),
  }))),
});
/** calendar.v4.calendarEvent.instanceView, items. */
const INSTANCE = t.object({
  event_id: t.string,
  summary: t.optional(t.string),
  description: t.optional(t.string),
  start_time: t.optional(TIME),
  end_time: t.optional(TIME),
  status: t.optional(t.enum("tentative", "confirmed", "cancelled")),
  is_exception: t.optional(t.boolean),
  app_link: t.optional(t.string),
  organizer_calendar_id: t.optional(t.string),
  vchat: t.optional(t.object(VCHAT_FIELDS)),
  visibility: t.optional(t.enum("default", "private", "public")),
  attendee_ability: t.optional(
    t.enum("none", "can_see_others", "can_invite_others", "can_modify_event"),
  ),
  free_busy_status: t.optional(t.enum("free", "busy")),
  location: t.optional(LOCATION),
  color: t.optional(t.number),
  recurring_event_id: t.optional(t.string),
  event_organizer: t.optional(t.object({
    user_id: t.optional(t.string),
    display_name: t.optional(t.string),
  })),
  attendees: t.optional(t.array(t.object({
    ...ATTENDEE_FIELDS,
    resource_customization: RESOURCE_CUSTOMIZATION,
    approval_reason: t.optional(t.string),
  }))),
  self_rsvp_status: t.optional(RSVP),
  description_rich: t.optional(t.string),
});
const FREEBUSY_ITEM = t.object({
  start_time: t.string,
  end_time: t.string,
  rsvp_status: t.optional(RSVP),
});
const EMPTY: Shape = t.object({});

const DAY = 86_400;
const START_DAY = "2026-03-02";
const ANCHOR = Date.parse(`${START_DAY}T00:00:00Z`) / 1000;
const SCOPES = [
  "calendar:calendar:read",
  "calendar:calendar.event:read",
  "calendar:calendar.event:create",
  "calendar:calendar.event:update",
  "calendar:calendar.event:delete",
  "calendar:calendar.event:reply",
  "calendar:calendar.free_busy:read",
];

Deno.test("SDK: calendars list, get and primary have the SDK's shapes", async () => {
  await withSdkSandbox({}, async ({ sandbox, client, signIn, asUser }) => {
    const me = asUser(await signIn(SCOPES));
    const list = await client.calendar.v4.calendar.list({ params: { page_size: 50 } }, me);
    assertShape(
      list,
      envelope(t.object({
        has_more: t.optional(t.boolean),
        page_token: t.optional(t.string),
        sync_token: t.optional(t.string),
        calendar_list: t.optional(t.array(CALENDAR)),
      })),
      "calendar.list",
    );
    const [primary, shared] = list.data!.calendar_list!;
    assert.equal(primary.type, "primary");
    assert.equal(shared.type, "shared");
    const got = await client.calendar.v4.calendar.get(
      { path: { calendar_id: shared.calendar_id } },
      me,
    );
    assertShape(got, envelope(CALENDAR), "calendar.get");
    assert.equal(got.data?.role, "owner");
    const own = await client.calendar.v4.calendar.primary({}, me);
    assertShape(
      own,
      envelope(t.object({
        calendars: t.optional(t.array(t.object({
          calendar: t.optional(CALENDAR),
          user_id: t.optional(t.string),
        }))),
      })),
      "calendar.primary",
    );
    assert.equal(own.data?.calendars?.[0].user_id, sandbox.users[0].open_id);
    // The tenant token the SDK fetches itself reaches the bot's calendar.
    const bot = await client.calendar.v4.calendar.list({});
    assert.equal(bot.data?.calendar_list?.length, 1);
    const missing = await sdkError(
      client.calendar.v4.calendar.get({ path: { calendar_id: "nope" } }, me),
    );
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 191000);
  });
});

Deno.test("SDK: event create, get, patch, instance_view and delete have the SDK's shapes", async () => {
  await withSdkSandbox({ startDay: START_DAY }, async ({ client, signIn, asUser }) => {
    const me = asUser(await signIn(SCOPES));
    const start = ANCHOR + 2 * DAY + 10 * 3600;
    const created = await client.calendar.v4.calendarEvent.create({
      path: { calendar_id: "primary" },
      params: { idempotency_key: "sdk-1" },
      data: {
        summary: "SDK review",
        description: "built by the SDK",
        start_time: { timestamp: String(start), timezone: "Europe/Paris" },
        end_time: { timestamp: String(start + 3600), timezone: "Europe/Paris" },
        attendee_ability: "can_see_others",
        location: { name: "Room 7", latitude: 48.85, longitude: 2.35 },
        reminders: [{ minutes: 10 }],
        vchat: { vc_type: "third_party", meeting_url: "https://meet.example.com/x" },
        recurrence: "FREQ=WEEKLY;COUNT=3",
      },
    }, me);
    assertShape(created, envelope(t.object({ event: t.optional(WRITTEN_EVENT) })), "create");
    const event = created.data!.event!;
    assert.equal(event.start_time.timezone, "Europe/Paris");
    const path = { calendar_id: "primary", event_id: event.event_id };

    const got = await client.calendar.v4.calendarEvent.get(
      { path, params: { need_attendee: true } },
      me,
    );
    assertShape(got, envelope(t.object({ event: t.optional(EVENT) })), "get");
    assert.equal(got.data?.event?.recurrence, "FREQ=WEEKLY;COUNT=3");

    const patched = await client.calendar.v4.calendarEvent.patch({
      path,
      data: { summary: "SDK review, moved", need_notification: false },
    }, me);
    assertShape(patched, envelope(t.object({ event: t.optional(WRITTEN_EVENT) })), "patch");
    assert.equal(patched.data?.event?.summary, "SDK review, moved");
    assert.equal(patched.data?.event?.description, "built by the SDK");

    const view = await client.calendar.v4.calendarEvent.instanceView({
      path: { calendar_id: "primary" },
      params: { start_time: String(ANCHOR), end_time: String(ANCHOR + 30 * DAY) },
    }, me);
    assertShape(view, envelope(t.object({ items: t.optional(t.array(INSTANCE)) })), "view");
    const mine = view.data!.items!.filter((i) => i.recurring_event_id === event.event_id);
    assert.equal(mine.length, 3);
    assert.ok(mine.every((i) => i.summary === "SDK review, moved"));

    const instance = { calendar_id: "primary", event_id: mine[1].event_id };
    const one = await client.calendar.v4.calendarEvent.get({ path: instance }, me);
    assertShape(one, envelope(t.object({ event: t.optional(EVENT) })), "get instance");
    const cancelled = await client.calendar.v4.calendarEvent.delete({
      path: instance,
      params: { need_notification: "false" },
    }, me);
    assertShape(cancelled, envelope(EMPTY), "delete instance");
    const deleted = await client.calendar.v4.calendarEvent.delete({ path }, me);
    assertShape(deleted, envelope(EMPTY), "delete");
    // A deleted event: 403 193003 "event is deleted" (an id never created is 404 193001).
    const gone = await sdkError(client.calendar.v4.calendarEvent.get({ path }, me));
    assert.equal(gone.status, 403);
    assert.equal(gone.body.code, 193003);
    const never = await sdkError(client.calendar.v4.calendarEvent.get({
      path: { ...path, event_id: "never_created_0" },
    }, me));
    assert.equal(never.status, 404);
    assert.equal(never.body.code, 193001);
    const strict = await sdkError(client.calendar.v4.calendarEvent.create({
      path: { calendar_id: "primary" },
      data: {
        start_time: { timestamp: String(start) },
        end_time: { timestamp: String(start - 1) },
      },
    }, me));
    assert.equal(strict.body.code, 190002);
  });
});

Deno.test("SDK: attendees create, list (and its iterator), batch_delete and reply have the SDK's shapes", async () => {
  await withSdkSandbox({ startDay: START_DAY }, async ({ sandbox, client, signIn, asUser }) => {
    const me = asUser(await signIn(SCOPES));
    const guestUser = sandbox.users[3];
    const guest = asUser(await signIn(SCOPES, guestUser.open_id));
    const start = ANCHOR + 3 * DAY + 9 * 3600;
    const created = await client.calendar.v4.calendarEvent.create({
      path: { calendar_id: "primary" },
      data: {
        summary: "Planning",
        start_time: { timestamp: String(start) },
        end_time: { timestamp: String(start + 1800) },
        attendee_ability: "can_see_others",
      },
    }, me);
    const path = { calendar_id: "primary", event_id: created.data!.event!.event_id };
    const added = await client.calendar.v4.calendarEventAttendee.create({
      path,
      params: { user_id_type: "open_id" },
      data: {
        attendees: [
          ...sandbox.users.slice(1, 14).map((u) => ({ type: "user" as const, user_id: u.open_id })),
          { type: "chat", chat_id: sandbox.chats[2].chat_id },
          { type: "third_party", third_party_email: "partner@example.org" },
        ],
        need_notification: false,
      },
    }, me);
    assertShape(
      added,
      envelope(t.object({
        attendees: t.optional(t.array(t.object({
          ...ATTENDEE_FIELDS,
          resource_customization: RESOURCE_CUSTOMIZATION,
          approval_reason: t.optional(t.string),
        }))),
      })),
      "attendees.create",
    );

    const page = await client.calendar.v4.calendarEventAttendee.list({
      path,
      params: { page_size: 10 },
    }, me);
    const LIST_ITEM = t.object({
      ...ATTENDEE_FIELDS,
      resource_customization: RESOURCE_CUSTOMIZATION,
    });
    assertShape(
      page,
      envelope(t.object({
        items: t.optional(t.array(LIST_ITEM)),
        has_more: t.optional(t.boolean),
        page_token: t.optional(t.string),
      })),
      "attendees.list",
    );
    assert.equal(page.data?.has_more, true);
    // The SDK's iterator follows page_token to the end.
    const seen: string[] = [];
    for await (
      const chunk of await client.calendar.v4.calendarEventAttendee.listWithIterator(
        { path, params: { page_size: 10 } },
        me,
      )
    ) {
      for (const item of chunk?.items ?? []) seen.push(item.attendee_id!);
    }
    assert.equal(seen.length, 15);

    const replied = await client.calendar.v4.calendarEvent.reply({
      path,
      data: { rsvp_status: "tentative" },
    }, guest);
    assertShape(replied, envelope(EMPTY), "reply");
    const asGuest = await client.calendar.v4.calendarEvent.get({ path }, guest);
    assert.equal(asGuest.data?.event?.self_rsvp_status, "tentative");

    const removed = await client.calendar.v4.calendarEventAttendee.batchDelete({
      path,
      params: { user_id_type: "open_id" },
      data: {
        attendee_ids: [seen[0]],
        delete_ids: [{ type: "user", user_id: guestUser.open_id }],
        need_notification: false,
      },
    }, me);
    assertShape(removed, envelope(EMPTY), "attendees.batch_delete");
    const left = await client.calendar.v4.calendarEventAttendee.list({
      path,
      params: { page_size: 100 },
    }, me);
    assert.equal(left.data?.items?.length, 13);
    const tooMany = await sdkError(client.calendar.v4.calendarEventAttendee.create({
      path,
      data: {
        attendees: Array.from({ length: 1001 }, () => ({
          type: "user" as const,
          user_id: guestUser.open_id,
        })),
      },
    }, me));
    assert.equal(tooMany.body.code, 190002);
  });
});

Deno.test("SDK: freebusy list and batch have the SDK's shapes and agree", async () => {
  await withSdkSandbox({ startDay: START_DAY }, async ({ sandbox, client, signIn, asUser }) => {
    const me = asUser(await signIn(SCOPES));
    const window = {
      time_min: new Date(ANCHOR * 1000).toISOString(),
      time_max: new Date((ANCHOR + 5 * DAY) * 1000).toISOString(),
    };
    const [a, b] = [sandbox.users[1].open_id, sandbox.users[2].open_id];
    const list = await client.calendar.v4.freebusy.list({
      params: { user_id_type: "open_id" },
      data: { ...window, user_id: a, need_rsvp_status: true },
    }, me);
    assertShape(
      list,
      envelope(t.object({ freebusy_list: t.optional(t.array(FREEBUSY_ITEM)) })),
      "freebusy.list",
    );
    assert.ok(list.data!.freebusy_list!.length > 0);
    const batch = await client.calendar.v4.freebusy.batch({
      data: { ...window, user_ids: [a, b], need_rsvp_status: true },
    });
    assertShape(
      batch,
      envelope(t.object({
        freebusy_lists: t.optional(t.array(t.object({
          freebusy_items: t.optional(t.array(FREEBUSY_ITEM)),
          user_id: t.optional(t.string),
        }))),
      })),
      "freebusy.batch",
    );
    assert.deepEqual(batch.data?.freebusy_lists?.[0].freebusy_items, list.data?.freebusy_list);
  });
});
