/**
 * `--dry-run` on every system command that changes something: it prints the change as JSON and
 * changes nothing — not the config file, not the keychain, not the service.
 *
 * The dry runs run in process (`runInProcess`: the same command code, config file and file
 * keychain, whose files the snapshot compares); the first `config init` is a real hark process,
 * its secret read from a piped stdin, as the wiring check.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { createHarkEnv } from "../support/hark_env.ts";
import { runInProcess } from "../support/world.ts";

async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  async function walk(path: string): Promise<void> {
    for await (const entry of Deno.readDir(path)) {
      const child = join(path, entry.name);
      if (entry.isDirectory) await walk(child);
      else files[child] = await Deno.readTextFile(child);
    }
  }
  await walk(dir);
  return files;
}

Deno.test("--dry-run on config, profile and auth commands prints the change and makes none", async () => {
  // No server listens here: a dry run that sent anything would fail.
  const env = await createHarkEnv();
  try {
    const init = ["config", "init", "--non-interactive", "--app-id", "cli_dry"];
    const base = ["--base-url", "http://127.0.0.1:9"];
    assert.equal(
      (await env.run([...init, ...base, "--app-secret-stdin"], { stdin: "s3cret-dry" })).code,
      0,
    );
    const work = ["--app-secret-stdin", "--profile", "work"];
    assert.equal((await runInProcess(env, [...init, ...base, ...work], { stdin: "w" })).code, 0);
    const before = await snapshot(env.dir);
    const namespace = (await env.readConfig()).keychain_namespace;

    const cases: [string[], Record<string, unknown>, string?][] = [
      [["config", "set", "preferences.output_format", "csv"], {
        action: "config set",
        key: "preferences.output_format",
        value: "csv",
      }],
      [["profile", "use", "work"], { action: "profile use", profile: "work" }],
      [["profile", "remove", "work"], {
        action: "profile remove",
        profile: "work",
        keychain_entries: [`hark/${namespace}/work/app_secret`],
      }],
      [[...init, ...base, "--app-secret-stdin", "--force"], {
        action: "config init",
        profile: "default",
        app_secret: `@keychain:hark/${namespace}/default/app_secret`,
        replaces: true,
      }, "a-new-secret"],
      [["auth", "login", "--scope", "im:message:send"], {
        action: "auth login",
        device_authorization_url: "http://127.0.0.1:9/oauth/v1/device_authorization",
      }],
      [["auth", "login", "--no-wait"], { action: "auth login", wait: false }],
      [["auth", "logout"], { action: "auth logout", profile: "default", user_entry: false }],
    ];
    for (const [args, expected, stdin] of cases) {
      const run = await runInProcess(env, [...args, "--dry-run"], stdin ? { stdin } : {});
      assert.equal(run.code, 0, `${args.join(" ")}: ${run.stderr}`);
      const plan = JSON.parse(run.stdout);
      assert.equal(plan.dry_run, true, args.join(" "));
      for (const [key, value] of Object.entries(expected)) {
        assert.deepEqual(plan[key], value, `${args.join(" ")}: ${key}`);
      }
      assert.ok(!run.stdout.includes("a-new-secret") && !run.stdout.includes("s3cret-dry"));
      assert.deepEqual(await snapshot(env.dir), before, `${args.join(" ")} changed a file`);
    }

    // Bad input is still refused in a dry run.
    const bad = await runInProcess(env, [
      "config",
      "set",
      "active_profile",
      "nope",
      "--dry-run",
      "--json",
    ]);
    assert.equal(bad.code, 2);
    assert.match(JSON.parse(bad.stderr).error.message, /Unknown profile "nope"/);
  } finally {
    await env.cleanup();
  }
});
