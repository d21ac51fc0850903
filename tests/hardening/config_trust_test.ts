/**
 * Issue 21, High 1 (files) and the config lows: hark takes instructions only from files that are
 * the user's own. A config file, or a `credential_command` program, that other users can write
 * (or that sits in a folder where they can replace it, or belongs to another user) is refused
 * with an error naming the file and the command that fixes it, before anything runs. A config
 * that is not a regular file (`/dev/zero`, a FIFO) or is larger than 1 MiB is refused without
 * reading it through.
 *
 * The refusals run in process ({@link runInProcess}: the same command code, config reading and
 * file checks as a hark process, as the same user, no Deno start-up): their subject is what hark
 * answers before anything runs, which the process adds nothing to (were the credential command
 * started after all, the in-process context's runner fails the test). Real hark processes stay
 * where a program is started (the fixed configs run their credential command in hark's own
 * environment) and for `/dev/zero`, a FIFO and a huge file, whose reading through would block or
 * fill the test runner itself and whose bound is the real clock's.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { createHarkEnv, type HarkRun } from "../support/hark_env.ts";
import { runInProcess } from "../support/world.ts";

const posix = Deno.build.os !== "windows";

/** A config whose credential command leaves a mark when it runs. */
async function markingConfig(path: string, program: string[]): Promise<void> {
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      apps: {
        default: {
          app_id: "cli_trust",
          app_secret: "@plain:trust-test-secret",
          base_url: "http://127.0.0.1:9",
          credential_command: program,
        },
      },
    }),
    { mode: 0o600 },
  );
  await Deno.chmod(path, 0o600);
}

function markProgram(marker: string): string[] {
  return ["sh", "-c", `touch '${marker}'; echo '{"access_token":"u-marked"}'`];
}

function errorOf(run: HarkRun): { message: string; recovery: { command: string } } {
  return JSON.parse(run.stderr).error;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test({
  name: "a config file other users can write to is refused before its credential command runs",
  ignore: !posix,
  async fn() {
    const home = await createHarkEnv();
    try {
      const folder = join(home.dir, "config");
      await Deno.mkdir(folder, { mode: 0o700 });
      const marker = join(home.dir, "ran");
      await markingConfig(home.configPath, markProgram(marker));
      await Deno.chmod(home.configPath, 0o666);
      for (const args of [["auth", "status", "--json"], ["contact", "+me", "--json"]]) {
        const run = await runInProcess(home, args);
        assert.equal(run.code, 2, run.stderr);
        const error = errorOf(run);
        assert.equal(
          error.message,
          `Refusing the config file "${home.configPath}": other users can write to it (mode 0666)`,
        );
        assert.equal(error.recovery.command, `chmod 600 ${home.configPath}`);
      }
      assert.equal(await exists(marker), false, "the credential command ran");

      // The fix given works.
      await Deno.chmod(home.configPath, 0o600);
      const fixed = await home.run(["auth", "token", "--json"]);
      assert.equal(fixed.code, 0, fixed.stderr);
      assert.equal(await exists(marker), true);
    } finally {
      await home.cleanup();
    }
  },
});

Deno.test({
  name: "a config in a folder others can write to is refused unless the folder is sticky",
  ignore: !posix,
  async fn() {
    const home = await createHarkEnv();
    try {
      const folder = join(home.dir, "config");
      await Deno.mkdir(folder);
      await markingConfig(home.configPath, markProgram(join(home.dir, "ran")));
      await Deno.chmod(folder, 0o777);
      const open = await runInProcess(home, ["auth", "token", "--json"]);
      assert.equal(open.code, 2, open.stderr);
      assert.equal(
        errorOf(open).message,
        `Refusing the config file "${home.configPath}": its folder "${folder}" lets other ` +
          "users replace it (mode 0777)",
      );
      assert.equal(errorOf(open).recovery.command, `chmod go-w ${folder}`);
      await Deno.chmod(folder, 0o1777);
      const sticky = await home.run(["auth", "token", "--json"]);
      assert.equal(sticky.code, 0, sticky.stderr);
    } finally {
      await home.cleanup();
    }
  },
});

Deno.test({
  name: "a config file that belongs to another user is refused",
  ignore: !posix || Deno.uid() !== 0,
  async fn() {
    const home = await createHarkEnv();
    try {
      await Deno.mkdir(join(home.dir, "config"), { mode: 0o700 });
      await markingConfig(home.configPath, markProgram(join(home.dir, "ran")));
      await Deno.chown(home.configPath, 65534, null);
      const run = await runInProcess(home, ["auth", "token", "--json"]);
      assert.equal(run.code, 2, run.stderr);
      assert.equal(
        errorOf(run).message,
        `Refusing the config file "${home.configPath}": it belongs to another user (uid 65534), ` +
          "who could change what it says at any time",
      );
      assert.equal(await exists(join(home.dir, "ran")), false);
    } finally {
      await home.cleanup();
    }
  },
});

Deno.test({
  name: "a credential command program other users can write to is refused and never run",
  ignore: !posix,
  async fn() {
    const home = await createHarkEnv();
    try {
      await Deno.mkdir(join(home.dir, "config"), { mode: 0o700 });
      const bin = join(home.dir, "bin");
      await Deno.mkdir(bin, { mode: 0o700 });
      const marker = join(home.dir, "ran");
      const program = join(bin, "vault-token");
      await Deno.writeTextFile(
        program,
        `#!/bin/sh\ntouch '${marker}'\necho '{"access_token":"u-marked"}'\n`,
      );
      await Deno.chmod(program, 0o777);
      await markingConfig(home.configPath, [program]);
      const run = await runInProcess(home, ["auth", "token", "--json"]);
      assert.equal(run.code, 3, run.stderr);
      const error = errorOf(run);
      assert.equal(
        error.message,
        `Refusing the credential command (apps.default.credential_command) "${program}": other ` +
          "users can write to it (mode 0777)",
      );
      assert.equal(error.recovery.command, `chmod go-w ${program}`);
      assert.equal(await exists(marker), false, "the program ran");

      // Found through PATH, the same program is checked the same way.
      await markingConfig(home.configPath, ["vault-token"]);
      const viaPath = await runInProcess(home, ["auth", "token", "--json"], {
        env: { PATH: `${bin}:${home.env.PATH}` },
      });
      assert.equal(viaPath.code, 3, viaPath.stderr);
      assert.match(errorOf(viaPath).message, /other users can write to it \(mode 0777\)/);
      assert.equal(await exists(marker), false, "the program ran");

      await Deno.chmod(program, 0o755);
      const fixed = await home.run(["auth", "token", "--json"], {
        env: { PATH: `${bin}:${home.env.PATH}` },
      });
      assert.equal(fixed.code, 0, fixed.stderr);
      assert.equal(await exists(marker), true);
    } finally {
      await home.cleanup();
    }
  },
});

Deno.test({
  name: "HARK_CONFIG naming /dev/zero, a FIFO or a huge file is refused without reading it through",
  ignore: !posix,
  async fn() {
    const home = await createHarkEnv();
    try {
      const fifo = join(home.dir, "fifo.json");
      const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
      assert.equal(made.code, 0);
      const huge = join(home.dir, "huge.json");
      await Deno.writeTextFile(huge, `{"pad":"${"x".repeat(2 * 1024 * 1024)}"}`, { mode: 0o600 });
      const cases: [string, string][] = [
        ["/dev/zero", "it is not a regular file"],
        [fifo, "it is not a regular file"],
        [huge, "it is larger than 1 MiB"],
      ];
      for (const [path, reason] of cases) {
        const started = Date.now();
        const run = await home.run(["auth", "status", "--json"], {
          env: { HARK_CONFIG: path },
          timeoutMs: 20_000,
        });
        assert.equal(run.code, 2, `${path}: ${run.stderr}`);
        assert.equal(errorOf(run).message, `Cannot read the config file "${path}": ${reason}`);
        assert.ok(Date.now() - started < 15_000, `${path} took ${Date.now() - started} ms`);
      }
    } finally {
      await home.cleanup();
    }
  },
});
