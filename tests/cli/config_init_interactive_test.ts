/**
 * `hark config init` in a real terminal: tmux runs the CLI in a pseudo-terminal, the test types
 * the answers and reads the screen, as a person would.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { HARK_PERMISSIONS } from "../../scripts/permissions.ts";
import { createHarkEnv, MAIN_TS } from "../support/hark_env.ts";
import { requires } from "../support/requires.ts";

/** A tmux session on a private server, killed by {@link Terminal.close}. */
class Terminal {
  readonly #socket: string;
  constructor(socket: string) {
    this.#socket = socket;
  }

  static async start(socket: string, script: string): Promise<Terminal> {
    const terminal = new Terminal(socket);
    await terminal.#tmux(["new-session", "-d", "-s", "hark", "-x", "120", "-y", "40", script]);
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

  screen(): Promise<string> {
    return this.#tmux(["capture-pane", "-p", "-t", "hark"]);
  }

  /** Waits until the screen matches, or fails after `timeoutMs` showing the screen. */
  async waitFor(pattern: RegExp, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = await this.screen();
      if (pattern.test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${pattern}:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async type(...keys: string[]): Promise<void> {
    await this.#tmux(["send-keys", "-t", "hark", ...keys]);
  }

  async close(): Promise<void> {
    await new Deno.Command("tmux", { args: ["-L", this.#socket, "kill-server"] }).output();
  }
}

Deno.test(requires(["tmux"], {
  name: "config init asks for everything in a terminal and masks the secret",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const home = await createHarkEnv();
    try {
      const secret = "typed-secret-value-42";
      const env = Object.entries(home.env).map(([k, v]) => `export ${k}='${v}'`).join("\n");
      const hark = `'${Deno.execPath()}' run --quiet --no-check ${
        HARK_PERMISSIONS.join(" ")
      } '${MAIN_TS}'`;
      const script = join(home.dir, "run.sh");
      await Deno.writeTextFile(
        script,
        `#!/bin/sh\n${env}\nexport TERM=xterm\n${hark} config init\necho "EXIT=$?"\nsleep 60\n`,
        { mode: 0o700 },
      );
      let terminal = await Terminal.start(`hark-test-${Deno.pid}-1`, script);
      try {
        await terminal.waitFor(/Profile name/);
        await terminal.type("C-u", "work", "Enter");
        await terminal.waitFor(/App ID/);
        await terminal.type("cli_typed", "Enter");
        await terminal.waitFor(/App secret/);
        await terminal.type(secret, "Enter");
        await terminal.waitFor(/Service/);
        await terminal.type("Down", "Enter"); // Feishu
        await terminal.waitFor(/Default output format/);
        await terminal.type("Down", "Enter"); // json
        const screen = await terminal.waitFor(/EXIT=\d/);
        assert.match(screen, /EXIT=0/);
        assert.doesNotMatch(screen, new RegExp(secret), "the secret was echoed");
        assert.match(screen, /App secret \*+/);
        const config = await home.readConfig() as {
          keychain_namespace: string;
          apps: Record<string, { app_id: string; app_secret: string; base_url: string }>;
          preferences: { output_format: string };
        };
        assert.deepEqual(config.apps.work, {
          app_id: "cli_typed",
          app_secret: `@keychain:hark/${config.keychain_namespace}/work/app_secret`,
          base_url: "https://open.feishu.cn",
        });
        assert.equal(config.preferences.output_format, "json");
      } finally {
        await terminal.close();
      }

      // Running it again over the same profile asks before replacing; "no" changes nothing.
      terminal = await Terminal.start(`hark-test-${Deno.pid}-2`, script);
      try {
        await terminal.waitFor(/Profile name/);
        await terminal.type("C-u", "work", "Enter");
        await terminal.waitFor(/App ID/);
        await terminal.type("Enter"); // keeps the current app id, offered as the default
        await terminal.waitFor(/App secret/);
        await terminal.type("other-secret-value", "Enter");
        await terminal.waitFor(/Service/);
        await terminal.type("Enter");
        await terminal.waitFor(/Default output format/);
        await terminal.type("Enter");
        await terminal.waitFor(/Replace it\?/);
        await terminal.type("n", "Enter");
        const screen = await terminal.waitFor(/EXIT=\d/);
        assert.match(screen, /Nothing changed/);
        assert.match(screen, /EXIT=0/);
        const config = await home.readConfig() as { apps: Record<string, { base_url: string }> };
        assert.equal(config.apps.work.base_url, "https://open.feishu.cn");
      } finally {
        await terminal.close();
      }
    } finally {
      await home.cleanup();
    }
  },
}));
