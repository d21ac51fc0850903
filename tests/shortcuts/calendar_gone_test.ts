/**
 * Calendar refusals that no sign-in fixes, end to end against the sandbox (in process, the first
 * run a real hark process): an event deleted (Lark's 403 193003), met by a delete retried after
 * its answer was lost and by +get, +update and +rsvp; and a calendar the caller has no access
 * role on (403 191002).
 */

import assert from "node:assert/strict";
import { createShortcutEnv, jsonOf, type ShortcutEnv } from "./_shortcut_env.ts";

interface EventOut {
  event_id: string;
}

function errorOf(run: { stderr: string }): {
  code: number;
  type: string;
  message: string;
  recovery: { suggestion: string; command: string };
} {
  return JSON.parse(run.stderr).error;
}

async function create(env: ShortcutEnv, summary: string): Promise<EventOut> {
  const run = await env.run([
    "calendar",
    "+create",
    "--summary",
    summary,
    "--start",
    "2026-01-07 10:00",
    "--end",
    "2026-01-07 11:00",
    "--json",
  ]);
  assert.equal(run.code, 0, run.stderr);
  return jsonOf<EventOut>(run);
}

Deno.test("calendar refusals that no sign-in fixes, against the sandbox", async (t) => {
  const env = await createShortcutEnv({ startDay: "2026-01-05" }, { inProcess: true });
  try {
    await t.step("a delete whose answer was lost, retried, meets 193003: deleted", async () => {
      const event = await create(env, "Lost answer");
      // The first DELETE is carried out and its answer lost; hark retries it (DELETE is
      // idempotent) and meets Lark's 403 193003 "event is deleted".
      await env.post("/sandbox/faults", {
        route: "DELETE /open-apis/calendar/v4/calendars",
        kind: "drop",
        stage: "after",
        times: 1,
      });
      await env.clearRequests();
      const run = await env.runProcess([
        "calendar",
        "+delete",
        "--event-id",
        event.event_id,
        "--yes",
        "--json",
      ]);
      assert.equal(run.code, 0, run.stderr);
      const out = jsonOf<{ deleted: boolean; already_deleted: boolean }>(run);
      assert.equal(out.deleted, true);
      assert.equal(out.already_deleted, true);
      const deletes = (await env.requests()).filter((r) => r.method === "DELETE");
      assert.equal(deletes.length, 2, "the delete was retried once");
    });

    await t.step(
      "+get, +update and +rsvp of a deleted event: not found, never a sign-in",
      async () => {
        const event = await create(env, "Gone");
        const deleted = await env.run([
          "calendar",
          "+delete",
          "--event-id",
          event.event_id,
          "--yes",
        ]);
        assert.equal(deleted.code, 0, deleted.stderr);
        const runs = [
          ["calendar", "+get", "--event-id", event.event_id, "--json"],
          ["calendar", "+update", "--event-id", event.event_id, "--summary", "x", "--json"],
          ["calendar", "+rsvp", "--event-id", event.event_id, "--status", "accept", "--json"],
        ];
        for (const args of runs) {
          const run = await env.run(args);
          assert.equal(run.code, 1, `${args[1]}: ${run.stderr}`);
          const error = errorOf(run);
          assert.equal(error.type, "not_found", args[1]);
          assert.match(error.message, /^The event was deleted \(code 193003\)/, args[1]);
          assert.doesNotMatch(run.stderr, /auth login|--scope/, args[1]);
          assert.equal(error.recovery.command, "hark calendar +agenda", args[1]);
        }
      },
    );

    await t.step(
      "+create with the key of an event deleted since creates nothing, says so",
      async () => {
        const args = [
          "calendar",
          "+create",
          "--summary",
          "Once",
          "--start",
          "2026-01-08 10:00",
          "--end",
          "2026-01-08 11:00",
          "--idempotency-key",
          "once-only-key",
          "--json",
        ];
        const first = await env.run(args);
        assert.equal(first.code, 0, first.stderr);
        const { event_id } = jsonOf<EventOut>(first);
        const deleted = await env.run(["calendar", "+delete", "--event-id", event_id, "--yes"]);
        assert.equal(deleted.code, 0, deleted.stderr);
        const again = await env.run(args);
        assert.equal(again.code, 1, again.stderr);
        const error = errorOf(again);
        assert.equal(error.type, "not_found");
        assert.match(error.message, /^The event was deleted \(code 193003\)/);
        assert.match(error.recovery.suggestion, /without --idempotency-key \(or with a new one\)/);
        assert.doesNotMatch(again.stderr, /auth login/);
      },
    );

    await t.step("a calendar without an access role (191002): its owner shares it", async () => {
      const [, ann] = env.sb.users;
      const calendar = `feishu.cn_${ann.open_id.slice(3, 25)}@group.calendar.feishu.cn`;
      const run = await env.run(["calendar", "+agenda", "--calendar-id", calendar, "--json"]);
      assert.equal(run.code, 1, run.stderr);
      const error = errorOf(run);
      assert.equal(error.type, "permission");
      assert.match(error.message, /^No access to that calendar \(code 191002\)/);
      assert.match(error.recovery.suggestion, /owner has to share it with you/);
      assert.equal(error.recovery.command, "hark calendar +calendars");
      assert.doesNotMatch(run.stderr, /auth login|--scope/);
    });
  } finally {
    await env.close();
  }
});
