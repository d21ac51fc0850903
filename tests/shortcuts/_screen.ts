/**
 * A shortcut's screen as a person sees it: tmux runs the CLI in a pseudo-terminal of a given size
 * against the sandbox of a {@link ShortcutEnv}, and the screen is captured once hark has exited.
 *
 * @module
 */

import { join } from "node:path";
import { HARK_RUN_FLAGS } from "../../scripts/permissions.ts";
import { MAIN_TS, REPO_ROOT } from "../support/hark_env.ts";
import type { ShortcutEnv } from "./_shortcut_env.ts";

/** Where the golden screens live (regenerate with `UPDATE_GOLDEN=1`, then read the diff). */
export const SCREENS = join(REPO_ROOT, "tests/golden/screens");

/**
 * Runs hark in a tmux pane and returns the screen once it has finished, ending with `EXIT=<code>`;
 * trailing spaces and blank lines are trimmed.
 *
 * @param env the sandbox and hark home
 * @param args the command line after `hark`
 * @param size the pane's columns and rows
 * @param vars more environment variables of the run
 */
export async function screenOf(
  env: ShortcutEnv,
  args: string[],
  size: { columns: number; rows: number },
  vars: Record<string, string> = {},
): Promise<string> {
  const all = { ...env.hark.env, HARK_USER_ACCESS_TOKEN: env.token, TERM: "xterm", ...vars };
  const exports = Object.entries(all).map(([k, v]) => `export ${k}='${v}'`).join("\n");
  const hark = `'${Deno.execPath()}' run --quiet --no-check ${
    HARK_RUN_FLAGS.join(" ")
  } '${MAIN_TS}'`;
  const id = crypto.randomUUID().slice(0, 8);
  const script = join(env.hark.dir, `screen-${id}.sh`);
  const quoted = args.map((a) => `'${a}'`).join(" ");
  await Deno.writeTextFile(
    script,
    `#!/bin/sh\n${exports}\nclear\n${hark} ${quoted}\necho "EXIT=$?"\nsleep 60\n`,
    { mode: 0o700 },
  );
  const socket = `hark-screen-${Deno.pid}-${id}`;
  const tmux = async (more: string[]) => {
    const out = await new Deno.Command("tmux", { args: ["-L", socket, ...more] }).output();
    if (out.code !== 0) throw new Error(`tmux ${more[0]}: ${new TextDecoder().decode(out.stderr)}`);
    return new TextDecoder().decode(out.stdout);
  };
  const { columns, rows } = size;
  await tmux(["new-session", "-d", "-s", "v", "-x", String(columns), "-y", String(rows), script]);
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
