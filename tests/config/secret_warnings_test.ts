/**
 * Secrets kept in plaintext in the config are warned about on stderr by the command that reads
 * the config, naming the key and the fix, and never showing the secret.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { createHarkEnv, type HarkEnv } from "../support/hark_env.ts";

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
    for (const env of [{}, { CI: "true" }]) {
      const run = await hark.run(["config", "get", "apps.default.app_id"], { env });
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
    const quiet = await hark.run(["config", "get", "apps.default.app_id"], {
      env: { CI: undefined },
    });
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.equal(quiet.stderr, "");
    const ci = await hark.run(["config", "get", "apps.default.app_id"], { env: { CI: "1" } });
    assert.match(ci.stderr, /^warning: apps\.default\.app_secret is a @plain: secret/);
    assert.ok(!ci.stderr.includes("dev-secret"), ci.stderr);
    const reference = await hark.run(["--profile", "work", "config", "get", "apps.work.app_id"], {
      env: { CI: "1" },
    });
    assert.equal(reference.code, 0, reference.stderr);
    assert.equal(reference.stderr, "");
  });
});
