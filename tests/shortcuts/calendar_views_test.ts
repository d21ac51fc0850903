/**
 * The terminal views of the calendar, as a person sees them: tmux runs the CLI in a
 * pseudo-terminal 80 and 160 columns wide against the sandbox, and the captured screens of
 * `+agenda --view week`, `--view day` and `+freebusy` must equal the golden files in
 * `tests/golden/screens/` (regenerate with `UPDATE_GOLDEN=1`, then read the diff). Piped, the
 * same commands write the plain table.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { requires } from "../support/requires.ts";
import { createShortcutEnv } from "./_shortcut_env.ts";
import { screenOf, SCREENS as GOLDEN } from "./_screen.ts";

const UPDATE = Deno.env.get("UPDATE_GOLDEN") === "1";

const VIEWS: { name: string; args: string[] }[] = [
  { name: "agenda_week", args: ["calendar", "+agenda", "--view", "week", "--start", "2026-01-07"] },
  { name: "agenda_day", args: ["calendar", "+agenda", "--view", "day", "--start", "2026-01-06"] },
  {
    name: "freebusy",
    args: ["calendar", "+freebusy", "--start", "2026-01-05", "--end", "2026-01-09"],
  },
];

Deno.test(requires(["tmux"], {
  name: "the week and day grids and the busy bars match their golden screens at 80 and 160",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const env = await createShortcutEnv({ startDay: "2026-01-05" });
    try {
      for (const view of VIEWS) {
        for (const width of [80, 160]) {
          const screen = await screenOf(env, view.args, { columns: width, rows: 60 });
          assert.match(screen, /EXIT=0\n$/, screen);
          const file = join(GOLDEN, `${view.name}_${width}.txt`);
          if (UPDATE) await Deno.writeTextFile(file, screen);
          assert.equal(screen, await Deno.readTextFile(file), `${view.name} at ${width}`);
          const widest = Math.max(...screen.split("\n").map((l) => [...l].length));
          assert.ok(widest <= width, `${view.name} is ${widest} wide at ${width}`);
        }
      }
    } finally {
      await env.close();
    }
  },
}));

Deno.test("piped, the grid and the bars fall back to the plain table", async () => {
  const env = await createShortcutEnv({ startDay: "2026-01-05" });
  try {
    for (const view of VIEWS) {
      const run = await env.run([...view.args, "--format", "table"]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout.split("\n")[0], /^START\s+END/);
    }
  } finally {
    await env.close();
  }
});
