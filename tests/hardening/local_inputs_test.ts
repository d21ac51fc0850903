/**
 * Issue 21, lows: bad local input (a hand-edited config, a variable that is not text) ends in a
 * clear error naming the input, never in exit 5.
 */

import assert from "node:assert/strict";
import { createHarkEnv, HARK_RUN_FLAGS, MAIN_TS, REPO_ROOT } from "../support/hark_env.ts";
import { FROM_SOURCE_FLAGS } from "../../scripts/permissions.ts";

Deno.test('app_secret "@env:" names no variable: a validation error, not exit 5', async () => {
  const home = await createHarkEnv();
  try {
    await home.writeConfig({
      apps: {
        default: { app_id: "cli_env", app_secret: "@env:", base_url: "https://open.feishu.cn" },
      },
    });
    for (const args of [["--as", "bot", "im", "+chats", "--json"], ["auth", "login", "--json"]]) {
      const run = await home.run(args);
      assert.equal(run.code, 2, run.stderr);
      const error = JSON.parse(run.stderr).error;
      assert.equal(
        error.message,
        'Invalid apps.default.app_secret "@env:": "@env:" must be followed by the name of an ' +
          "environment variable (letters, digits and _)",
      );
      assert.equal(
        error.recovery.command,
        "hark config set apps.default.app_secret @env:LARK_APP_SECRET",
      );
    }
  } finally {
    await home.cleanup();
  }
});

Deno.test("profile list shows a numeric app_id or base_url and says how to fix it", async () => {
  const home = await createHarkEnv();
  try {
    await home.writeConfig({
      apps: {
        default: { app_id: 42, base_url: 7 },
        work: { app_id: "cli_work", base_url: "https://open.feishu.cn/" },
      },
    });
    const run = await home.run(["profile", "list", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const rows = JSON.parse(run.stdout);
    assert.deepEqual(
      rows.map((r: { app_id: string; base_url: string }) => [r.app_id, r.base_url]),
      [
        ["42", "7"],
        ["cli_work", "https://open.feishu.cn"],
      ],
    );
    assert.match(
      run.stderr,
      /^warning: apps\.default\.app_id is 42, not text; set it with: hark config init --force\n/m,
    );
    assert.match(
      run.stderr,
      /^warning: apps\.default\.base_url is 7, not text; set it with: hark config set apps\.default\.base_url https:\/\/open\.larksuite\.com\n/m,
    );
  } finally {
    await home.cleanup();
  }
});

Deno.test({
  name: "HARK_USER_ACCESS_TOKEN that is not UTF-8 is a clear error that never quotes it",
  ignore: Deno.build.os === "windows",
  async fn() {
    const home = await createHarkEnv();
    try {
      // The OS passes any bytes; Deno's API only strings: a shell sets the variable.
      const hark = [Deno.execPath(), "run", "--quiet", "--no-check", ...FROM_SOURCE_FLAGS]
        .concat(HARK_RUN_FLAGS, [MAIN_TS, "contact", "+me", "--json"])
        .map((word) => `'${word}'`)
        .join(" ");
      const output = await new Deno.Command("sh", {
        args: ["-c", `HARK_USER_ACCESS_TOKEN="$(printf 'u-SECRET\\377\\376')" exec ${hark}`],
        env: home.env,
        clearEnv: true,
        cwd: REPO_ROOT,
        stdin: "null",
      }).output();
      const stderr = new TextDecoder().decode(output.stderr);
      assert.equal(output.code, 2, stderr);
      const error = JSON.parse(stderr).error;
      assert.equal(
        error.message,
        "The environment variable HARK_USER_ACCESS_TOKEN is not valid UTF-8 text",
      );
      assert.ok(!stderr.includes("SECRET"), stderr);
      assert.ok(!stderr.includes("\\x"), "no bytes of the value are shown");
    } finally {
      await home.cleanup();
    }
  },
});
