/**
 * `deno task install`: a `hark` launcher that runs the source as the binary does, from any
 * folder, quietly (no task banner), and with Ctrl-C reaching hark (cancelled, exit 1).
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { startSandbox } from "../sandbox/mod.ts";
import { VERSION } from "../src/version.ts";
import { createHarkEnv, denoDirEnv, REPO_ROOT } from "./support/hark_env.ts";
import { requires } from "./support/requires.ts";
import { sandboxUserToken } from "./support/sandbox_token.ts";
import { Terminal, terminalScript } from "./support/terminal.ts";
import { APP_SECRET_VAR, sandboxConfig } from "./support/world.ts";

const decoder = new TextDecoder();

async function install(root: string): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "install", "--root", root],
    cwd: REPO_ROOT,
    env: { PATH: Deno.env.get("PATH") ?? "", HOME: root, ...denoDirEnv() },
    clearEnv: true,
  }).output();
  assert.equal(output.code, 0, decoder.decode(output.stderr));
  const launcher = join(root, "bin", "hark");
  assert.match(decoder.decode(output.stdout), new RegExp(`Installed ${launcher}`));
  return launcher;
}

Deno.test({
  name: "deno task install puts a hark on PATH that runs from any folder, quietly",
  ignore: Deno.build.os === "windows",
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "hark-install-" });
    const elsewhere = await Deno.makeTempDir({ prefix: "hark-install-cwd-" });
    const sb = await startSandbox({ quiet: true });
    try {
      const launcher = await install(root);
      const { accessToken } = await sandboxUserToken(sb);
      const run = async (args: string[]) => {
        const output = await new Deno.Command("hark", {
          args,
          cwd: elsewhere,
          env: {
            PATH: `${join(root, "bin")}:/usr/bin:/bin`,
            HOME: elsewhere,
            HARK_CONFIG: join(elsewhere, "config.json"),
            HARK_USER_ACCESS_TOKEN: accessToken,
            HARK_BASE_URL: sb.baseUrl,
            NO_COLOR: "1",
            ...denoDirEnv(),
          },
          clearEnv: true,
          stdin: "null",
        }).output();
        return {
          ...output,
          stdout: decoder.decode(output.stdout),
          stderr: decoder.decode(output.stderr),
        };
      };
      assert.ok((await Deno.stat(launcher)).mode! & 0o100, "the launcher is executable");
      const version = await run(["--version"]);
      assert.equal(version.stdout, `${VERSION}\n`);
      assert.equal(version.stderr, "", "no task banner, no download lines");
      const agenda = await run(["calendar", "+agenda", "--json"]);
      assert.equal(agenda.code, 0, agenda.stderr);
      assert.ok(Array.isArray(JSON.parse(agenda.stdout)));
    } finally {
      await sb.close();
      await Deno.remove(root, { recursive: true });
      await Deno.remove(elsewhere, { recursive: true });
    }
  },
});

Deno.test(requires(["tmux"], {
  name: "the installed hark is cancelled by Ctrl-C as the binary is: cancelled, exit 1",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const sb = await startSandbox({ quiet: true });
    const home = await createHarkEnv({
      [APP_SECRET_VAR]: sb.appSecret,
      HARK_TRUSTED_ORIGINS: sb.baseUrl,
    });
    try {
      const launcher = await install(join(home.dir, "prefix"));
      await home.writeConfig(sandboxConfig(sb));
      // The script's `hark` function is the test runner's; the second line runs the launcher.
      // The script's shell survives Ctrl-C (its trap), to print the exit code; hark, started
      // with the default handler, gets the signal as it would at a prompt.
      const script = await terminalScript(home.dir, { ...home.env, TERM: "xterm" }, [
        "trap : INT",
        `'${launcher}' auth login`,
      ]);
      const terminal = await Terminal.start(script, { columns: 80, rows: 24 });
      try {
        await terminal.waitFor(/enter the code/);
        await terminal.type("C-c");
        const screen = await terminal.waitFor(/EXIT=0\n(.*\n)*EXIT=\d/);
        assert.match(screen, /cancelled|Cancelled/);
        assert.match(screen, /EXIT=1/);
      } finally {
        await terminal.close();
      }
    } finally {
      await home.cleanup();
      await sb.close();
    }
  },
}));
