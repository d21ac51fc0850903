/**
 * `calendar +find-time` against the sandbox, the CLI as a subprocess: slots everyone is free,
 * free/busy reflecting created events, --create booking once when retried, no slot explained,
 * --dry-run sending nothing, --as bot, and the validation errors.
 */

import assert from "node:assert/strict";
import { createShortcutEnv, jsonOf } from "./_shortcut_env.ts";

interface Slot {
  start_time: string;
  end_time: string;
  duration_minutes: number;
}

Deno.test("calendar +find-time against the sandbox", async (t) => {
  const env = await createShortcutEnv({ startDay: "2026-01-05" });
  const [, ann, bob] = env.sb.users;
  const people = `${ann.open_id},${bob.open_id}`;
  const window = ["--start", "2026-03-09", "--end", "2026-03-13"];
  try {
    await t.step(
      "finds slots in working hours on working days, 10 calls at most at once",
      async () => {
        await env.clearRequests();
        const run = await env.run([
          "calendar",
          "+find-time",
          "--attendees",
          people,
          "--duration",
          "45m",
          ...window,
          "--working-hours",
          "09:00-17:00",
          "--limit",
          "8",
          "--json",
        ]);
        assert.equal(run.code, 0, run.stderr);
        const slots = jsonOf<Slot[]>(run);
        assert.equal(slots.length, 8);
        for (const slot of slots) {
          const start = new Date(slot.start_time);
          assert.ok(start.getUTCHours() >= 9, slot.start_time);
          assert.ok(Date.parse(slot.end_time) - Date.parse(slot.start_time) === 45 * 60_000);
          assert.ok(![0, 6].includes(start.getUTCDay()), "a weekday");
          assert.match(slot.start_time, /\+00:00$/);
        }
        const calls = (await env.requests()).filter((r) => r.path.endsWith("/freebusy/list"));
        const asked = new Set(calls.map((c) => (c.body as { user_id: string }).user_id));
        // The signed-in user counts too.
        assert.deepEqual(
          [...asked].sort(),
          [env.sb.users[0].open_id, ann.open_id, bob.open_id].sort(),
        );
        // Every slot is free for everyone: check against the sandbox's own free/busy.
        for (const person of asked) {
          const busy = await fetch(`${env.sb.baseUrl}/open-apis/calendar/v4/freebusy/list`, {
            method: "POST",
            headers: { Authorization: `Bearer ${env.token}`, "Content-Type": "application/json" },
            body: JSON.stringify({
              time_min: "2026-03-09T00:00:00Z",
              time_max: "2026-03-14T00:00:00Z",
              user_id: person,
            }),
          }).then((r) => r.json()) as {
            data: { freebusy_list: { start_time: string; end_time: string }[] };
          };
          for (const slot of slots) {
            for (const b of busy.data.freebusy_list) {
              const overlap = Date.parse(b.start_time) < Date.parse(slot.end_time) &&
                Date.parse(b.end_time) > Date.parse(slot.start_time);
              assert.ok(!overlap, `${slot.start_time} overlaps ${b.start_time} of ${person}`);
            }
          }
        }
      },
    );

    await t.step("--create books the first slot once, even when run again", async () => {
      const args = [
        "calendar",
        "+find-time",
        "--attendees",
        people,
        "--duration",
        "30m",
        ...window,
        "--create",
        "--summary",
        "Found a time",
        "--json",
      ];
      const first = await env.run(args);
      assert.equal(first.code, 0, first.stderr);
      const event = jsonOf<
        { event_id: string; start_time: string; attendees: { user_id: string }[] }
      >(
        first,
      );
      assert.deepEqual(
        event.attendees.map((a) => a.user_id).sort(),
        [ann.open_id, bob.open_id].sort(),
      );
      const again = await env.run(args);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(jsonOf<{ event_id: string }>(again).event_id, event.event_id);
      const created = await env.get<{ summary?: string; event?: { summary?: string } }[]>(
        "/sandbox/events",
      );
      assert.equal(
        created.filter((e) => (e.summary ?? e.event?.summary) === "Found a time").length,
        1,
      );
      // Ann's free/busy now shows the booked meeting.
      const busy = jsonOf<{ start_time: string }[]>(
        await env.run([
          "calendar",
          "+freebusy",
          "--user-id",
          ann.open_id,
          ...window,
          "--json",
        ]),
      );
      assert.ok(
        busy.some((b) => Date.parse(b.start_time) <= Date.parse(event.start_time)),
        "the booked slot is busy",
      );
      const slots = jsonOf<Slot[]>(
        await env.run([
          "calendar",
          "+find-time",
          "--attendees",
          people,
          "--duration",
          "30m",
          ...window,
          "--json",
        ]),
      );
      assert.ok(!slots.some((s) => s.start_time === event.start_time), "no longer free");
    });

    await t.step("says why when no slot exists", async () => {
      const run = await env.run([
        "calendar",
        "+find-time",
        "--attendees",
        people,
        "--duration",
        "2h",
        "--start",
        "2026-03-14",
        "--end",
        "2026-03-15",
        "--json",
      ]);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(jsonOf(run), []);
      assert.match(run.stderr, /warning: No free 2h slot .*working day/);
      const booking = await env.run([
        "calendar",
        "+find-time",
        "--attendees",
        people,
        "--duration",
        "2h",
        "--start",
        "2026-03-14",
        "--end",
        "2026-03-15",
        "--create",
        "--json",
      ]);
      assert.equal(booking.code, 1);
      const { error } = JSON.parse(booking.stderr);
      assert.equal(error.type, "no_slot");
      assert.match(error.recovery.command, /^hark calendar \+find-time .*--end 2026-03-22/);
    });

    await t.step("--dry-run sends nothing and needs no sign-in", async () => {
      await env.clearRequests();
      const run = await env.run([
        "calendar",
        "+find-time",
        "--attendees",
        people,
        "--duration",
        "30m",
        ...window,
        "--create",
        "--dry-run",
      ], { env: { HARK_USER_ACCESS_TOKEN: undefined } });
      assert.equal(run.code, 0, run.stderr);
      const previews = jsonOf<{ method: string; url: string }[]>(run);
      assert.ok(previews.some((p) => p.url.endsWith("/freebusy/list?user_id_type=open_id")));
      assert.ok(previews.some((p) => /\/events\?idempotency_key=/.test(p.url)));
      assert.deepEqual(await env.requests(), []);
    });

    await t.step("as the bot: only the attendees count", async () => {
      await env.clearRequests();
      const run = await env.run([
        "calendar",
        "+find-time",
        "--attendees",
        ann.open_id,
        "--duration",
        "1h",
        ...window,
        "--as",
        "bot",
        "--json",
      ], { env: { HARK_USER_ACCESS_TOKEN: undefined } });
      assert.equal(run.code, 0, run.stderr);
      assert.ok(jsonOf<Slot[]>(run).length > 0);
      const calls = (await env.requests()).filter((r) => r.path.endsWith("/freebusy/list"));
      assert.deepEqual(calls.map((c) => (c.body as { user_id: string }).user_id), [ann.open_id]);
    });

    await t.step("validation errors name the flag (exit 2)", async () => {
      await env.clearRequests();
      const cases: [string[], RegExp][] = [
        [["--duration", "30m"], /--attendees/],
        [["--attendees", people], /--duration/],
        [["--attendees", people, "--duration", "soon"], /--duration/],
        [["--attendees", people, "--duration", "0m"], /--duration/],
        [
          ["--attendees", people, "--duration", "30m", "--working-hours", "18:00-09:00"],
          /--working-hours/,
        ],
        [["--attendees", people, "--duration", "30m", "--limit", "0"], /--limit/],
        [["--attendees", " , ", "--duration", "30m"], /--attendees/],
        [[
          "--attendees",
          people,
          "--duration",
          "30m",
          "--start",
          "2026-03-10",
          "--end",
          "2026-03-09",
        ], /--end/],
        [["--attendees", people, "--duration", "30m", "--timezone", "Mars/Base"], /--timezone/],
      ];
      for (const [args, pattern] of cases) {
        const run = await env.run(["calendar", "+find-time", ...args, "--json"]);
        assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
        assert.match(JSON.parse(run.stderr).error.message, pattern, args.join(" "));
      }
      assert.deepEqual(await env.requests(), []);
    });
  } finally {
    await env.close();
  }
});
