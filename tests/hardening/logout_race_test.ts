/**
 * Issue 12, item 6: `auth logout` while another hark process refreshes the token must not bring
 * the session back. The sandbox holds the refresh answer for a few seconds; the sign-out runs
 * meanwhile; afterwards the profile is signed out and no token is left in the keychain.
 *
 * The refresh and the sign-out are real hark processes (the race is between processes); what is
 * left afterwards is read in process (`runInProcess`: the same commands on the same config and
 * file keychain).
 */

import assert from "node:assert/strict";
import { control, requestLog, startWorld } from "../support/world.ts";

const TOKEN_PATH = "/open-apis/authen/v2/oauth/token";

Deno.test("auth logout during a refresh in another process leaves the profile signed out", async () => {
  const world = await startWorld();
  try {
    // A token within 5 minutes of expiry: the next command refreshes it first.
    const login = await world.signIn({ accessTokenTtl: 60 });
    assert.equal(login.code, 0, login.stderr);
    await control(world.sb, "/sandbox/faults", [
      { route: `POST ${TOKEN_PATH}`, kind: "latency", ms: 3000, times: 1 },
    ]);
    const refreshing = world.start(["auth", "token"]);
    // Wait until the refresh request is at the token endpoint (held there by the latency).
    const deadline = Date.now() + 15_000;
    for (;;) {
      const log = await requestLog(world.sb);
      if (log.some((r) => r.path === TOKEN_PATH && r.body?.grant_type === "refresh_token")) break;
      assert.ok(Date.now() < deadline, "the refresh never reached the token endpoint");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const logout = await world.run(["auth", "logout", "--json"]);
    assert.equal(logout.code, 0, logout.stderr);
    const refreshed = await refreshing.done;
    // Whichever way the refresh ended, the sign-out wins.
    assert.ok([0, 3].includes(refreshed.code), refreshed.stderr);

    const status = await world.runInProcess(["auth", "status", "--json"]);
    assert.equal(status.code, 3, `the session came back: ${status.stdout}`);
    assert.equal(JSON.parse(status.stdout).state, "signed_out");
    const token = await world.runInProcess(["auth", "token"]);
    assert.equal(token.code, 3, token.stdout);
  } finally {
    await world.close();
  }
});
