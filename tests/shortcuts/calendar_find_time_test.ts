/**
 * `calendar +find-time` against the sandbox, in process (the first run a real hark process, for
 * the wiring): slots everyone is free,
 * each person's hours read in their profile's zone (the seeded users: London, Berlin, none,
 * Shanghai, Los Angeles, Auckland, …), free/busy reflecting created events, --create booking
 * once when retried, no slot explained, --dry-run sending nothing, --as bot, and the validation
 * errors.
 */

import assert from "node:assert/strict";
import { createShortcutEnv, jsonOf } from "./_shortcut_env.ts";
import { ALL_TEST_SCOPES, sandboxUserToken } from "../support/sandbox_token.ts";

interface Slot {
  start_time: string;
  end_time: string;
  duration_minutes: number;
  attendee_zones: Record<string, string>;
}

/** `hark calendar +find-time` for these people and this length, with more flags. */
function findTime(attendees: string, duration: string, ...more: string[]): string[] {
  return ["calendar", "+find-time", "--attendees", attendees, "--duration", duration, ...more];
}

/** The error envelope of a failed run in JSON mode: stderr is that one document. */
function errorOf(
  stderr: string,
): { type: string; recovery: { command: string }; warnings?: string[] } {
  return JSON.parse(stderr).error;
}

Deno.test("calendar +find-time against the sandbox", async (t) => {
  const env = await createShortcutEnv({ startDay: "2026-01-05" }, { inProcess: true });
  // The signed-in user works in London, Ann in Berlin; Bob's profile has no zone.
  const [me, ann, bob] = env.sb.users;
  const people = `${ann.open_id},${bob.open_id}`;
  const window = ["--start", "2026-03-09", "--end", "2026-03-13"];
  try {
    await t.step(
      "finds slots in working hours on working days, 10 calls at most at once",
      async () => {
        await env.clearRequests();
        const run = await env.runProcess([
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
      const error = errorOf(booking.stderr);
      assert.equal(error.type, "no_slot");
      // What it warned about before failing is inside the envelope, not lines around it.
      assert.ok(error.warnings?.some((w) => w.startsWith("Cannot tell the time zone")));
      assert.match(error.recovery.command, /^hark calendar \+find-time .*--end 2026-03-22/);
    });

    await t.step("reads each person's hours in their profile's zone and says which", async () => {
      await env.clearRequests();
      const run = await env.run(findTime(people, "30m", ...window, "--json"));
      assert.equal(run.code, 0, run.stderr);
      const slots = jsonOf<Slot[]>(run);
      assert.ok(slots.length > 0);
      for (const slot of slots) {
        assert.deepEqual(slot.attendee_zones, {
          [me.open_id]: "Europe/London",
          [ann.open_id]: "Europe/Berlin",
          [bob.open_id]: "UTC",
        });
        // London's 09:00 is the latest start of the day, Berlin's 18:00 (17:00 UTC) the earliest end.
        const start = new Date(slot.start_time).getUTCHours();
        const end = new Date(slot.end_time).getUTCHours() * 60 +
          new Date(slot.end_time).getUTCMinutes();
        assert.ok(start >= 9 && end <= 17 * 60, slot.start_time);
      }
      assert.equal(
        run.stderr,
        `warning: Cannot tell the time zone of 1 person: ${bob.open_id} (no time zone in the ` +
          "profile). Their working hours were read in UTC; pass --timezone to choose one zone " +
          "for everyone\n",
      );
      const lookups = (await env.requests()).filter((r) => r.path.includes("/contact/v3/users/"));
      assert.deepEqual(
        lookups.map((r) => r.path.split("/").at(-1)).sort(),
        [me.open_id, ann.open_id, bob.open_id].sort(),
      );
      assert.ok(lookups.every((r) => r.query.user_id_type === "open_id"));
    });

    await t.step(
      "without the scope to read profiles: everyone in your zone, one warning",
      async () => {
        const { accessToken } = await sandboxUserToken(env.sb, {
          scopes: ALL_TEST_SCOPES.filter((s) => !s.startsWith("contact:")),
        });
        const run = await env.run(findTime(people, "30m", ...window, "--json"), {
          env: { HARK_USER_ACCESS_TOKEN: accessToken },
        });
        assert.equal(run.code, 0, run.stderr);
        const slots = jsonOf<Slot[]>(run);
        assert.ok(slots.length > 0);
        assert.deepEqual(slots[0].attendee_zones, {
          [me.open_id]: "UTC",
          [ann.open_id]: "UTC",
          [bob.open_id]: "UTC",
        });
        const warnings = run.stderr.trimEnd().split("\n");
        assert.equal(warnings.length, 1, run.stderr);
        assert.match(
          warnings[0],
          /^warning: Cannot tell the time zone of 3 people: .* \(the profile may not be read \(code 99991679; it needs contact:contact\.base:readonly, contact:user\.base:readonly\)\)\. Their working hours were read in UTC; /,
        );
        for (const person of [me, ann, bob]) assert.ok(warnings[0].includes(person.open_id));
      },
    );

    await t.step("London and Auckland meet only where their own hours overlap", async () => {
      const auckland = env.sb.users.find((u) => u.time_zone === "Pacific/Auckland")!;
      const hours = ["--working-hours", "07:00-21:00", "--limit", "20", "--json"];
      const args = findTime(auckland.open_id, "30m", ...window, ...hours);
      const zoned = await env.run(args);
      assert.equal(zoned.code, 0, zoned.stderr);
      assert.equal(zoned.stderr, "");
      const slots = jsonOf<Slot[]>(zoned);
      assert.ok(slots.length > 0);
      // In March London is on UTC+0 and Auckland on UTC+13: Auckland's day ends 08:00 UTC and
      // starts again 18:00 UTC, inside London's 07:00-21:00.
      for (const slot of slots) {
        const hour = new Date(slot.start_time).getUTCHours();
        assert.ok(hour === 7 || (hour >= 18 && hour < 21), slot.start_time);
        assert.deepEqual(slot.attendee_zones, {
          [me.open_id]: "Europe/London",
          [auckland.open_id]: "Pacific/Auckland",
        });
      }
      await env.clearRequests();
      const oneZone = await env.run([...args, "--timezone", "UTC"]);
      assert.equal(oneZone.code, 0, oneZone.stderr);
      const utc = jsonOf<Slot[]>(oneZone);
      assert.ok(utc.some((s) => new Date(s.start_time).getUTCHours() === 12), "midday counts");
      assert.deepEqual(utc[0].attendee_zones, { [me.open_id]: "UTC", [auckland.open_id]: "UTC" });
      const paths = (await env.requests()).map((r) => r.path);
      assert.ok(paths.some((p) => p.endsWith("/freebusy/list")));
      assert.ok(!paths.some((p) => p.includes("/contact/")), "no profile lookups");
    });

    await t.step("--dry-run sends nothing and needs no sign-in", async () => {
      await env.clearRequests();
      const signedOut = { env: { HARK_USER_ACCESS_TOKEN: undefined } };
      const run = await env.run(
        findTime(people, "30m", ...window, "--create", "--dry-run"),
        signedOut,
      );
      assert.equal(run.code, 0, run.stderr);
      const previews = jsonOf<{ method: string; url: string }[]>(run);
      assert.ok(previews.some((p) => p.url.endsWith("/freebusy/list?user_id_type=open_id")));
      assert.ok(previews.some((p) => /\/events\?idempotency_key=/.test(p.url)));
      const lookups = previews.filter((p) => p.url.includes("/contact/v3/users/"));
      assert.deepEqual(
        lookups.map((p) => new URL(p.url).pathname.split("/").at(-1)),
        ["%7Bopen_id%7D", ann.open_id, bob.open_id],
      );
      assert.ok(lookups.every((p) => p.method === "GET"));
      const oneZone = jsonOf<{ url: string }[]>(
        await env.run(
          findTime(people, "30m", ...window, "--timezone", "UTC", "--dry-run"),
          signedOut,
        ),
      );
      assert.ok(!oneZone.some((p) => p.url.includes("/contact/")));
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
      const logged = await env.requests();
      const calls = logged.filter((r) => r.path.endsWith("/freebusy/list"));
      assert.deepEqual(calls.map((c) => (c.body as { user_id: string }).user_id), [ann.open_id]);
      const lookups = logged.filter((r) => r.path.includes("/contact/v3/users/"));
      assert.deepEqual(lookups.map((r) => r.path.split("/").at(-1)), [ann.open_id]);
      assert.equal(run.stderr, "");
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
