/**
 * The terminal views of the calendar, as a person sees them: tmux runs the CLI in a
 * pseudo-terminal 80 and 160 columns wide against the sandbox, and the captured screens of
 * `+agenda --view week`, `--view day` and `+freebusy` must equal the golden files in
 * `tests/golden/screens/` (regenerate with `UPDATE_GOLDEN=1`, then read the diff). Piped, the
 * same commands write the plain table.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { HARK_RUN_FLAGS } from "../../scripts/permissions.ts";
import { MAIN_TS, REPO_ROOT } from "../support/hark_env.ts";
import { requires } from "../support/requires.ts";
import { createShortcutEnv, type ShortcutEnv } from "./_shortcut_env.ts";

const GOLDEN = join(REPO_ROOT, "tests/golden/screens");
const UPDATE = Deno.env.get("UPDATE_GOLDEN") === "1";

const VIEWS: { name: string; args: string[] }[] = [
  { name: "agenda_week", args: ["calendar", "+agenda", "--view", "week", "--start", "2026-01-07"] },
  { name: "agenda_day", args: ["calendar", "+agenda", "--view", "day", "--start", "2026-01-06"] },
  {
    name: "freebusy",
    args: ["calendar", "+freebusy", "--start", "2026-01-05", "--end", "2026-01-09"],
  },
];

/** Runs hark in a tmux pane `width` columns wide and returns the screen once it has finished. */
async function screenOf(env: ShortcutEnv, args: string[], width: number): Promise<string> {
  const vars = { ...env.hark.env, HARK_USER_ACCESS_TOKEN: env.token, TERM: "xterm" };
  const exports = Object.entries(vars).map(([k, v]) => `export ${k}='${v}'`).join("\n");
  const hark = `'${Deno.execPath()}' run --quiet --no-check ${
    HARK_RUN_FLAGS.join(" ")
  } '${MAIN_TS}'`;
  const script = join(env.hark.dir, `view-${width}.sh`);
  const quoted = args.map((a) => `'${a}'`).join(" ");
  await Deno.writeTextFile(
    script,
    `#!/bin/sh\n${exports}\nclear\n${hark} ${quoted}\necho "EXIT=$?"\nsleep 60\n`,
    { mode: 0o700 },
  );
  const socket = `hark-views-${Deno.pid}-${width}`;
  const tmux = async (more: string[]) => {
    const out = await new Deno.Command("tmux", { args: ["-L", socket, ...more] }).output();
    if (out.code !== 0) throw new Error(`tmux ${more[0]}: ${new TextDecoder().decode(out.stderr)}`);
    return new TextDecoder().decode(out.stdout);
  };
  await tmux(["new-session", "-d", "-s", "v", "-x", String(width), "-y", "60", script]);
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const screen = await tmux(["capture-pane", "-p", "-t", "v"]);
      if (/EXIT=\d+/.test(screen)) {
        return screen.split("\n").map((l) => l.trimEnd()).join("\n").trimEnd() + "\n";
      }
      if (Date.now() > deadline) throw new Error(`hark did not finish:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await new Deno.Command("tmux", { args: ["-L", socket, "kill-server"] }).output();
  }
}

Deno.test(requires(["tmux"], {
  name: "the week and day grids and the busy bars match their golden screens at 80 and 160",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const env = await createShortcutEnv({ startDay: "2026-01-05" });
    try {
      for (const view of VIEWS) {
        for (const width of [80, 160]) {
          const screen = await screenOf(env, view.args, width);
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
