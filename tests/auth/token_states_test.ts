import assert from "node:assert/strict";
import { startWorld } from "../support/world.ts";

// A lifetime of 1 ms: the sandbox announces 0 s, so the token is past its expiry at once.
const PROFILES = {
  fresh: { accessTokenTtl: 3600 },
  soon: { accessTokenTtl: 200 },
  stale: { accessTokenTtl: 0.001 },
  dead: { accessTokenTtl: 0.001, refreshTokenTtl: 0.001 },
};

// The two refreshes at once run as real hark processes (two processes spend a refresh token
// once); the status reads, the refusals and the refreshes one after the other run the same
// command code, config and file keychain in process.
Deno.test("token states: status in every state, refresh with rotation, expiry and single spending", async () => {
  // "nobody" has an app but never signs in.
  const world = await startWorld({ profiles: [...Object.keys(PROFILES), "nobody"] });
  try {
    const logins = await Promise.all(
      Object.entries(PROFILES).map(([profile, ttl]) => world.signIn({ profile, ...ttl })),
    );
    for (const login of logins) assert.equal(login.code, 0, login.stderr);

    // The stored sign-in's own state (--offline): with a lifetime of 1 ms, asking the service
    // would find every refreshed token dead already.
    const status = async (profile: string) => {
      const run = await world.runInProcess([
        "auth",
        "status",
        "--json",
        "--offline",
        "--profile",
        profile,
      ]);
      return { code: run.code, report: JSON.parse(run.stdout) };
    };
    const [fresh, soon, stale, dead, none] = await Promise.all(
      ["fresh", "soon", "stale", "dead", "nobody"].map(status),
    );
    assert.deepEqual([fresh.code, fresh.report.state], [0, "valid"]);
    assert.deepEqual([soon.code, soon.report.state], [0, "needs_refresh"]);
    assert.deepEqual([stale.code, stale.report.state, stale.report.usable], [0, "expired", true]);
    assert.deepEqual([dead.code, dead.report.state, dead.report.usable], [3, "expired", false]);
    assert.deepEqual([none.code, none.report.state], [3, "signed_out"]);
    const unknown = await world.runInProcess(["auth", "status", "--json", "--profile", "nboody"]);
    assert.equal(unknown.code, 2, "a mistyped profile is a usage error, not a sign-in state");
    assert.equal(unknown.stdout, "");
    assert.match(JSON.parse(unknown.stderr).error.message, /^Unknown profile "nboody" .*nobody/);

    // Refresh on expiry, with rotation: the old refresh token no longer works.
    await world.clearRequests();
    const before = await world.runInProcess([
      "auth",
      "status",
      "--json",
      "--offline",
      "--profile",
      "stale",
    ]);
    assert.equal(JSON.parse(before.stdout).state, "expired");
    const token = await world.runInProcess(["auth", "token", "--profile", "stale"]);
    assert.equal(token.code, 0, token.stderr);
    assert.match(token.stdout, /^u-\S+\n$/);
    const refreshes = (await world.requestLog()).filter((r) =>
      r.body?.grant_type === "refresh_token"
    );
    assert.equal(refreshes.length, 1);
    const second = await world.runInProcess(["auth", "token", "--profile", "stale"]);
    assert.equal(second.code, 0, second.stderr);
    assert.notEqual(
      second.stdout,
      token.stdout,
      "a new access token from the rotated refresh token",
    );

    // The refresh token expired too: sign in again, exit 3, never silent.
    const expired = await world.runInProcess(["auth", "token", "--profile", "dead", "--json"]);
    assert.equal(expired.code, 3);
    const envelope = JSON.parse(expired.stderr).error;
    assert.match(envelope.message, /sign in again/);
    assert.equal(envelope.recovery.command, "hark auth login --profile dead");

    // Two processes refreshing the same token spend the refresh token once.
    await world.clearRequests();
    const [a, b] = await Promise.all([
      world.run(["auth", "token", "--profile", "soon"]),
      world.run(["auth", "token", "--profile", "soon"]),
    ]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    const spent = (await world.requestLog()).filter((r) => r.body?.grant_type === "refresh_token")
      .map((r) => r.body!.refresh_token);
    assert.equal(new Set(spent).size, spent.length, "no refresh token is spent twice");
    // Overlapping, the two share one refresh. A process that starts after the other finished
    // refreshes again, rightly: "soon" lives 200 s, so a new token is within the 5 minutes of
    // its expiry at once. Which happens is up to the machine's timing.
    assert.equal(spent.length, a.stdout === b.stdout ? 1 : 2);
    const refreshed = await world.runInProcess(["auth", "status", "--json", "--profile", "soon"]);
    assert.equal(JSON.parse(refreshed.stdout).state, "needs_refresh", "200 s lifetime again");
  } finally {
    await world.close();
  }
});
