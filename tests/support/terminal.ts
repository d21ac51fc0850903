/**
 * A real terminal for tests: tmux runs a script in a pseudo-terminal of a given size, on a
 * private server; the test types keys and reads the screen (with or without its colours), as a
 * person would see it.
 *
 * @module
 */

import { join } from "node:path";
import { HARK_RUN_FLAGS } from "../../scripts/permissions.ts";
import { MAIN_TS } from "./hark_env.ts";

/** A tmux session on a private server, killed by {@link Terminal.close}. */
export class Terminal {
  readonly #socket: string;

  private constructor(socket: string) {
    this.#socket = socket;
  }

  /**
   * Starts `script` in a new terminal.
   *
   * @param script the path of an executable script
   * @param size columns and rows; default 120 × 40
   */
  static async start(
    script: string,
    size: { columns?: number; rows?: number } = {},
  ): Promise<Terminal> {
    // Test modules run in parallel inside one process, each with its own counter: the random
    // part keeps their tmux servers apart.
    const terminal = new Terminal(`hark-test-${crypto.randomUUID().slice(0, 13)}`);
    await terminal.#tmux([
      "new-session",
      "-d",
      "-s",
      "hark",
      "-x",
      String(size.columns ?? 120),
      "-y",
      String(size.rows ?? 40),
      script,
    ]);
    return terminal;
  }

  async #tmux(args: string[]): Promise<string> {
    const output = await new Deno.Command("tmux", { args: ["-L", this.#socket, ...args] })
      .output();
    if (output.code !== 0) {
      throw new Error(`tmux ${args[0]} failed: ${new TextDecoder().decode(output.stderr)}`);
    }
    return new TextDecoder().decode(output.stdout);
  }

  /**
   * The screen's text.
   *
   * @param options `escapes` keeps the colour and style codes (`tmux capture-pane -e`)
   */
  screen(options: { escapes?: boolean } = {}): Promise<string> {
    return this.#tmux(["capture-pane", "-p", ...(options.escapes ? ["-e"] : []), "-t", "hark"]);
  }

  /** Waits until the screen matches, or fails after `timeoutMs` showing the screen. */
  async waitFor(
    pattern: RegExp,
    timeoutMs = 20_000,
    options: { escapes?: boolean } = {},
  ): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = await this.screen(options);
      if (pattern.test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${pattern}:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Types keys (tmux key names such as `Enter`, `Down`, `C-u`, or text). */
  async type(...keys: string[]): Promise<void> {
    await this.#tmux(["send-keys", "-t", "hark", ...keys]);
  }

  /** Kills the terminal and its server. */
  async close(): Promise<void> {
    await new Deno.Command("tmux", { args: ["-L", this.#socket, "kill-server"] }).output();
  }
}

/** The command line that runs hark from source with the binary's permissions. */
export function harkCommandLine(): string {
  return `'${Deno.execPath()}' run --quiet --no-check ${HARK_RUN_FLAGS.join(" ")} '${MAIN_TS}'`;
}

/**
 * What a script clears first: the tmux server inherits the test runner's environment, and a CI
 * runner's `CI` (no spinner, no prompts) or `NO_COLOR` would make the terminal a machine's.
 * A test that wants one sets it in `env`.
 */
const PERSON_AT_TERMINAL = "unset CI NO_COLOR FORCE_COLOR";

/**
 * Writes a shell script that clears the runner's CI and colour variables, exports `env`, runs
 * each line (with `hark` standing for {@link harkCommandLine}), echoes `EXIT=<code>` after each,
 * then sleeps so the screen stays.
 *
 * @param dir the folder to write it in
 * @param env the environment
 * @param lines the command lines
 * @returns the script's path
 */
export async function terminalScript(
  dir: string,
  env: Record<string, string>,
  lines: string[],
): Promise<string> {
  const path = join(dir, `run-${crypto.randomUUID().slice(0, 8)}.sh`);
  const exports = Object.entries(env).map(([k, v]) => `export ${k}='${v}'`).join("\n");
  const body = lines.map((line) => `${line}\necho "EXIT=$?"`).join("\n");
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\n${PERSON_AT_TERMINAL}\n${exports}\nhark() { ${harkCommandLine()} "$@"; }\n${body}\nsleep 60\n`,
    { mode: 0o700 },
  );
  return path;
}
