/**
 * Secrets kept in plaintext in the config are warned about on stderr by the command that reads
 * the config, naming the key and the fix, and never showing the secret.
 *
 * The runs are in process (`runInProcess`: the same command code, config file and stderr), but
 * the first, a real hark process: the wiring check that the warning reaches a process's stderr.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { createHarkEnv, type HarkEnv } from "../support/hark_env.ts";
import { runInProcess } from "../support/world.ts";

async function withHark(fn: (hark: HarkEnv) => Promise<void>): Promise<void> {
  const hark = await createHarkEnv();
  try {
    await fn(hark);
  } finally {
    await hark.cleanup();
  }
}

Deno.test("a plaintext secret in the config warns, in CI and out, without showing it", async () => {
  await withHark(async (hark) => {
    await Deno.mkdir(join(hark.dir, "config"), { recursive: true });
    await Deno.writeTextFile(
      hark.configPath,
      '{"apps": {"default": {"app_id": "cli_1", "app_secret": "bare-secret-value"}}}',
    );
    const get = ["config", "get", "apps.default.app_id"];
    for (const env of [{}, { CI: "true" }]) {
      const run = env.CI === undefined
        ? await hark.run(get, { env })
        : await runInProcess(hark, get, { env });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, "cli_1\n");
      assert.match(
        run.stderr,
        /^warning: apps\.default\.app_secret holds a secret in plaintext in the config file; move it to the keychain with "hark config init --force"/,
      );
      assert.ok(!run.stderr.includes("bare-secret"), run.stderr);
    }
  });
});

Deno.test("a @plain: secret warns in CI only, and a reference never warns", async () => {
  await withHark(async (hark) => {
    await Deno.mkdir(join(hark.dir, "config"), { recursive: true });
    await Deno.writeTextFile(
      hark.configPath,
      JSON.stringify({
        apps: {
          default: { app_id: "cli_1", app_secret: "@plain:dev-secret-value" },
          work: { app_id: "cli_2", app_secret: "@env:WORK_SECRET" },
        },
      }),
    );
    // No CI: an in-process run sees the home's variables only.
    const quiet = await runInProcess(hark, ["config", "get", "apps.default.app_id"]);
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.equal(quiet.stderr, "");
    const ci = await runInProcess(hark, ["config", "get", "apps.default.app_id"], {
      env: { CI: "1" },
    });
    assert.match(ci.stderr, /^warning: apps\.default\.app_secret is a @plain: secret/);
    assert.ok(!ci.stderr.includes("dev-secret"), ci.stderr);
    const reference = await runInProcess(
      hark,
      ["--profile", "work", "config", "get", "apps.work.app_id"],
      { env: { CI: "1" } },
    );
    assert.equal(reference.code, 0, reference.stderr);
    assert.equal(reference.stderr, "");
  });
});
