/**
 * The calendar shortcuts end to end against the sandbox: in process (the same command code,
 * output and network, on a clock that never waits), the year's split into pieces as a real hark
 * process (the wiring, and a real process's connections in flight).
 */

import assert from "node:assert/strict";
import { sandboxUserToken } from "../support/sandbox_token.ts";
import { createShortcutEnv, jsonOf, type ShortcutEnv } from "./_shortcut_env.ts";

/** An event as hark's JSON shows it: RFC 3339 times, or dates with `all_day`. */
interface Item {
  event_id: string;
  summary: string;
  status: string;
  start_time: string;
  end_time: string;
  all_day: boolean;
}

/** An instance as Lark's instance_view returns it. */
interface RawItem {
  event_id: string;
  status: string;
  start_time: { timestamp?: string; date?: string };
}

const DAY = 86_400;
const YEAR_START = Date.UTC(2026, 0, 1) / 1000;

function key(i: Item): string {
  return `${i.event_id}@${i.all_day ? i.start_time : Date.parse(i.start_time) / 1000}`;
}

function rawKey(i: RawItem): string {
  return `${i.event_id}@${i.start_time.timestamp ?? i.start_time.date}`;
}

function seconds(t: string): number {
  return Date.parse(t) / 1000;
}

/** The year's events by our own direct calls: 10 windows of 36.5 days, merged by hand. */
async function directYear(env: ShortcutEnv): Promise<string[]> {
  const end = YEAR_START + 365 * DAY - 1;
  const step = Math.ceil((end - YEAR_START) / 10);
  const seen = new Map<string, RawItem>();
  for (let from = YEAR_START; from < end; from += step) {
    const to = Math.min(from + step, end);
    const response = await fetch(
      `${env.sb.baseUrl}/open-apis/calendar/v4/calendars/primary/events/instance_view` +
        `?start_time=${from}&end_time=${to}`,
      { headers: { Authorization: `Bearer ${env.token}` } },
    );
    const body = await response.json();
    assert.equal(body.code, 0, JSON.stringify(body));
    for (const item of body.data.items as RawItem[]) {
      if (item.status !== "cancelled") seen.set(rawKey(item), item);
    }
  }
  return [...seen.keys()];
}

Deno.test("calendar shortcuts against the sandbox", async (t) => {
  const env = await createShortcutEnv({ startDay: "2026-01-05" }, { inProcess: true });
  try {
    await t.step("+agenda splits a year into 40-day pieces, 10 at most in flight", async () => {
      await env.post("/sandbox/faults", {
        route: "GET /open-apis/calendar/v4/calendars",
        kind: "latency",
        ms: 150,
      });
      await env.clearRequests();
      const run = await env.runProcess([
        "calendar",
        "+agenda",
        "--start",
        "2026-01-01",
        "--end",
        "2026-12-31",
        "--json",
      ]);
      await fetch(`${env.sb.baseUrl}/sandbox/faults`, { method: "DELETE" }).then((r) =>
        r.body?.cancel()
      );
      const items = jsonOf<Item[]>(run);
      const logged = await env.requests();
      assert.equal(logged.length, 16);
      for (const r of logged) {
        assert.match(r.path, /\/calendars\/primary\/events\/instance_view$/);
        const span = Number(r.query.end_time) - Number(r.query.start_time);
        assert.ok(span <= 40 * DAY, `span ${span}`);
        assert.equal(r.headers["user-agent"]?.startsWith("hark/"), true);
      }
      const stats = await env.get<{ max_in_flight: number }>("/sandbox/stats");
      assert.ok(stats.max_in_flight <= 10, `max_in_flight ${stats.max_in_flight}`);
      assert.ok(stats.max_in_flight > 1, "the pieces run in parallel");
      assert.ok(items.length > 20, `only ${items.length} events`);
      assert.ok(items.every((i) => i.status !== "cancelled"));
      assert.equal(new Set(items.map(key)).size, items.length, "no duplicates");
      for (let i = 1; i < items.length; i++) {
        assert.ok(seconds(items[i - 1].start_time) <= seconds(items[i].start_time), "sorted");
      }
      assert.deepEqual(items.map(key).sort(), (await directYear(env)).sort());
    });

    await t.step(
      "+agenda reads the year in pages with --limit and --page-token: every event once",
      async () => {
        const year = ["calendar", "+agenda", "--start", "2026-01-01", "--end", "2026-12-31"];
        const whole = jsonOf<Item[]>(await env.run([...year, "--json"])).map(key);
        const paged: string[] = [];
        let pages = 0;
        let token: string | undefined;
        do {
          const limit = String(Math.ceil(whole.length / 3));
          const more = token === undefined ? [] : ["--page-token", token];
          const run = await env.run([...year, "--limit", limit, ...more, "--json"]);
          paged.push(...jsonOf<Item[]>(run).map(key));
          pages++;
          token = /continue with --page-token (\S+)/.exec(run.stderr)?.[1];
        } while (token !== undefined && paged.length <= whole.length);
        assert.deepEqual(paged, whole);
        const other = await env.run([
          ...year.slice(0, -1),
          "2026-06-30",
          "--limit",
          "5",
          "--page-token",
          /--page-token (\S+)/.exec((await env.run([...year, "--limit", "5"])).stderr)![1],
          "--json",
        ]);
        assert.equal(other.code, 2, other.stderr);
        assert.match(JSON.parse(other.stderr).error.message, /--page-token/);
      },
    );

    await t.step("+agenda writes a table and CSV with the declared columns", async () => {
      const args = ["calendar", "+agenda", "--start", "2026-01-05", "--end", "2026-01-20"];
      const table = await env.run([...args, "--format", "table"]);
      assert.equal(table.code, 0, table.stderr);
      assert.match(table.stdout.split("\n")[0], /^START\s+END\s+SUMMARY\s+STATUS\s+EVENT ID/);
      assert.match(table.stdout, /2026-01-\d\d( \d\d:\d\d)?/);
      const csv = await env.run([...args, "--format", "csv"]);
      assert.equal(csv.code, 0, csv.stderr);
      const lines = csv.stdout.trim().split(/\r?\n/);
      assert.equal(lines[0], "START,END,SUMMARY,STATUS,EVENT ID");
      const json = jsonOf<Item[]>(await env.run([...args, "--json"]));
      assert.equal(lines.length - 1, json.length);
    });

    await t.step("+agenda piped with no format writes one JSON record per line", async () => {
      const args = ["calendar", "+agenda", "--start", "2026-01-05", "--end", "2026-01-20"];
      const piped = await env.run(args);
      assert.equal(piped.code, 0, piped.stderr);
      const lines = piped.stdout.trimEnd().split("\n");
      const json = jsonOf<Item[]>(await env.run([...args, "--json"]));
      assert.ok(json.length > 1);
      // `| wc -l` counts the events, `| grep -c standup` the stand-ups.
      assert.deepEqual(lines.map((line) => JSON.parse(line)), json);
      const standups = json.filter((i) => /standup/i.test(JSON.stringify(i))).length;
      assert.ok(standups > 1);
      assert.equal(lines.filter((line) => /standup/i.test(line)).length, standups);
      // One record is one line too.
      const single = json.find((i) => i.event_id.endsWith("_0")) ?? json[0];
      const one = await env.run(["calendar", "+get", "--event-id", single.event_id]);
      assert.equal(one.code, 0, one.stderr);
      assert.equal(one.stdout.trimEnd().split("\n").length, 1);
      assert.equal(JSON.parse(one.stdout).event_id, single.event_id);
    });

    await t.step("+agenda takes --calendar-id, a default span of today, and --as bot", async () => {
      const unknown = await env.run(["calendar", "+agenda", "--calendar-id", "nope", "--json"]);
      assert.equal(unknown.code, 1);
      assert.match(JSON.parse(unknown.stderr).error.message, /calendar not found/);
      await env.clearRequests();
      const today = await env.run(["calendar", "+agenda", "--json"]);
      assert.equal(today.code, 0, today.stderr);
      const [request] = await env.requests();
      const span = Number(request.query.end_time) - Number(request.query.start_time);
      assert.equal(span, DAY, "the whole of today: the end is exclusive");
      const bot = await env.run(["calendar", "+agenda", "--as", "bot", "--json"], {
        env: { HARK_USER_ACCESS_TOKEN: undefined },
      });
      assert.equal(bot.code, 0, bot.stderr);
      assert.ok(Array.isArray(JSON.parse(bot.stdout)));
    });

    await t.step("+agenda rejects a bad time and an end before the start (exit 2)", async () => {
      const bad = await env.run(["calendar", "+agenda", "--start", "soon", "--json"]);
      assert.equal(bad.code, 2);
      assert.match(JSON.parse(bad.stderr).error.message, /Invalid value "soon" for --start/);
      const reversed = await env.run([
        "calendar",
        "+agenda",
        "--start",
        "2026-02-01",
        "--end",
        "2026-01-01",
      ]);
      assert.equal(reversed.code, 2);
    });

    await t.step("+create makes the event and adds the attendees", async () => {
      await env.clearRequests();
      const attendee = env.sb.users[1].open_id;
      const run = await env.run([
        "calendar",
        "+create",
        "--summary",
        "Design review",
        "--description",
        "Bring notes",
        "--start",
        "2026-03-02 14:00",
        "--end",
        "2026-03-02 15:00",
        "--attendees",
        attendee,
        "--calendar-id",
        "primary",
        "--json",
      ]);
      const event = jsonOf<
        Item & { description: string; attendees: { user_id: string }[]; attendee_ability: string }
      >(run);
      assert.equal(event.summary, "Design review");
      assert.equal(event.description, "Bring notes");
      assert.equal(event.start_time, "2026-03-02T14:00:00+00:00");
      assert.equal(event.end_time, "2026-03-02T15:00:00+00:00");
      assert.equal(event.all_day, false);
      assert.equal(event.attendee_ability, "can_see_others");
      assert.deepEqual(event.attendees.map((a) => a.user_id), [attendee]);
      const logged = await env.requests();
      assert.deepEqual(logged.map((r) => r.method), ["POST", "POST"]);
      assert.ok(logged[0].query.idempotency_key);
      assert.equal(logged[1].query.user_id_type, "open_id");
      const agenda = jsonOf<Item[]>(
        await env.run([
          "calendar",
          "+agenda",
          "--start",
          "2026-03-02",
          "--end",
          "2026-03-02",
          "--json",
        ]),
      );
      assert.ok(agenda.some((i) => i.event_id === event.event_id));
    });

    await t.step("+create deletes the event again when adding attendees fails", async () => {
      await env.clearRequests();
      const run = await env.run([
        "calendar",
        "+create",
        "--summary",
        "Doomed",
        "--start",
        "2026-03-03T10:00:00Z",
        "--end",
        "2026-03-03T11:00:00Z",
        "--attendees",
        "ou_nobody",
        "--json",
      ]);
      assert.equal(run.code, 1);
      assert.match(JSON.parse(run.stderr).error.message, /was deleted again \(rolled back\)/);
      const logged = await env.requests();
      assert.deepEqual(logged.map((r) => r.method), ["POST", "POST", "DELETE"]);
      assert.equal(logged[2].query.need_notification, "false");
      const agenda = jsonOf<Item[]>(
        await env.run([
          "calendar",
          "+agenda",
          "--start",
          "2026-03-03",
          "--end",
          "2026-03-03",
          "--json",
        ]),
      );
      assert.ok(!agenda.some((i) => i.summary === "Doomed"));
    });

    await t.step("+create invites by email; an unknown one stops it first", async () => {
      await env.clearRequests();
      const person = env.sb.users[2];
      const run = await env.run([
        "calendar",
        "+create",
        "--summary",
        "By email",
        "--start",
        "2026-03-04 10:00",
        "--duration",
        "45m",
        "--location",
        "Room 4",
        "--attendees",
        person.email,
        "--json",
      ]);
      assert.equal(run.code, 0, run.stderr);
      const event = jsonOf<Item & { attendees: { user_id: string }[] }>(run);
      assert.deepEqual(event.attendees.map((a) => a.user_id), [person.open_id]);
      assert.equal(event.end_time, "2026-03-04T10:45:00+00:00");
      await env.clearRequests();
      const unknown = await env.run([
        "calendar",
        "+create",
        "--summary",
        "Nobody",
        "--start",
        "2026-03-04 11:00",
        "--duration",
        "30m",
        "--attendees",
        "nobody@example.com",
        "--json",
      ]);
      assert.equal(unknown.code, 2);
      assert.match(JSON.parse(unknown.stderr).error.message, /No Lark user has the email/);
      assert.deepEqual(
        (await env.requests()).map((r) => r.path).filter((path) => !path.includes("/auth/")),
        ["/open-apis/contact/v3/users/batch_get_id"],
        "nothing created, nothing rolled back",
      );
    });

    await t.step("+create takes a calendar's title for --calendar-id", async () => {
      const list = jsonOf<{ calendar_id: string; summary: string; type: string }[]>(
        await env.run(["calendar", "+calendars", "--json"]),
      );
      const shared = list.find((c) => c.type !== "primary")!;
      const run = await env.run([
        "calendar",
        "+create",
        "--summary",
        "In the shared one",
        "--start",
        "2026-03-05 10:00",
        "--duration",
        "30m",
        "--calendar-id",
        shared.summary.toUpperCase(),
        "--json",
      ]);
      assert.equal(run.code, 0, run.stderr);
      const agenda = await env.run([
        "calendar",
        "+agenda",
        "--calendar-id",
        shared.calendar_id,
        "--start",
        "2026-03-05",
        "--json",
      ]);
      assert.ok(jsonOf<Item[]>(agenda).some((i) => i.summary === "In the shared one"));
      const unknown = await env.run([
        "calendar",
        "+create",
        "--summary",
        "x",
        "--start",
        "2026-03-05 11:00",
        "--duration",
        "30m",
        "--calendar-id",
        "No such calendar",
        "--json",
      ]);
      assert.equal(unknown.code, 2);
      assert.match(JSON.parse(unknown.stderr).error.message, /No calendar is named/);
    });

    await t.step("+create requires --summary, --start and --end, end after start", async () => {
      const missing = await env.run(["calendar", "+create", "--json"]);
      assert.equal(missing.code, 2);
      assert.equal(
        JSON.parse(missing.stderr).error.message,
        "Missing required flags --summary, --start and --end (or --duration)",
      );
      const reversed = await env.run([
        "calendar",
        "+create",
        "--summary",
        "x",
        "--start",
        "2026-03-03 10:00",
        "--end",
        "2026-03-03 09:00",
      ]);
      assert.equal(reversed.code, 2);
    });

    await t.step("+freebusy merges busy times across pieces, for me or --user-id", async () => {
      await env.clearRequests();
      const mine = jsonOf<{ start_time: string; end_time: string }[]>(
        await env.run([
          "calendar",
          "+freebusy",
          "--start",
          "2026-01-01",
          "--end",
          "2026-03-31",
          "--json",
        ]),
      );
      const logged = await env.requests();
      assert.equal(logged[0].path, "/open-apis/authen/v1/user_info");
      const pieces = logged.filter((r) => r.path.endsWith("/freebusy/list"));
      assert.equal(pieces.length, 4);
      for (const p of pieces) {
        assert.equal((p.body as { user_id: string }).user_id, env.sb.users[0].open_id);
      }
      assert.ok(mine.length > 0);
      for (let i = 1; i < mine.length; i++) {
        assert.ok(Date.parse(mine[i].start_time) > Date.parse(mine[i - 1].end_time));
      }
      const other = await env.run([
        "calendar",
        "+freebusy",
        "--user-id",
        env.sb.users[2].open_id,
        "--start",
        "2026-01-05",
        "--end",
        "2026-01-09",
        "--format",
        "csv",
      ]);
      assert.equal(other.code, 0, other.stderr);
      assert.equal(other.stdout.split(/\r?\n/)[0], "START,END,RSVP");
      const bot = await env.run(["calendar", "+freebusy", "--as", "bot", "--json"]);
      assert.equal(bot.code, 2);
      assert.equal(JSON.parse(bot.stderr).error.type, "validation");
      assert.match(JSON.parse(bot.stderr).error.message, /--user-id/);
    });

    await t.step("--dry-run prints the requests and sends nothing, signed out", async () => {
      await env.clearRequests();
      const run = await env.run(
        [
          "calendar",
          "+create",
          "--summary",
          "Dry",
          "--start",
          "2026-03-04 10:00",
          "--end",
          "2026-03-04 11:00",
          "--attendees",
          "ou_1",
          "--dry-run",
        ],
        { env: { HARK_USER_ACCESS_TOKEN: undefined } },
      );
      const previews = jsonOf<{ method: string; url: string; headers: Record<string, string> }[]>(
        run,
      );
      assert.equal(previews.length, 2);
      assert.match(previews[1].url, /\/events\/%7Bevent_id%7D\/attendees|\/events\/\{event_id\}\//);
      assert.equal(previews[0].headers.Authorization, "Bearer ****");
      const agenda = jsonOf<unknown[]>(
        await env.run(
          ["calendar", "+agenda", "--start", "2026-01-01", "--end", "2026-04-30", "--dry-run"],
          { env: { HARK_USER_ACCESS_TOKEN: undefined } },
        ),
      );
      assert.equal(agenda.length, 4);
      assert.deepEqual(await env.requests(), []);
    });

    await t.step("a missing scope gives the upgrade command in the envelope", async () => {
      const { accessToken } = await sandboxUserToken(env.sb, {
        scopes: ["im:message.send_as_user"],
      });
      const run = await env.run(["calendar", "+agenda", "--json"], {
        env: { HARK_USER_ACCESS_TOKEN: accessToken },
      });
      assert.equal(run.code, 1);
      const { error } = JSON.parse(run.stderr);
      assert.equal(error.type, "permission");
      // Lark's permission_violations are alternatives: one is asked for, the one the shortcut
      // declares.
      assert.equal(error.recovery.command, "hark auth login --scope calendar:calendar.event:read");
    });
  } finally {
    await env.close();
  }
});
