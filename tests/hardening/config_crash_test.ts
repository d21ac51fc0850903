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
      // the machine. Each write that finishes moves it up to the slowest seen.
      const started = performance.now();
      const warm = await writer("https://open-warm.example.com").output();
      assert.equal(warm.code, 0, new TextDecoder().decode(warm.stderr));
      let duration = performance.now() - started;
      const lockPath = `${home.configPath}.lock`;
      const locked = () => Deno.stat(lockPath).then(() => true, () => false);
      let killed = 0;
      // Kills that landed while the writer held the lock: it was writing, and died leaving the
      // lock file (a writer removes it when it lets go). Only rounds that began without a lock
      // file left by an earlier kill can tell.
      let midWrite = 0;
      // 24 rounds; then, while no kill has landed mid-write, up to 24 more (a suite under load
      // can make writes far slower than the warm one, so that early kills all land first).
      for (let round = 0; round < 24 || (midWrite === 0 && round < 48); round++) {
        const value = `https://open-${round}.example.com`;
        const lockedBefore = await locked();
        const begun = performance.now();
        const child = writer(value);
        // Every sixth writer is left to finish, so that the write's time keeps up with the load.
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
        if (status.signal === "SIGKILL") {
          killed++;
          if (!lockedBefore && await locked()) midWrite++;
        } else {
          assert.equal(status.code, 0, new TextDecoder().decode(status.stderr));
          duration = Math.max(duration, performance.now() - begun);
        }
        const text = await Deno.readTextFile(home.configPath);
        assert.ok(text.length > 0, `empty config after round ${round} (seed ${seed})`);
        const config = JSON.parse(text); // throws on a torn file
        assert.equal(Object.keys(config.padding).length, 4000, `seed ${seed}`);
        assert.equal(config.apps.default.app_id, "cli_start");
        if (status.signal !== "SIGKILL") assert.equal(config.apps.default.base_url, value);
        assert.equal((await Deno.stat(home.configPath)).mode! & 0o777, 0o600);
      }
      // Some writers must have died in the middle of a write, or the test proved nothing.
      assert.ok(killed > 0, `no writer was killed (seed ${seed})`);
      assert.ok(midWrite > 0, `no kill landed while a writer held the lock (seed ${seed})`);
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
