/**
 * `hark auth login` end to end: one real sign-in through the CLI subprocess and real `auth
 * status` runs after it (the wiring of the device flow, the keychain, the config and TZ); the
 * other `status`, `token`, `check` and `logout` runs after it, and the `--no-wait`,
 * `--device-code` and `--wait` paths, in process on a clock that does not wait (`--no-wait` once
 * as a process too). The timing rules themselves (5 s before the first poll, slow_down, expiry)
 * are `src/auth/device_flow_test.ts`'s; the wait bounds are `src/cli/auth/login_test.ts`'s.
 */

import assert from "node:assert/strict";
import { homeKeychain, startWorld, type World } from "../support/world.ts";

function keychainOf(world: World) {
  return homeKeychain(world.home);
}

Deno.test("auth login signs in through the sandbox API, then status, check, token and logout work", async () => {
  const world = await startWorld();
  try {
    const live = world.start(["auth", "login", "--json", "--wait", "5m"]);
    const [, userCode] = await live.waitFor(/enter the code: (\S+)/);
    const answer = await world.control("/sandbox/approve", {
      user_code: userCode,
      decision: "approve",
    });
    assert.equal(answer.ok, true, JSON.stringify(answer));
    const login = await live.done;
    assert.equal(login.code, 0, login.stderr);
    const result = JSON.parse(login.stdout);
    assert.equal(result.profile, "default");
    assert.equal(result.user.open_id, world.sb.users[0].open_id);
    assert.ok(result.scopes.includes("im:message.send_as_user"));
    assert.match(login.stderr, /\/sandbox\/verify/);

    const log = await world.requestLog();
    const device = log.find((r) => r.path === "/oauth/v1/device_authorization");
    assert.ok(device?.body?.scope?.split(" ").includes("offline_access"));
    assert.ok(log.some((r) => r.path === "/open-apis/authen/v1/user_info"));

    const config = await world.home.readConfig() as {
      keychain_namespace: string;
      users: Record<string, Record<string, unknown>>;
    };
    // The config is not at the default path: its entries carry its own namespace.
    const tokenPath = `hark/${config.keychain_namespace}/default/user_token`;
    const user = config.users.default;
    assert.equal(user.access_token, `@keychain:${tokenPath}`);
    assert.equal(user.user_type, "user");
    assert.equal(user.open_id, world.sb.users[0].open_id);
    assert.ok(!JSON.stringify(config).includes("u-"), "no token in the config");
    const stored = JSON.parse((await keychainOf(world).get(tokenPath))!);
    assert.match(stored.access_token, /^u-/);
    assert.equal(stored.origin, new URL(world.sb.baseUrl).origin, "bound to its issuer");

    const status = await world.home.run(["auth", "status", "--json"]);
    assert.equal(status.code, 0, status.stderr);
    const report = JSON.parse(status.stdout);
    assert.equal(report.state, "valid");
    assert.equal(report.source, "keychain");
    assert.equal(report.user.name, world.sb.users[0].name);
    assert.ok(!status.stdout.includes(stored.access_token), "status never prints the token");
    // Times as every command shows them: RFC 3339 with the user's offset.
    const zoned = await world.home.run(["auth", "status", "--json"], {
      env: { TZ: "Asia/Shanghai" },
    });
    const zonedReport = JSON.parse(zoned.stdout);
    assert.match(zonedReport.expires_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/);
    assert.match(zonedReport.refresh_expires_at, /\+08:00$/);
    assert.ok(Math.abs(Date.parse(zonedReport.expires_at) - stored.expires_at) < 1000);
    assert.match(result.expires_at, /[+-]\d\d:\d\d$/, "the sign-in's own result too");

    const token = await world.runInProcess(["auth", "token"]);
    assert.equal(token.code, 0);
    assert.equal(token.stdout, `${stored.access_token}\n`, "piped, the bare token");
    const tokenJson = await world.runInProcess(["auth", "token", "--json"], { env: { TZ: "UTC" } });
    assert.equal(tokenJson.code, 0, tokenJson.stderr);
    const described = JSON.parse(tokenJson.stdout);
    assert.deepEqual(Object.keys(described), ["access_token", "expires_at", "identity"]);
    assert.equal(described.access_token, stored.access_token);
    assert.equal(described.identity, "user");
    assert.ok(Math.abs(Date.parse(described.expires_at) - stored.expires_at) < 1000);
    assert.match(described.expires_at, /\+00:00$/, "RFC 3339 with the zone's offset");

    const granted = await world.runInProcess([
      "auth",
      "check",
      "--scope",
      "im:message.send_as_user,calendar:calendar.event:read",
      "--json",
    ]);
    assert.equal(granted.code, 0, granted.stderr);
    assert.deepEqual(JSON.parse(granted.stdout).missing, []);
    const missing = await world.runInProcess([
      "auth",
      "check",
      "--scope",
      "drive:drive:readonly",
      "--json",
    ]);
    assert.equal(missing.code, 1);
    const envelope = JSON.parse(missing.stderr).error;
    assert.equal(envelope.type, "permission");
    assert.equal(envelope.recovery.command, "hark auth login --scope drive:drive:readonly");

    const logout = await world.runInProcess(["auth", "logout"]);
    assert.equal(logout.code, 0);
    assert.equal(await keychainOf(world).get(tokenPath), undefined);
    assert.equal(
      "default" in (await world.home.readConfig() as { users: object }).users,
      false,
    );
    const again = await world.runInProcess(["auth", "logout", "--json"]);
    assert.equal(again.code, 0);
    assert.deepEqual(JSON.parse(again.stdout).keychain_entries, []);
    const after = await world.runInProcess(["auth", "status", "--json"]);
    assert.equal(after.code, 3);
    assert.equal(JSON.parse(after.stdout).state, "signed_out");
  } finally {
    await world.close();
  }
});

Deno.test("auth login --no-wait prints the device data, and --device-code finishes the sign-in", async () => {
  const world = await startWorld();
  try {
    const started = await world.home.run([
      "auth",
      "login",
      "--no-wait",
      "--json",
      "--scope",
      "im:message.send_as_user",
    ]);
    assert.equal(started.code, 0, started.stderr);
    const data = JSON.parse(started.stdout);
    for (const key of ["device_code", "user_code", "verification_uri", "expires_in", "interval"]) {
      assert.ok(data[key] !== undefined, key);
    }
    assert.equal(
      (await world.requestLog()).filter((r) => r.path.endsWith("/oauth/token")).length,
      0,
    );
    // Piped, the data is JSON on stdout; people read the instructions on stderr.
    const piped = await world.runInProcess(["auth", "login", "--no-wait"]);
    assert.ok(JSON.parse(piped.stdout).device_code);
    assert.match(piped.stderr, /enter the code: \S+/);
    assert.match(piped.stderr, /hark auth login --device-code <device_code>/);
    const human = await world.runInProcess(["auth", "login", "--no-wait", "--format", "table"]);
    assert.match(human.stdout, /hark auth login --device-code \S+/);

    const approved = await fetch(`${world.sb.baseUrl}/sandbox/approve`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ user_code: data.user_code, decision: "approve" }),
    });
    assert.equal(approved.status, 200);
    await approved.body?.cancel();
    const finished = await world.runInProcess([
      "auth",
      "login",
      "--device-code",
      data.device_code,
      "--json",
    ]);
    assert.equal(finished.code, 0, finished.stderr);
    assert.deepEqual(JSON.parse(finished.stdout).scopes, [
      "im:message.send_as_user",
      "offline_access",
    ]);
    const status = await world.runInProcess(["auth", "status", "--json"]);
    assert.equal(JSON.parse(status.stdout).state, "valid");
  } finally {
    await world.close();
  }
});

Deno.test("auth login --device-code without a terminal polls once: exit 75 pending, then done", async () => {
  // Interval 0: the sandbox's slow_down does not answer two polls that come at once in real time.
  const world = await startWorld({ sandbox: { interval: 0 } });
  try {
    const started = await world.home.run(["auth", "login", "--no-wait", "--json"]);
    const { device_code, user_code } = JSON.parse(started.stdout);
    const polls = async () =>
      (await world.requestLog()).filter((r) => r.path.endsWith("/oauth/token")).length;

    const pending = await world.runInProcess([
      "auth",
      "login",
      "--device-code",
      device_code,
      "--json",
    ]);
    assert.equal(pending.code, 75, pending.stderr);
    const waited = pending.sleeps.reduce((sum, ms) => sum + ms, 0);
    assert.equal(waited, 5_000, "one wait and one poll, not the code's ten minutes");
    assert.equal(await polls(), 1);
    const state = JSON.parse(pending.stdout);
    assert.equal(state.state, "pending");
    assert.equal(state.device_code, device_code);
    assert.match(state.expires_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    const envelope = JSON.parse(pending.stderr.split("\n").find((l) => l.startsWith("{"))!);
    assert.equal(envelope.error.code, 75);
    assert.equal(envelope.error.type, "pending");
    assert.equal(
      envelope.error.recovery.command,
      `hark auth login --device-code ${device_code}`,
    );
    assert.equal((await world.home.readConfig()).users, undefined, "nothing stored");

    // Approved meanwhile: the same command finishes the sign-in.
    await world.control("/sandbox/approve", { user_code, decision: "approve" });
    const done = await world.runInProcess([
      "auth",
      "login",
      "--device-code",
      device_code,
      "--json",
    ]);
    assert.equal(done.code, 0, done.stderr);
    assert.ok(JSON.parse(done.stdout).user.open_id);
    assert.equal(await polls(), 2);
  } finally {
    await world.close();
  }
});

Deno.test("auth login --wait bounds the wait, in CI too, and the pending sign-in can be finished", async () => {
  // Interval 0: the sandbox's slow_down does not answer polls that come at once in real time.
  const world = await startWorld({ sandbox: { interval: 0 } });
  try {
    const run = await world.runInProcess(["auth", "login", "--wait", "7s", "--json"], {
      env: { CI: "true" },
    });
    const waited = run.sleeps.reduce((sum, ms) => sum + ms, 0);
    assert.equal(run.code, 75, run.stderr);
    assert.ok(waited >= 7_000 && waited <= 12_000, `waited ${waited} ms for --wait 7s`);
    // The first poll comes after 5 s (the spec's floor), then one more fits in the 7 s.
    const polls = (await world.requestLog()).filter((r) => r.path.endsWith("/oauth/token"));
    assert.equal(polls.length, 2);
    const { device_code } = JSON.parse(run.stdout);
    const [, userCode] = /enter the code: (\S+)/.exec(run.stderr)!;
    await world.control("/sandbox/approve", { user_code: userCode, decision: "approve" });
    const done = await world.runInProcess([
      "auth",
      "login",
      "--device-code",
      device_code,
      "--json",
    ]);
    assert.equal(done.code, 0, done.stderr);

    const bad = await world.runInProcess(["auth", "login", "--wait", "soon"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Invalid --wait "soon"/);
  } finally {
    await world.close();
  }
});

Deno.test("auth login --device-code first waits the interval the server gave --no-wait", async () => {
  // 7 s, more than hark's own 5 s: only the interval --no-wait saved can make the first wait 7 s.
  const world = await startWorld({ sandbox: { interval: 7 } });
  try {
    const started = await world.runInProcess(["auth", "login", "--no-wait", "--json"]);
    assert.equal(started.code, 0, started.stderr);
    const { device_code, user_code, interval } = JSON.parse(started.stdout);
    assert.equal(interval, 7);
    await world.control("/sandbox/approve", { user_code, decision: "approve" });
    const done = await world.runInProcess([
      "auth",
      "login",
      "--device-code",
      device_code,
      "--json",
    ]);
    assert.equal(done.code, 0, done.stderr);
    assert.equal(done.sleeps.reduce((sum, ms) => sum + ms, 0), 7_000);
  } finally {
    await world.close();
  }
});
