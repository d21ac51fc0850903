/**
 * Ids `.` and `..` are dropped from a URL by URL parsing: `DELETE …/calendars/X/events/..`
 * would delete the calendar itself, `PATCH …/events/..` patch the calendar, `GET
 * …/users/.` list users. Each such id is refused naming its flag, before anything is sent (and
 * `--dry-run` previews nothing either).
 */

import assert from "node:assert/strict";
import { createShortcutEnv } from "../shortcuts/_shortcut_env.ts";
import type { HarkRun } from "../support/hark_env.ts";

function envelope(run: HarkRun) {
  return JSON.parse(run.stderr.trim().split("\n").at(-1)!).error;
}

Deno.test("ids . and .. are refused naming the flag, with nothing sent", async () => {
  const env = await createShortcutEnv({}, { inProcess: true });
  try {
    const cases: [string[], string][] = [
      [
        ["calendar", "+delete", "--event-id", "..", "--calendar-id", "X", "--yes", "--dry-run"],
        "--event-id",
      ],
      [["calendar", "+delete", "--event-id", "..", "--calendar-id", "X", "--yes"], "--event-id"],
      [
        ["calendar", "+delete", "--event-id", "ev_1_0", "--calendar-id", "..", "--yes"],
        "--calendar-id",
      ],
      [["calendar", "+update", "--event-id", "..", "--summary", "x"], "--event-id"],
      [["calendar", "+update", "--event-id", ".", "--summary", "x", "--dry-run"], "--event-id"],
      [["calendar", "+rsvp", "--event-id", "..", "--status", "accept"], "--event-id"],
      [["calendar", "+get", "--event-id", "."], "--event-id"],
      [["calendar", "+agenda", "--calendar-id", ".."], "--calendar-id"],
      [["calendar", "+agenda", "--calendar-id", "%2e%2E"], "--calendar-id"],
      [["contact", "+get-user", "--user-id", "."], "--user-id"],
      [["contact", "+get-user", "--user-id", "..", "--dry-run"], "--user-id"],
      [[
        "im",
        "+download",
        "--message-id",
        "om_1",
        "--key",
        "..",
        "--type",
        "file",
        "--output",
        "x",
      ], "--key"],
    ];
    for (const [args, flag] of cases) {
      await env.clearRequests();
      const run = await env.runProcess([...args, "--json"]);
      assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.equal(run.stdout, "", args.join(" "));
      assert.ok(envelope(run).message.includes(flag), `${args.join(" ")}: ${run.stderr}`);
      assert.deepEqual(await env.requests(), [], args.join(" "));
    }
  } finally {
    await env.close();
  }
});
