/**
 * A session revoked on the server (the user withdrew the app's authorization): `auth status`
 * asks the service and says `needs_login` with the fix, instead of `valid` from the stored times;
 * the refusal is remembered, so the local view (`--offline`, `auth token`, `auth check`) agrees.
 * Where the service cannot be asked, the local view stands and says so.
 *
 * The runs are in process (`runInProcess`: the same command code, config and file keychain, where
 * the remembered refusal is kept); the first status is a real hark process, reading the sign-in
 * from the keychain as the wiring check.
 */

import assert from "node:assert/strict";
import { startWorld } from "../support/world.ts";

Deno.test("auth status, token and check say needs_login once the session was revoked on the server", async () => {
  const world = await startWorld({ profiles: ["default", "work"] });
  try {
    const openId = world.sb.users[0].open_id;
    const login = await world.signIn({ profile: "work", openId });
    assert.equal(login.code, 0, login.stderr);
    const statusArgs = ["auth", "status", "--json", "--profile", "work"];
    const status = (...args: string[]) => world.runInProcess([...statusArgs, ...args]);

    const alive = await world.run(statusArgs);
    assert.equal(alive.code, 0, alive.stderr);
    assert.deepEqual(
      [JSON.parse(alive.stdout).state, JSON.parse(alive.stdout).checked],
      ["valid", "service"],
    );

    assert.deepEqual(await world.control("/sandbox/revoke", { open_id: openId }), { revoked: 1 });
    // Still valid by its stored times: the local view cannot know yet.
    const unknowing = await status("--offline");
    assert.equal(JSON.parse(unknowing.stdout).state, "valid");
    assert.equal(JSON.parse(unknowing.stdout).checked, "local");

    const dead = await status();
    assert.equal(dead.code, 3, dead.stderr);
    assert.deepEqual(
      [JSON.parse(dead.stdout).state, JSON.parse(dead.stdout).usable],
      ["needs_login", false],
    );
    const envelope = JSON.parse(dead.stderr).error;
    assert.match(envelope.message, /code 20064/);
    assert.equal(envelope.recovery.command, "hark auth login --profile work");

    // Remembered: the local view, the token and the scope check agree, without asking again.
    await world.clearRequests();
    const remembered = await status("--offline");
    assert.equal(remembered.code, 3);
    assert.equal(JSON.parse(remembered.stdout).state, "needs_login");
    for (
      const args of [
        ["auth", "token", "--profile", "work"],
        ["auth", "check", "--scope", "calendar:calendar:read", "--profile", "work"],
      ]
    ) {
      const run = await world.runInProcess([...args, "--json"]);
      assert.equal(run.code, 3, `${args.join(" ")}: ${run.stdout}${run.stderr}`);
      assert.equal(JSON.parse(run.stderr).error.recovery.command, "hark auth login --profile work");
    }
    assert.deepEqual(await world.requestLog(), [], "the remembered state asked nothing");

    // A new sign-in clears it.
    assert.equal((await world.signIn({ profile: "work", openId })).code, 0);
    assert.equal(JSON.parse((await status()).stdout).state, "valid");
  } finally {
    await world.close();
  }
});

Deno.test("auth status shows the local view, saying so, when the service cannot be asked", async () => {
  const world = await startWorld();
  try {
    assert.equal((await world.signIn()).code, 0);
    await world.control("/sandbox/faults", {
      route: "/open-apis/authen/v1/user_info",
      kind: "status",
      status: 503,
    });
    await world.clearRequests();
    const run = await world.runInProcess(["auth", "status", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      [JSON.parse(run.stdout).state, JSON.parse(run.stdout).checked],
      ["valid", "local"],
    );
    assert.match(
      run.stderr,
      /warning: Could not ask the service \(.*503.*\): this is the local view/,
    );
    const asked = (await world.requestLog()).filter((r) => r.path.endsWith("/user_info"));
    assert.ok(asked.length <= 2, "one call, retried at most once");
  } finally {
    await world.close();
  }
});
