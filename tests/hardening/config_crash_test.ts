/**
 * Writers killed with SIGKILL at random points during `config set` never leave a torn or empty
 * config: the file stays valid JSON with mode 0600, and a lock left by a dead writer does not
 * block the next one.
 */

import assert from "node:assert/strict";
import { HARK_RUN_FLAGS } from "../../scripts/permissions.ts";
import { createHarkEnv, MAIN_TS, REPO_ROOT } from "../support/hark_env.ts";

/** A small seeded PRNG, so a failure can be replayed. */
function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

Deno.test({
  name: "config set killed at random points never leaves a torn config",
  ignore: Deno.build.os === "windows",
  async fn() {
    const home = await createHarkEnv();
    const seed = Number(Deno.env.get("HARK_TEST_SEED") ?? Date.now() % 100000);
    const random = mulberry32(seed);
    try {
      // A large config makes each write take long enough to be interrupted in the middle.
      const padding: Record<string, string> = {};
      for (let i = 0; i < 4000; i++) padding[`key_${i}`] = "x".repeat(200);
      await Deno.mkdir(home.configPath.replace(/\/[^/]+$/, ""), { recursive: true, mode: 0o700 });
      await Deno.writeTextFile(
        home.configPath,
        JSON.stringify({ apps: { default: { app_id: "cli_start" } }, padding }),
        { mode: 0o600 },
      );
      const writer = (value: string) =>
        new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "--quiet",
            "--no-check",
            ...HARK_RUN_FLAGS,
            MAIN_TS,
            "config",
            "set",
            "apps.default.base_url",
            value,
          ],
          env: home.env,
          clearEnv: true,
          cwd: REPO_ROOT,
          stdin: "null",
          stdout: "null",
          stderr: "piped",
        }).spawn();
      // How long one write takes here (start-up included): the kills land across that time and
      // a little beyond it, so some writers die in the middle and some finish, however fast
      // the machine.
      const started = performance.now();
      const warm = await writer("https://open-warm.example.com").output();
      assert.equal(warm.code, 0, new TextDecoder().decode(warm.stderr));
      const duration = performance.now() - started;
      let killed = 0;
      let completed = 0;
      for (let round = 0; round < 24; round++) {
        const value = `https://open-${round}.example.com`;
        const child = writer(value);
        // Every sixth writer is left to finish: under the load of the rest of the suite a write
        // can take well over the warm one's time, and every kill could then land before the end.
        const delay = Math.floor(random() * duration * 1.5);
        const timer = round % 6 === 5 ? undefined : setTimeout(() => {
          try {
            child.kill("SIGKILL");
          } catch {
            // Finished first.
          }
        }, delay);
        const status = await child.output();
        clearTimeout(timer);
        if (status.signal === "SIGKILL") killed++;
        else {
          assert.equal(status.code, 0, new TextDecoder().decode(status.stderr));
          completed++;
        }
        const text = await Deno.readTextFile(home.configPath);
        assert.ok(text.length > 0, `empty config after round ${round} (seed ${seed})`);
        const config = JSON.parse(text); // throws on a torn file
        assert.equal(Object.keys(config.padding).length, 4000, `seed ${seed}`);
        assert.equal(config.apps.default.app_id, "cli_start");
        if (status.signal !== "SIGKILL") assert.equal(config.apps.default.base_url, value);
        assert.equal((await Deno.stat(home.configPath)).mode! & 0o777, 0o600);
      }
      // Some runs must have been cut short and some finished, or the test proved nothing.
      assert.ok(killed > 0, `no writer was killed (seed ${seed})`);
      assert.ok(completed > 0, `no writer finished (seed ${seed})`);
      // A final writer succeeds even if the last killed one left its lock behind.
      const last = await home.run([
        "config",
        "set",
        "apps.default.base_url",
        "https://final.example",
      ]);
      assert.equal(last.code, 0, last.stderr);
      assert.equal(
        (await home.readConfig() as { apps: { default: { base_url: string } } }).apps.default
          .base_url,
        "https://final.example",
      );
    } finally {
      await home.cleanup();
    }
  },
});
