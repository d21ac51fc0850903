import assert from "node:assert/strict";
import { control, spawnHark, startWorld } from "./_support.ts";

Deno.test("auth login succeeds after approval through the sandbox's HTML page", async () => {
  const world = await startWorld();
  try {
    const live = spawnHark(world.env, ["auth", "login", "--json"]);
    const [, userCode] = await live.waitFor(/enter the code: (\S+)/);
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
    const run = await live.done;
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).user.open_id, world.sb.users[1].open_id);
  } finally {
    await world.close();
  }
});

Deno.test("auth login stops with exit 3 when the request is denied", async () => {
  const world = await startWorld();
  try {
    const live = spawnHark(world.env, ["auth", "login", "--json"]);
    const [, userCode] = await live.waitFor(/enter the code: (\S+)/);
    await control(world.sb, "/sandbox/approve", { user_code: userCode, decision: "deny" });
    const run = await live.done;
    assert.equal(run.code, 3);
    assert.match(
      JSON.parse(run.stderr.split("\n").find((l) => l.startsWith("{"))!).error.message,
      /denied/,
    );
    assert.equal((await world.env.readConfig()).users, undefined);
  } finally {
    await world.close();
  }
});

Deno.test("auth login stops with a clear message when the device code expires", async () => {
  const world = await startWorld({ deviceCodeTtl: 2 });
  try {
    const run = await world.env.run(["auth", "login"]);
    assert.equal(run.code, 3);
    assert.match(run.stderr, /code expired/);
  } finally {
    await world.close();
  }
});
