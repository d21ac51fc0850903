import assert from "node:assert/strict";
import { control, requestLog, spawnHark, startWorld } from "./_support.ts";

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

Deno.test("auth login backs off by 5 s when the server answers slow_down", async () => {
  // A server interval of 6 s: --device-code learns it from what --no-wait saved, so hark's
  // first poll comes 6 s after it starts. Polling once ourselves 3 s in makes that one too soon
  // by a wide margin, whatever the machine's load.
  const world = await startWorld({ interval: 6 });
  try {
    const started = await world.env.run(["auth", "login", "--no-wait", "--json"]);
    assert.equal(started.code, 0, started.stderr);
    const { device_code, user_code } = JSON.parse(started.stdout);
    const live = spawnHark(world.env, [
      "auth",
      "login",
      "--device-code",
      device_code,
      "--wait",
      "1m",
      "--json",
    ]);
    await live.waitFor(/Waiting for the sign-in/);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const own = await fetch(`${world.sb.baseUrl}/open-apis/authen/v2/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: DEVICE_GRANT,
        device_code,
        client_id: world.sb.appId,
        client_secret: world.sb.appSecret,
      }),
    });
    assert.equal((await own.json()).error, "authorization_pending");
    await control(world.sb, "/sandbox/approve", { user_code, decision: "approve" });
    const run = await live.done;
    assert.equal(run.code, 0, run.stderr);
    const polls = (await requestLog(world.sb)).filter((r) => r.body?.grant_type === DEVICE_GRANT);
    assert.equal(polls.length, 3, "ours, hark's slowed-down one, hark's successful one");
    const first = Date.parse(polls[1].time) - Date.parse(polls[0].time);
    assert.ok(first < 6_000, `our poll came ${first} ms before hark's: not too soon`);
    const gap = Date.parse(polls[2].time) - Date.parse(polls[1].time);
    assert.ok(gap >= 10_900, `hark waited ${gap} ms after slow_down, expected 6 + 5 = 11 s`);
  } finally {
    await world.close();
  }
});
