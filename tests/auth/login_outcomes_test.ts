/**
 * How `hark auth login` ends when the person at the browser approves on the sandbox's page,
 * denies, or lets the code expire: in process, on a clock that does not wait (the polling rules
 * behind these ends are `src/auth/device_flow_test.ts`'s; the CLI subprocess wiring is
 * `login_test.ts`'s).
 */

import assert from "node:assert/strict";
import { startWorld } from "../support/world.ts";

Deno.test("auth login succeeds after approval through the sandbox's HTML page", async () => {
  const world = await startWorld();
  try {
    const run = await world.runInProcess(["auth", "login", "--json"], {
      async onCode(userCode) {
        const page = await fetch(`${world.sb.baseUrl}/sandbox/verify`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            user_code: userCode,
            open_id: world.sb.users[1].open_id,
            decision: "approve",
          }),
        });
        assert.equal(page.status, 200);
        assert.match(await page.text(), /approved/);
      },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).user.open_id, world.sb.users[1].open_id);
  } finally {
    await world.close();
  }
});

Deno.test("auth login stops with exit 3 when the request is denied", async () => {
  const world = await startWorld();
  try {
    const run = await world.runInProcess(["auth", "login", "--json"], {
      async onCode(userCode) {
        await world.control("/sandbox/approve", { user_code: userCode, decision: "deny" });
      },
    });
    assert.equal(run.code, 3);
    assert.match(
      JSON.parse(run.stderr.split("\n").find((l) => l.startsWith("{"))!).error.message,
      /denied/,
    );
    assert.equal((await world.home.readConfig()).users, undefined);
  } finally {
    await world.close();
  }
});

Deno.test("auth login stops with a clear message when the device code expires", async () => {
  const world = await startWorld({ sandbox: { deviceCodeTtl: 2 } });
  try {
    const run = await world.runInProcess(["auth", "login", "--wait", "1h"]);
    assert.equal(run.code, 3);
    assert.match(run.stderr, /code expired/);
  } finally {
    await world.close();
  }
});
