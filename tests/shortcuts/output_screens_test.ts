/**
 * What a person sees at an 80 × 24 terminal (tmux, against the sandbox): a listing keeps the id
 * the next command needs, a chat reads as a conversation, one record is a card with every field.
 * Each screen must equal its golden file in `tests/golden/screens/` (regenerate with
 * `UPDATE_GOLDEN=1`, then read the diff).
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { requires } from "../support/requires.ts";
import { createShortcutEnv, jsonOf, type ShortcutEnv } from "./_shortcut_env.ts";
import { screenOf, SCREENS } from "./_screen.ts";

const UPDATE = Deno.env.get("UPDATE_GOLDEN") === "1";
const SIZE = { columns: 80, rows: 24 };

async function matchesGolden(name: string, screen: string): Promise<void> {
  assert.match(screen, /EXIT=0\n$/, screen);
  const file = join(SCREENS, `${name}.txt`);
  if (UPDATE) await Deno.writeTextFile(file, screen);
  assert.equal(screen, await Deno.readTextFile(file), name);
}

function widest(screen: string): number {
  return Math.max(...screen.split("\n").map((l) => [...l].length));
}

async function withEnv(fn: (env: ShortcutEnv) => Promise<void>): Promise<void> {
  const env = await createShortcutEnv({ startDay: "2026-01-05" });
  try {
    await fn(env);
  } finally {
    await env.close();
  }
}

Deno.test(requires(["tmux"], {
  name: "+agenda at 80 columns keeps every EVENT ID whole",
  ignore: Deno.build.os !== "linux",
  fn: () =>
    withEnv(async (env) => {
      const args = ["calendar", "+agenda", "--start", "2026-01-06", "--end", "2026-01-06"];
      const events = jsonOf<{ event_id: string }[]>(await env.run([...args, "--json"]));
      assert.ok(events.length > 1);
      const screen = await screenOf(env, args, SIZE);
      for (const { event_id: id } of events) assert.ok(screen.includes(id), `${id}:\n${screen}`);
      assert.match(screen, /EVENT ID/);
      assert.ok(widest(screen) <= 80, screen);
      await matchesGolden("agenda_list_80", screen);
    }),
}));

Deno.test(requires(["tmux"], {
  name: "+messages at 80 columns reads as a conversation, oldest first, ids and text whole",
  ignore: Deno.build.os !== "linux",
  fn: () =>
    withEnv(async (env) => {
      const args = ["im", "+messages", "--chat-id", env.sb.chats[0].chat_id, "--limit", "4"];
      const rows = jsonOf<{ message_id: string; text: string }[]>(
        await env.run([...args, "--json"]),
      );
      const screen = await screenOf(env, args, SIZE);
      // Newest first as read, oldest first as shown.
      const at = rows.map((r) => screen.indexOf(r.message_id));
      assert.ok(at.every((i) => i >= 0), screen);
      assert.deepEqual([...at].sort((a, b) => b - a), at, "oldest at the top");
      for (const row of rows) {
        const words = row.text.split(/\s+/).filter((w) => w !== "");
        assert.ok(words.every((w) => screen.includes(w)), `${row.text}:\n${screen}`);
      }
      assert.ok(widest(screen) <= 80, screen);
      await matchesGolden("messages_80", screen);
    }),
}));

Deno.test(requires(["tmux"], {
  name: "+get at 80 columns is a card: end, status and attendees shown, nothing cut",
  ignore: Deno.build.os !== "linux",
  fn: () =>
    withEnv(async (env) => {
      const summary = "Quarterly planning with the whole team, the roadmap and the budget for " +
        "next year";
      const created = jsonOf<{ event_id: string }>(
        await env.run([
          "calendar",
          "+create",
          "--summary",
          summary,
          "--start",
          "2026-01-07 14:00",
          "--end",
          "2026-01-07 15:00",
          "--attendees",
          env.sb.users[1].open_id,
          "--json",
        ]),
      );
      const screen = await screenOf(
        env,
        ["calendar", "+get", "--event-id", created.event_id],
        SIZE,
      );
      assert.match(screen, /EXIT=0\n$/, screen);
      for (const label of ["EVENT ID", "SUMMARY", "START", "END", "STATUS", "ATTENDEES"]) {
        assert.match(screen, new RegExp(`^${label}: `, "m"), screen);
      }
      assert.ok(screen.includes(created.event_id), screen);
      assert.ok(screen.includes(env.sb.users[1].name), screen);
      assert.match(screen, /^END: +2026-01-07 15:00$/m);
      // The summary wraps under itself, whole.
      const lines = screen.split("\n");
      const at = lines.findIndex((l) => l.startsWith("SUMMARY:"));
      assert.equal(
        [lines[at].replace(/^SUMMARY: +/, ""), lines[at + 1].trim()].join(" "),
        summary,
      );
      assert.ok(!screen.includes("…"), screen);
      assert.ok(widest(screen) <= 80, screen);
    }),
}));

Deno.test(requires(["tmux"], {
  name: "at a terminal the output goes through HARK_PAGER; piped it never does",
  ignore: Deno.build.os !== "linux",
  fn: () =>
    withEnv(async (env) => {
      const args = ["calendar", "+agenda", "--start", "2026-01-06", "--end", "2026-01-06"];
      const script = join(env.hark.dir, "pager.sh");
      await Deno.writeTextFile(script, "#!/bin/sh\nsed 's/^/PAGED> /'\n", { mode: 0o700 });
      const pager = { HARK_PAGER: script };
      const screen = await screenOf(env, args, SIZE, pager);
      assert.match(screen, /^PAGED> START +SUMMARY +EVENT ID$/m, screen);
      assert.match(screen, /^PAGED> 2026-01-06 09:30 +Daily standup/m, screen);
      const piped = await env.run(args, { env: pager });
      assert.equal(piped.code, 0, piped.stderr);
      assert.ok(!piped.stdout.includes("PAGED>"), piped.stdout);
    }),
}));

Deno.test(requires(["tmux"], {
  name: "an error at 80 columns wraps between words under its indent",
  ignore: Deno.build.os !== "linux",
  fn: () =>
    withEnv(async (env) => {
      const bad = "the first working day after the next full moon in the spring of next year";
      const screen = await screenOf(env, ["calendar", "+agenda", "--start", bad], SIZE);
      assert.match(screen, /EXIT=2\n$/, screen);
      const lines = screen.trimEnd().split("\n").slice(0, -1);
      assert.ok(lines[0].startsWith("error: Invalid value"), screen);
      assert.ok(lines.length > 2, screen);
      for (const line of lines) assert.ok([...line].length <= 80, `${line.length}: ${line}`);
      for (const line of lines.slice(1)) assert.match(line, /^ {2}\S/, screen);
      // Every word of the value is there, none cut.
      const text = lines.map((l) => l.trim()).join(" ");
      assert.ok(text.includes(bad), screen);
    }),
}));
