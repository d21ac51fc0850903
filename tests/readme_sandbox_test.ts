/**
 * The README's "Try it without a Lark account" runs as printed, on a machine without a Secret
 * Service (the worst case: the file keychain and its password), in a terminal at 80x24: the
 * sandbox as its first line says (on a free port instead of 8080), then each `hark` line typed
 * into a terminal, answering every question. At most four commands and six answers reach an
 * agenda.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { createHarkEnv, denoDirEnv, REPO_ROOT } from "./support/hark_env.ts";
import { requires } from "./support/requires.ts";
import { Terminal, terminalScript } from "./support/terminal.ts";

const SECTION = "Try it without a Lark account";

/** The commands of the section's `sh` block, without their comments. */
async function sectionCommands(): Promise<string[]> {
  const readme = await Deno.readTextFile(join(REPO_ROOT, "README.md"));
  const section = readme.split(/^## /m).find((s) => s.startsWith(SECTION));
  assert.ok(section, `README has no "${SECTION}" section`);
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return block.split("\n").map((l) => l.replace(/\s+#\s.*$/, "").trim()).filter((l) => l);
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

Deno.test(requires(["tmux"], {
  name: "the README's sandbox section reaches an agenda in 4 commands and 6 answers",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const commands = await sectionCommands();
    assert.ok(commands.length <= 4, `${commands.length} commands`);
    const [sandboxLine, ...harkLines] = commands;
    assert.match(sandboxLine, /^deno task sandbox /);
    const port = String(freePort());
    const home = await createHarkEnv();
    const sandbox = new Deno.Command(Deno.execPath(), {
      args: sandboxLine.replace("8080", port).split(/\s+/).slice(1).concat("--quiet"),
      cwd: REPO_ROOT,
      env: { PATH: Deno.env.get("PATH") ?? "", HOME: home.dir, ...denoDirEnv() },
      clearEnv: true,
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const reader = sandbox.stdout.pipeThrough(new TextDecoderStream()).getReader();
    try {
      let banner = "";
      while (!banner.includes("approve a code from a shell")) {
        const { value, done } = await reader.read();
        assert.ok(!done, `the sandbox stopped: ${banner}`);
        banner += value;
      }
      assert.match(banner, /"decision": "approve"/, "the banner explains the decision");

      // hark as the README's Install section puts it on PATH; no secret-tool beside it.
      const bin = join(home.dir, "prefix", "bin");
      const installed = await new Deno.Command(Deno.execPath(), {
        args: ["task", "--quiet", "install", "--root", join(home.dir, "prefix")],
        cwd: REPO_ROOT,
        env: { PATH: Deno.env.get("PATH") ?? "", HOME: home.dir, ...denoDirEnv() },
        clearEnv: true,
      }).output();
      assert.equal(installed.code, 0);
      await Deno.symlink(await Deno.realPath("/bin/sleep"), join(bin, "sleep"));
      const { HARK_KEYCHAIN: _k, HARK_KEYCHAIN_PASSWORD: _p, ...env } = home.env;
      const password = "sandbox keychain password";
      let answers = 0;
      const answer = async (terminal: Terminal, prompt: RegExp, ...keys: string[]) => {
        await terminal.waitFor(prompt);
        await terminal.type(...keys);
        answers += 1;
      };
      const screens: string[] = [];
      for (const line of harkLines) {
        const printed = line.replace("8080", port);
        // The script's own `hark` function would be the runner's: this is the installed one.
        const script = await terminalScript(home.dir, { ...env, PATH: bin, TERM: "xterm" }, [
          `unset -f hark; ${printed}`,
        ]);
        const terminal = await Terminal.start(script, { columns: 80, rows: 24 });
        try {
          if (line.startsWith("hark config init")) {
            await answer(terminal, /Where should hark keep secrets\?/, "Enter");
            await answer(terminal, /App secret/, "sandbox-secret", "Enter");
            await answer(terminal, /New password for hark's file keychain/, password, "Enter");
            await answer(terminal, /The same password again/, password, "Enter");
          } else {
            await answer(terminal, /Keychain password/, password, "Enter");
          }
          const screen = await terminal.waitFor(/EXIT=\d/, 60_000);
          assert.match(screen, /EXIT=0/, screen);
          screens.push(screen);
        } finally {
          await terminal.close();
        }
      }
      assert.ok(answers <= 6, `${answers} answers`);
      assert.match(screens.at(-1)!, /SUMMARY|START/, "the agenda is shown");
    } finally {
      reader.releaseLock();
      sandbox.kill("SIGTERM");
      await sandbox.status;
      await home.cleanup();
    }
  },
}));
