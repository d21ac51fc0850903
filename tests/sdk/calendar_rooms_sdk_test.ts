/**
 * Meeting rooms and server-side suggestions against the sandbox, spoken by the official SDK:
 * `freebusy/room_find` and `freebusy/suggestion` are not in the SDK (1.74.0), so they go through
 * its generic `request` and their answers are held to the shapes lark-cli reads
 * (`shortcuts/calendar/calendar_room_find.go`, `calendar_suggestion.go`); a room as an attendee
 * goes through the SDK's own `calendarEventAttendee.create`, whose types carry `room_id`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { SEED_ROOMS } from "../../sandbox/calendar/seed_rooms.ts";
import { assertShape, envelope, sdkError, t, withSdkSandbox } from "./_harness.ts";

const ROOM_FIND = "/open-apis/calendar/v4/freebusy/room_find";
const SUGGESTION = "/open-apis/calendar/v4/freebusy/suggestion";
const SCOPES = [
  "calendar:calendar.free_busy:read",
  "calendar:calendar.event:create",
  "calendar:calendar.event:update",
  "calendar:calendar:read",
];
const ROOMS = envelope(t.object({
  available_rooms: t.optional(t.array(t.object({
    room_id: t.optional(t.string),
    room_name: t.optional(t.string),
    capacity: t.optional(t.number),
    reserve_until_time: t.optional(t.string),
  }))),
}));
const SUGGESTIONS = envelope(t.object({
  suggestions: t.optional(t.array(t.object({
    event_start_time: t.optional(t.string),
    event_end_time: t.optional(t.string),
    recommend_reason: t.optional(t.string),
  }))),
  ai_action_guidance: t.optional(t.string),
}));

Deno.test("SDK request: freebusy room_find and suggestion (not in the SDK) answer the documented shapes", async () => {
  await withSdkSandbox({ startDay: "2026-03-02" }, async ({ sandbox, client, signIn, asUser }) => {
    const me = asUser(await signIn(SCOPES));
    const slot = {
      event_start_time: "2026-03-10T10:00:00+00:00",
      event_end_time: "2026-03-10T11:00:00+00:00",
    };
    const rooms = await client.request({
      method: "POST",
      url: ROOM_FIND,
      data: { ...slot, city: "Singapore", min_capacity: 10, timezone: "UTC" },
    }, me);
    assertShape(rooms, ROOMS, "room_find");
    const jupiter = SEED_ROOMS.find((r) => r.name === "Jupiter")!;
    assert.ok(
      rooms.data.available_rooms.some((r: { room_id: string }) => r.room_id === jupiter.room_id),
    );

    // Booked as a resource attendee through the SDK, the room is no longer free then.
    const primary = await client.calendar.v4.calendar.primary({}, me);
    const calendarId = primary.data!.calendars![0].calendar!.calendar_id!;
    const created = await client.calendar.v4.calendarEvent.create({
      path: { calendar_id: calendarId },
      data: {
        summary: "Booked",
        start_time: { timestamp: String(Date.parse(slot.event_start_time) / 1000) },
        end_time: { timestamp: String(Date.parse(slot.event_end_time) / 1000) },
      },
    }, me);
    const added = await client.calendar.v4.calendarEventAttendee.create({
      path: { calendar_id: calendarId, event_id: created.data!.event!.event_id! },
      params: { user_id_type: "open_id" },
      data: { attendees: [{ type: "resource", room_id: jupiter.room_id }] },
    }, me);
    assert.equal(added.data?.attendees?.[0].room_id, jupiter.room_id);
    assert.equal(added.data?.attendees?.[0].type, "resource");
    const after = await client.request({ method: "POST", url: ROOM_FIND, data: slot }, me);
    assert.ok(
      !after.data.available_rooms.some((r: { room_id: string }) => r.room_id === jupiter.room_id),
    );

    // The bot may search too (the app's tenant token).
    const suggestions = await client.request({
      method: "POST",
      url: SUGGESTION,
      data: {
        search_start_time: "2026-03-10T09:00:00+00:00",
        search_end_time: "2026-03-10T12:00:00+00:00",
        duration_minutes: 60,
        attendee_user_ids: [sandbox.users[0].open_id],
        excluded_event_times: [{
          event_start_time: "2026-03-10T09:00:00+00:00",
          event_end_time: "2026-03-10T09:30:00+00:00",
        }],
      },
    });
    assertShape(suggestions, SUGGESTIONS, "suggestion");

    // Lark's strictness: a missing slot end, an unknown field, a bad rule are 190002.
    for (
      const data of [
        { event_start_time: slot.event_start_time },
        { ...slot, capacity: 3 },
        { ...slot, event_rrule: "FREQ=SOMETIMES" },
      ]
    ) {
      const failure = await sdkError(client.request({ method: "POST", url: ROOM_FIND, data }, me));
      assert.equal(failure.body.code, 190002, JSON.stringify(data));
    }
  });
});
