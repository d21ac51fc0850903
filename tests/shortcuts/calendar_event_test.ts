/**
 * The event lifecycle against the sandbox, in process (the first run a real hark process, for the
 * wiring): +calendars, +get, +rsvp,
 * +update, +delete, with what each changes in +agenda and +get, --dry-run sending nothing, the
 * validation errors, recurring series, and the bot identity.
 */

import assert from "node:assert/strict";
import { sandboxUserToken } from "../support/sandbox_token.ts";
import { createShortcutEnv, jsonOf, type ShortcutEnv } from "./_shortcut_env.ts";

interface EventOut {
  event_id: string;
  summary: string;
  start_time: string;
  end_time: string;
  all_day: boolean;
  recurrence?: string;
  attendees?: { user_id: string; rsvp_status: string }[];
}

async function create(env: ShortcutEnv, extra: string[]): Promise<EventOut> {
  const run = await env.run(["calendar", "+create", ...extra, "--json"]);
  assert.equal(run.code, 0, run.stderr);
  return jsonOf<EventOut>(run);
}

function errorOf(
  run: { stderr: string },
): { type: string; message: string; recovery: { command: string } } {
  return JSON.parse(run.stderr).error;
}

Deno.test("calendar event lifecycle against the sandbox", async (t) => {
  const env = await createShortcutEnv({ startDay: "2026-01-05" }, { inProcess: true });
  const [me, ann, bob] = env.sb.users;
  try {
    await t.step("+calendars lists the primary calendar, marked, as user and bot", async () => {
      const run = await env.runProcess(["calendar", "+calendars", "--json"]);
      assert.equal(run.code, 0, run.stderr);
      const list = jsonOf<{ calendar_id: string; type: string; role: string; primary: boolean }[]>(
        run,
      );
      assert.equal(list[0].type, "primary");
      assert.equal(list[0].primary, true);
      assert.equal(list[0].role, "owner");
      // Lark refuses a calendar page under 50 (the sandbox too): --limit 1 asks for 50, shows 1.
      await env.clearRequests();
      const one = await env.run(["calendar", "+calendars", "--limit", "1", "--json"]);
      assert.equal(one.code, 0, one.stderr);
      assert.equal(jsonOf<unknown[]>(one).length, 1);
      assert.deepEqual((await env.requests()).map((r) => r.query.page_size), ["50"]);
      const csv = await env.run(["calendar", "+calendars", "--format", "csv"]);
      assert.equal(csv.stdout.split(/\r?\n/)[0], "CALENDAR ID,SUMMARY,TYPE,ROLE,PRIMARY");
      const bot = await env.run(["calendar", "+calendars", "--as", "bot", "--json"], {
        env: { HARK_USER_ACCESS_TOKEN: undefined },
      });
      assert.equal(bot.code, 0, bot.stderr);
      assert.ok(jsonOf<unknown[]>(bot).length >= 1);
    });

    let eventId = "";
    await t.step(
      "+get shows the event with its attendees; +rsvp changes what it shows",
      async () => {
        const event = await create(env, [
          "--summary",
          "Planning",
          "--start",
          "2026-02-02 10:00",
          "--end",
          "2026-02-02 11:00",
          "--attendees",
          `${ann.open_id},${bob.open_id}`,
        ]);
        eventId = event.event_id;
        const get = async () => {
          const run = await env.run(["calendar", "+get", "--event-id", eventId, "--json"]);
          assert.equal(run.code, 0, run.stderr);
          return jsonOf<EventOut & { kind: string }>(run);
        };
        const before = await get();
        assert.equal(before.summary, "Planning");
        assert.equal(before.start_time, "2026-02-02T10:00:00+00:00");
        assert.equal(before.kind, "one-off");
        const annBefore = before.attendees!.find((a) => a.user_id === ann.open_id);
        assert.equal(annBefore?.rsvp_status, "needs_action");
        // Ann answers from her own calendar, where the invitation shows.
        const { accessToken } = await sandboxUserToken(env.sb, { openId: ann.open_id });
        await env.clearRequests();
        const reply = await env.run(
          ["calendar", "+rsvp", "--event-id", eventId, "--status", "tentative", "--json"],
          { env: { HARK_USER_ACCESS_TOKEN: accessToken } },
        );
        assert.equal(reply.code, 0, reply.stderr);
        assert.deepEqual(jsonOf(reply), {
          calendar_id: "primary",
          event_id: eventId,
          rsvp_status: "tentative",
        });
        const [logged] = await env.requests();
        assert.equal(
          logged.path,
          `/open-apis/calendar/v4/calendars/primary/events/${eventId}/reply`,
        );
        assert.deepEqual(logged.body, { rsvp_status: "tentative" });
        const after = await get();
        assert.equal(
          after.attendees!.find((a) => a.user_id === ann.open_id)?.rsvp_status,
          "tentative",
        );
        const table = await env.run([
          "calendar",
          "+get",
          "--event-id",
          eventId,
          "--format",
          "table",
        ]);
        assert.match(table.stdout, /\(tentative\)/);
      },
    );

    await t.step("+update --dry-run sends nothing and needs no sign-in", async () => {
      await env.clearRequests();
      const run = await env.run([
        "calendar",
        "+update",
        "--event-id",
        eventId,
        "--summary",
        "Planning (moved)",
        "--start",
        "2026-02-02 14:00",
        "--end",
        "2026-02-02 15:00",
        "--dry-run",
      ], { env: { HARK_USER_ACCESS_TOKEN: undefined } });
      assert.equal(run.code, 0, run.stderr);
      const previews = jsonOf<{ method: string; body?: Record<string, unknown> }[]>(run);
      // The read before the write is sent twice, and listed once.
      assert.deepEqual(previews.map((p) => p.method), ["GET", "PATCH"]);
      assert.deepEqual(Object.keys(previews[1].body!).sort(), [
        "end_time",
        "start_time",
        "summary",
      ]);
      assert.deepEqual(await env.requests(), []);
    });

    await t.step("+update sends only the given fields and shows before → after", async () => {
      await env.clearRequests();
      const run = await env.run([
        "calendar",
        "+update",
        "--event-id",
        eventId,
        "--summary",
        "Planning (moved)",
        "--start",
        "2026-02-02 14:00",
        "--end",
        "2026-02-02 15:00",
        "--remove-attendees",
        bob.open_id,
        "--json",
      ]);
      assert.equal(run.code, 0, run.stderr);
      const out = jsonOf<{
        scope: string;
        changes: { field: string; before: string; after: string }[];
        attendees_removed: string[];
        event: EventOut;
      }>(run);
      assert.equal(out.scope, "one-off");
      assert.deepEqual(out.changes, [
        { field: "summary", before: "Planning", after: "Planning (moved)" },
        {
          field: "start_time",
          before: "2026-02-02T10:00:00+00:00",
          after: "2026-02-02T14:00:00+00:00",
        },
        {
          field: "end_time",
          before: "2026-02-02T11:00:00+00:00",
          after: "2026-02-02T15:00:00+00:00",
        },
      ]);
      assert.deepEqual(out.attendees_removed, [bob.open_id]);
      const patch = (await env.requests()).find((r) => r.method === "PATCH")!;
      assert.deepEqual(Object.keys(patch.body as object).sort(), [
        "end_time",
        "start_time",
        "summary",
      ]);
      const agenda = jsonOf<EventOut[]>(
        await env.run(["calendar", "+agenda", "--start", "2026-02-02", "--json"]),
      );
      const shown = agenda.find((e) => e.event_id === eventId)!;
      assert.equal(shown.summary, "Planning (moved)");
      assert.equal(shown.start_time, "2026-02-02T14:00:00+00:00");
      const got = jsonOf<EventOut>(
        await env.run(["calendar", "+get", "--event-id", eventId, "--json"]),
      );
      assert.ok(!got.attendees!.some((a) => a.user_id === bob.open_id));
      // Again: nothing left to change, and retrying is harmless.
      const again = await env.run([
        "calendar",
        "+update",
        "--event-id",
        eventId,
        "--summary",
        "Planning (moved)",
        "--remove-attendees",
        bob.open_id,
        "--json",
      ]);
      assert.equal(again.code, 0, again.stderr);
      assert.deepEqual(jsonOf<{ changes: unknown[] }>(again).changes, []);
    });

    await t.step(
      "+update --start alone keeps the event's length; --end alone its start",
      async () => {
        const moved = await env.run([
          "calendar",
          "+update",
          "--event-id",
          eventId,
          "--start",
          "2026-02-03 09:30",
          "--json",
        ]);
        assert.equal(moved.code, 0, moved.stderr);
        const event = jsonOf<{ event: EventOut }>(moved).event;
        assert.equal(event.start_time, "2026-02-03T09:30:00+00:00");
        assert.equal(event.end_time, "2026-02-03T10:30:00+00:00");
        const longer = await env.run([
          "calendar",
          "+update",
          "--event-id",
          eventId,
          "--end",
          "2026-02-03 11:00",
          "--json",
        ]);
        assert.equal(longer.code, 0, longer.stderr);
        const after = jsonOf<{ event: EventOut }>(longer).event;
        assert.equal(after.start_time, "2026-02-03T09:30:00+00:00");
        assert.equal(after.end_time, "2026-02-03T11:00:00+00:00");
        // Back where the next steps expect it.
        const back = await env.run([
          "calendar",
          "+update",
          "--event-id",
          eventId,
          "--start",
          "2026-02-02 14:00",
          "--end",
          "2026-02-02 15:00",
        ]);
        assert.equal(back.code, 0, back.stderr);
      },
    );

    await t.step("+update and +delete refuse a whole series without --all-instances", async () => {
      const agenda = jsonOf<(EventOut & { recurring_event_id?: string })[]>(
        await env.run(["calendar", "+agenda", "--start", "2026-01-12", "--json"]),
      );
      const instance = agenda.find((e) => e.summary === "Weekly team sync")!;
      assert.ok(instance.recurring_event_id, "a seeded weekly series instance");
      const series = instance.recurring_event_id!;
      const refused = await env.run([
        "calendar",
        "+update",
        "--event-id",
        series,
        "--summary",
        "Renamed",
        "--json",
      ]);
      assert.equal(refused.code, 2);
      assert.match(errorOf(refused).message, /recurring series/);
      const deleteRefused = await env.run(["calendar", "+delete", "--event-id", series, "--yes"]);
      assert.equal(deleteRefused.code, 2);
      const one = await env.run([
        "calendar",
        "+update",
        "--event-id",
        instance.event_id,
        "--summary",
        "Team sync (this week only)",
        "--json",
      ]);
      assert.equal(one.code, 0, one.stderr);
      const out = jsonOf<{ scope: string; series_id: string }>(one);
      assert.equal(out.scope, "instance");
      assert.equal(out.series_id, series);
      const week = jsonOf<EventOut[]>(
        await env.run([
          "calendar",
          "+agenda",
          "--start",
          "2026-01-12",
          "--end",
          "2026-01-19",
          "--json",
        ]),
      );
      assert.equal(week.filter((e) => e.summary === "Team sync (this week only)").length, 1);
      const deleted = await env.run([
        "calendar",
        "+delete",
        "--event-id",
        instance.event_id,
        "--yes",
        "--json",
      ]);
      assert.equal(deleted.code, 0, deleted.stderr);
      assert.equal(jsonOf<{ scope: string }>(deleted).scope, "instance");
    });

    await t.step(
      "+delete asks, needs --yes without a terminal, and honours --no-notify",
      async () => {
        const noYes = await env.run(["calendar", "+delete", "--event-id", eventId, "--json"]);
        assert.equal(noYes.code, 2);
        assert.match(errorOf(noYes).message, /--yes/);
        // The way out is the same command line with the switch that answers the question.
        assert.equal(
          errorOf(noYes).recovery.command,
          `hark calendar +delete --event-id ${eventId} --json --yes`,
        );
        await env.clearRequests();
        const run = await env.run([
          "calendar",
          "+delete",
          "--event-id",
          eventId,
          "--no-notify",
          "--yes",
          "--json",
        ]);
        assert.equal(run.code, 0, run.stderr);
        const out = jsonOf<{ deleted: boolean; need_notification: boolean }>(run);
        assert.equal(out.deleted, true);
        assert.equal(out.need_notification, false);
        const del = (await env.requests()).find((r) => r.method === "DELETE")!;
        assert.equal(del.query.need_notification, "false");
        const agenda = jsonOf<EventOut[]>(
          await env.run(["calendar", "+agenda", "--start", "2026-02-02", "--json"]),
        );
        assert.ok(!agenda.some((e) => e.event_id === eventId));
        const gone = await env.run(["calendar", "+get", "--event-id", eventId, "--json"]);
        assert.equal(gone.code, 1);
      },
    );

    await t.step("validation errors name the flag (exit 2) and send nothing", async () => {
      await env.clearRequests();
      const cases: [string[], RegExp][] = [
        [["+get"], /--event-id/],
        [["+get", "--event-id", " "], /--event-id/],
        [["+rsvp", "--event-id", "e_0", "--status", "maybe"], /--status/],
        [["+rsvp", "--event-id", "e_0"], /--status/],
        [["+update", "--event-id", "e_0"], /Nothing to change/],
        [["+update", "--event-id", "e_0", "--add-attendees", " , "], /--add-attendees/],
        [[
          "+update",
          "--event-id",
          "e_0",
          "--add-attendees",
          "ou_1",
          "--remove-attendees",
          "ou_1",
        ], /ou_1/],
        [["+delete", "--event-id", "e_0", "--notify", "--no-notify", "--yes"], /--no-notify/],
        [["+calendars", "--limit", "0"], /--limit/],
      ];
      for (const [args, pattern] of cases) {
        const run = await env.run(["calendar", ...args, "--json"]);
        assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
        assert.equal(errorOf(run).type, "validation");
        assert.match(errorOf(run).message, pattern, args.join(" "));
      }
      assert.deepEqual(await env.requests(), []);
    });

    await t.step("as the bot: create in its calendar, get, update and delete", async () => {
      const bot = { env: { HARK_USER_ACCESS_TOKEN: undefined } };
      const made = await env.run([
        "calendar",
        "+create",
        "--summary",
        "Bot event",
        "--start",
        "2026-02-03 09:00",
        "--end",
        "2026-02-03 09:30",
        "--as",
        "bot",
        "--json",
      ], bot);
      assert.equal(made.code, 0, made.stderr);
      const id = jsonOf<EventOut>(made).event_id;
      const got = await env.run(
        ["calendar", "+get", "--event-id", id, "--as", "bot", "--json"],
        bot,
      );
      assert.equal(jsonOf<EventOut>(got).summary, "Bot event");
      const changed = await env.run(
        [
          "calendar",
          "+update",
          "--event-id",
          id,
          "--summary",
          "Bot event 2",
          "--as",
          "bot",
          "--json",
        ],
        bot,
      );
      assert.equal(changed.code, 0, changed.stderr);
      const removed = await env.run(
        ["calendar", "+delete", "--event-id", id, "--yes", "--as", "bot", "--json"],
        bot,
      );
      assert.equal(removed.code, 0, removed.stderr);
    });

    await t.step("a sign-in without the reply scope is told which scope to ask for", async () => {
      const { accessToken } = await sandboxUserToken(env.sb, {
        scopes: ["calendar:calendar.event:read"],
      });
      const run = await env.run(
        ["calendar", "+rsvp", "--event-id", "x_0", "--status", "accept", "--json"],
        { env: { HARK_USER_ACCESS_TOKEN: accessToken } },
      );
      assert.equal(run.code, 1);
      assert.equal(errorOf(run).type, "permission");
      assert.match(errorOf(run).recovery.command, /calendar:calendar\.event:reply/);
    });
    void me;
  } finally {
    await env.close();
  }
});
