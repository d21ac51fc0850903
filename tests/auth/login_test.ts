import assert from "node:assert/strict";
import { FileKeychain } from "../../src/keychain/file_keychain.ts";
import { createTestContext } from "../../src/testing/test_context.ts";
import { realFileSystem } from "../../src/runtime/real_context.ts";
import { TEST_KEYCHAIN_PASSWORD } from "../support/hark_env.ts";
import { type AuthWorld, loginApproved, requestLog, startWorld } from "./_support.ts";

function keychainOf(world: AuthWorld): FileKeychain {
  const ctx = {
    ...createTestContext({
      env: {
        HARK_DATA_DIR: world.env.env.HARK_DATA_DIR,
        HARK_KEYCHAIN_PASSWORD: TEST_KEYCHAIN_PASSWORD,
      },
    }),
    fs: realFileSystem,
  };
  return new FileKeychain(ctx);
}

Deno.test("auth login signs in through the sandbox API, then status, check, token and logout work", async () => {
  const world = await startWorld();
  try {
    const login = await loginApproved(world);
    assert.equal(login.code, 0, login.stderr);
    const result = JSON.parse(login.stdout);
    assert.equal(result.profile, "default");
    assert.equal(result.user.open_id, world.sb.users[0].open_id);
    assert.ok(result.scopes.includes("im:message.send_as_user"));
    assert.match(login.stderr, /\/sandbox\/verify/);

    const log = await requestLog(world.sb);
    const device = log.find((r) => r.path === "/oauth/v1/device_authorization");
    assert.ok(device?.body?.scope?.split(" ").includes("offline_access"));
    assert.ok(log.some((r) => r.path === "/open-apis/authen/v1/user_info"));

    const config = await world.env.readConfig() as {
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

    const status = await world.env.run(["auth", "status", "--json"]);
    assert.equal(status.code, 0, status.stderr);
    const report = JSON.parse(status.stdout);
    assert.equal(report.state, "valid");
    assert.equal(report.source, "keychain");
    assert.equal(report.user.name, world.sb.users[0].name);
    assert.ok(!status.stdout.includes(stored.access_token), "status never prints the token");

    const token = await world.env.run(["auth", "token"]);
    assert.equal(token.code, 0);
    assert.equal(token.stdout, `${stored.access_token}\n`);

    const granted = await world.env.run([
      "auth",
      "check",
      "--scope",
      "im:message.send_as_user,calendar:calendar.event:read",
      "--json",
    ]);
    assert.equal(granted.code, 0, granted.stderr);
    assert.deepEqual(JSON.parse(granted.stdout).missing, []);
    const missing = await world.env.run([
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

    const logout = await world.env.run(["auth", "logout"]);
    assert.equal(logout.code, 0);
    assert.equal(await keychainOf(world).get(tokenPath), undefined);
    assert.equal(
      "default" in (await world.env.readConfig() as { users: object }).users,
      false,
    );
    const again = await world.env.run(["auth", "logout", "--json"]);
    assert.equal(again.code, 0);
    assert.deepEqual(JSON.parse(again.stdout).keychain_entries, []);
    const after = await world.env.run(["auth", "status", "--json"]);
    assert.equal(after.code, 3);
    assert.equal(JSON.parse(after.stdout).state, "signed_out");
  } finally {
    await world.close();
  }
});

Deno.test("auth login --no-wait prints the device data, and --device-code finishes the sign-in", async () => {
  const world = await startWorld();
  try {
    const started = await world.env.run([
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
      (await requestLog(world.sb)).filter((r) => r.path.endsWith("/oauth/token")).length,
      0,
    );
    // Piped, the data is JSON on stdout; people read the instructions on stderr.
    const piped = await world.env.run(["auth", "login", "--no-wait"]);
    assert.ok(JSON.parse(piped.stdout).device_code);
    assert.match(piped.stderr, /enter the code: \S+/);
    assert.match(piped.stderr, /hark auth login --device-code <device_code>/);
    const human = await world.env.run(["auth", "login", "--no-wait", "--format", "table"]);
    assert.match(human.stdout, /hark auth login --device-code \S+/);

    const approved = await fetch(`${world.sb.baseUrl}/sandbox/approve`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ user_code: data.user_code, decision: "approve" }),
    });
    assert.equal(approved.status, 200);
    await approved.body?.cancel();
    const finished = await world.env.run([
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
    const status = await world.env.run(["auth", "status", "--json"]);
    assert.equal(JSON.parse(status.stdout).state, "valid");
  } finally {
    await world.close();
  }
});
