/**
 * Rooms, recurrence and suggestions against the sandbox, in process, the booking as a hark
 * process (wiring only; the rules are tested beside each shortcut): +room-find, booking the room
 * it lists with +create --room in a recurring event with a chat invited, the room then taken on
 * every instance, +suggestion beside +find-time, +freebusy with each block's RSVP, --dry-run
 * sending nothing, --as bot, and a validation error's envelope.
 */

import assert from "node:assert/strict";
import { SEED_ROOMS } from "../../sandbox/calendar/seed_rooms.ts";
import { createShortcutEnv, jsonOf } from "./_shortcut_env.ts";

interface RoomRow {
  start_time: string;
  room_id: string;
  room_name: string;
  capacity: number;
}

const JUPITER = SEED_ROOMS.find((r) => r.name === "Jupiter")!.room_id;

Deno.test("calendar rooms, recurrence and suggestions against the sandbox", async (t) => {
  const env = await createShortcutEnv({ startDay: "2026-01-05" }, { inProcess: true });
  const [, ann] = env.sb.users;
  const chat = env.sb.chats[0];
  // Two Mondays; a room is taken only by the events that invite it, none in the seed.
  const slot = "2026-01-12 07:00~2026-01-12 07:30";
  const nextWeek = "2026-01-19 07:00~2026-01-19 07:30";
  // The Singapore rooms for 8 or more, free in both slots, as the user or the bot.
  const bigRooms = async (run: typeof env.run) => {
    const args = ["--slot", `${slot},${nextWeek}`, "--city", "Singapore", "--min-capacity", "8"];
    const result = await run(["calendar", "+room-find", ...args, "--json"]);
    assert.equal(result.code, 0, result.stderr);
    return jsonOf<RoomRow[]>(result);
  };
  try {
    await t.step(
      "+room-find lists the free rooms of each slot; a booked room drops out",
      async () => {
        const rows = await bigRooms(env.run);
        assert.deepEqual(
          rows.filter((r) => r.start_time.startsWith("2026-01-12")).map((r) => r.room_name).sort(),
          ["Jupiter", "Saturn", "Venus"],
        );
        assert.equal(rows.length, 6);

        const created = await env.runProcess([
          "calendar",
          "+create",
          "--summary",
          "Weekly sync",
          "--start",
          "2026-01-12 07:00",
          "--duration",
          "30m",
          "--rrule",
          "FREQ=WEEKLY;COUNT=4",
          "--room",
          JUPITER,
          "--attendees",
          `${ann.open_id},${chat.chat_id}`,
          "--json",
        ]);
        assert.equal(created.code, 0, created.stderr);
        const event = jsonOf<{ recurrence: string; attendees: { type: string }[] }>(created);
        assert.equal(event.recurrence, "FREQ=WEEKLY;COUNT=4");
        assert.deepEqual(event.attendees.map((a) => a.type).sort(), ["chat", "resource", "user"]);

        // The bot searches too; Jupiter is taken on both Mondays (every instance books it).
        const left = await bigRooms(env.runBot);
        assert.equal(left.length, 4);
        assert.ok(!left.some((r) => r.room_id === JUPITER));
      },
    );

    await t.step("+suggestion asks Lark, excluding what it is told", async () => {
      await env.clearRequests();
      const run = await env.run([
        "calendar",
        "+suggestion",
        "--start",
        "2026-01-13 00:00",
        "--end",
        "2026-01-13 03:00",
        "--attendees",
        chat.chat_id,
        "--duration",
        "1h",
        "--exclude",
        "2026-01-13 00:00~2026-01-13 01:00",
        "--json",
      ]);
      assert.equal(run.code, 0, run.stderr);
      const rows = jsonOf<{ start_time: string }[]>(run);
      assert.ok(rows.length > 0, run.stdout);
      assert.ok(rows.every((r) => r.start_time >= "2026-01-13T01:00"), run.stdout);
      const [request] = await env.requests();
      assert.equal(request.path, "/open-apis/calendar/v4/freebusy/suggestion");
      assert.deepEqual((request.body as Record<string, unknown>).attendee_chat_ids, [chat.chat_id]);
    });

    await t.step("+find-time with a chat reads its members and keeps --exclude free", async () => {
      await env.clearRequests();
      const run = await env.run([
        "calendar",
        "+find-time",
        "--attendees",
        chat.chat_id,
        "--duration",
        "30m",
        "--start",
        "2026-01-13 09:00",
        "--end",
        "2026-01-13 18:00",
        "--exclude",
        "2026-01-13 09:00~2026-01-13 12:00",
        "--timezone",
        "UTC",
        "--json",
      ]);
      assert.equal(run.code, 0, run.stderr);
      const slots = jsonOf<{ start_time: string }[]>(run);
      assert.ok(slots.length > 0 && slots.every((s) => s.start_time >= "2026-01-13T12:00"));
      const asked = (await env.requests()).filter((r) => r.path.endsWith("/freebusy/list"))
        .map((r) => (r.body as { user_id: string }).user_id).sort();
      assert.deepEqual(asked, [...new Set(chat.member_open_ids)].sort());
    });

    await t.step("+freebusy shows each block's RSVP", async () => {
      const run = await env.run([
        "calendar",
        "+freebusy",
        "--user-id",
        ann.open_id,
        "--start",
        "2026-01-12",
        "--end",
        "2026-01-16",
        "--json",
      ]);
      assert.equal(run.code, 0, run.stderr);
      const rows = jsonOf<{ start_time: string; rsvp_status?: string }[]>(run);
      // Ann was invited to the weekly sync and has not answered.
      assert.ok(
        rows.some((r) =>
          r.start_time === "2026-01-12T07:00:00+00:00" && r.rsvp_status === "needs_action"
        ),
        run.stdout,
      );
    });

    await t.step("--dry-run sends nothing; a bad rule is exit 2 naming --rrule", async () => {
      await env.clearRequests();
      const dry = await env.run([
        "calendar",
        "+room-find",
        "--slot",
        slot,
        "--dry-run",
      ], { env: { HARK_USER_ACCESS_TOKEN: undefined } });
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, /freebusy\/room_find/);
      assert.deepEqual(await env.requests(), []);
      const bad = await env.run([
        "calendar",
        "+create",
        "--summary",
        "x",
        "--start",
        "2026-01-12 07:00",
        "--duration",
        "30m",
        "--rrule",
        "FREQ=HOURLY",
        "--json",
      ]);
      assert.equal(bad.code, 2);
      const error = JSON.parse(bad.stderr).error;
      assert.equal(error.type, "validation");
      assert.match(error.message, /--rrule/);
      assert.deepEqual(await env.requests(), []);
    });
  } finally {
    await env.close();
  }
});
