/**
 * Issue 21, lows: a `credential_command` cannot hang hark, flood its memory, have its error
 * output (which may hold a secret) quoted, or turn a malformed token into "Connection lost".
 * Each case runs the real CLI with a config whose credential command is a small shell script.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { createHarkEnv, type HarkEnv, type HarkRun } from "../support/hark_env.ts";

const posix = Deno.build.os !== "windows";

/** A home whose config runs `script` (sh) as its credential command. */
async function homeRunning(script: string): Promise<HarkEnv> {
  const home = await createHarkEnv();
  await Deno.mkdir(join(home.dir, "config"), { mode: 0o700 });
  await Deno.writeTextFile(
    home.configPath,
    JSON.stringify({
      apps: {
        default: {
          app_id: "cli_command",
          app_secret: "@plain:command-test-secret",
          // Nothing listens here: a request that is sent fails as a network error.
          base_url: "http://127.0.0.1:9",
          credential_command: ["sh", "-c", script],
        },
      },
    }),
    { mode: 0o600 },
  );
  return home;
}

function errorOf(run: HarkRun): { code: number; message: string } {
  return JSON.parse(run.stderr).error;
}

/** Whether a process runs (a zombie waiting for its reaper does not), given a moment to die. */
async function alive(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 20; attempt++) {
    let state: string | undefined;
    try {
      state = (await Deno.readTextFile(`/proc/${pid}/stat`)).split(") ")[1]?.[0];
    } catch {
      return false;
    }
    if (state === "Z" || state === "X") return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

Deno.test({
  name: "a credential command that leaves a child holding its output is done when it exits",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const home = await homeRunning("");
    try {
      const pidFile = join(home.dir, "child.pid");
      const script = `sleep 60 & echo $! > '${pidFile}'; echo '{"access_token":"u-background"}'`;
      await Deno.writeTextFile(
        home.configPath,
        (await Deno.readTextFile(home.configPath)).replace(
          '"sh","-c",""',
          () => `"sh","-c",${JSON.stringify(script)}`,
        ),
      );
      const started = Date.now();
      const run = await home.run(["auth", "token"], { timeoutMs: 30_000 });
      const elapsed = Date.now() - started;
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, "u-background\n");
      assert.ok(elapsed < 15_000, `waited ${elapsed} ms for the background child`);
      const pid = Number(await Deno.readTextFile(pidFile));
      assert.equal(await alive(pid), false, "the child left holding the pipe was stopped");
    } finally {
      await home.cleanup();
    }
  },
});

Deno.test({
  name: "a credential command's output is bounded at 64 KiB",
  ignore: !posix,
  async fn() {
    const home = await homeRunning(
      `printf '{"access_token":"u-%0100000d"}' 0; sleep 60`,
    );
    try {
      const started = Date.now();
      const run = await home.run(["auth", "token", "--json"], { timeoutMs: 30_000 });
      assert.equal(run.code, 3, run.stderr);
      assert.equal(
        errorOf(run).message,
        'The credential command "sh" printed more than 64 KiB on stdout: it was stopped',
      );
      assert.ok(Date.now() - started < 15_000, "it was stopped at the limit, not waited for");
    } finally {
      await home.cleanup();
    }
  },
});

Deno.test({
  name: "a failing credential command's error output is never quoted",
  ignore: !posix,
  async fn() {
    const home = await homeRunning(
      "echo 'vault: sealed; last token u-LEAKED-0123456789abcdef' >&2; exit 3",
    );
    try {
      for (const args of [["auth", "token", "--json"], ["auth", "token"], ["contact", "+me"]]) {
        const run = await home.run([...args, "--debug"]);
        assert.equal(run.code, 3, run.stderr);
        assert.ok(!(run.stdout + run.stderr).includes("LEAKED"), run.stderr);
        assert.match(
          run.stderr,
          /The credential command "sh" failed with exit code 3 \(its error output is not shown: it may hold a secret/,
        );
      }
    } finally {
      await home.cleanup();
    }
  },
});

Deno.test({
  name: "a token with a line break inside is refused as malformed, not sent",
  ignore: !posix,
  async fn() {
    const home = await homeRunning(`printf '{"access_token":"u-abc\\\\r\\\\nX-Evil: 1"}'`);
    try {
      const run = await home.run(["contact", "+me", "--json"]);
      assert.equal(run.code, 3, run.stderr);
      assert.equal(
        errorOf(run).message,
        'Malformed answer from the credential command "sh": "access_token" holds spaces, line ' +
          "breaks, control or non-ASCII characters, which no token has",
      );
    } finally {
      await home.cleanup();
    }
  },
});
