/**
 * Issue 12, item 4: tokens stay with the service that issued them. Each test signs in against
 * the sandbox (or holds an environment token), then points hark at a hostile server on
 * 127.0.0.1 and checks that no credential ever reaches it, that plain HTTP to another machine
 * needs an explicit allowance (and warns every time), and that an environment token goes only
 * to HARK_BASE_URL.
 *
 * The runs are in process ({@link runInProcess}: the same command code, config, file keychain,
 * environment and network as a hark process, no Deno start-up): what they check is where hark
 * sends a credential and what it answers, which the process adds nothing to. One run stays a
 * real hark process, as the wiring: the first refusal of a moved base_url.
 */

import assert from "node:assert/strict";
import { dirname } from "node:path";
import { createHarkEnv, type HarkRun } from "../support/hark_env.ts";
import { sandboxUserToken } from "../support/sandbox_token.ts";
import { startSandbox } from "../../sandbox/mod.ts";
import { runInProcess, startWorld } from "../support/world.ts";
import { larkOk, startHostileServer } from "./_hostile_server.ts";

const USER_INFO = ["api", "GET", "/open-apis/authen/v1/user_info", "--json"];

function envelope(run: HarkRun) {
  return JSON.parse(run.stderr.trim().split("\n").at(-1)!).error;
}

Deno.test("a stored sign-in is never sent to a base_url that did not issue it", async () => {
  const world = await startWorld();
  const hostile = startHostileServer(() => larkOk({ open_id: "ou_evil" }));
  try {
    // A token within 5 minutes of expiry: every command would refresh it first.
    const login = await world.signIn({ accessTokenTtl: 60 });
    assert.equal(login.code, 0, login.stderr);
    const moved = await world.runInProcess(["config", "set", "apps.default.base_url", hostile.url]);
    assert.equal(moved.code, 0, moved.stderr);

    // The first as a real hark process (the wiring), the others in process (the same code).
    for (
      const [i, args] of [
        USER_INFO,
        ["calendar", "+agenda", "--json"],
        ["im", "+send", "--chat-id", world.sb.chats[0].chat_id, "--text", "hi", "--json"],
        ["auth", "token", "--json"],
      ].entries()
    ) {
      const run = i === 0 ? await world.run(args) : await world.runInProcess(args);
      assert.equal(run.code, 3, `${args.join(" ")}: ${run.stderr}`);
      const error = envelope(run);
      assert.match(error.message, /its token was issued by "http:\/\/127\.0\.0\.1:\d+"/);
      assert.equal(error.recovery.command, "hark auth login");
    }
    const status = await world.runInProcess(["auth", "status", "--json"]);
    assert.equal(status.code, 3);
    assert.match(JSON.parse(status.stdout).reason, /issued by/);
    // Neither the access token nor the refresh token went anywhere.
    assert.equal(hostile.received.length, 0, hostile.transcript());

    // Pointed back at the issuer, the sign-in works again (and refreshes there).
    await world.runInProcess(["config", "set", "apps.default.base_url", world.sb.baseUrl]);
    const back = await world.runInProcess(USER_INFO);
    assert.equal(back.code, 0, back.stderr);
    assert.equal(JSON.parse(back.stdout).open_id, world.sb.users[0].open_id);
  } finally {
    await hostile.close();
    await world.close();
  }
});

Deno.test("HARK_BASE_URL elsewhere does not receive a stored sign-in either", async () => {
  const world = await startWorld();
  const hostile = startHostileServer(() => larkOk({}));
  try {
    assert.equal((await world.signIn()).code, 0);
    const run = await world.runInProcess(USER_INFO, { env: { HARK_BASE_URL: hostile.url } });
    assert.equal(run.code, 3, run.stderr);
    assert.match(envelope(run).message, /HARK_BASE_URL changed since the sign-in/);
    assert.equal(hostile.received.length, 0, hostile.transcript());
  } finally {
    await hostile.close();
    await world.close();
  }
});

Deno.test("an environment token goes only to HARK_BASE_URL, never where a config points", async () => {
  const hostile = startHostileServer(() => larkOk({ open_id: "ou_evil" }));
  const home = await createHarkEnv();
  try {
    await Deno.mkdir(dirname(home.configPath), { recursive: true });
    await Deno.writeTextFile(
      home.configPath,
      JSON.stringify({ apps: { default: { app_id: "cli_x", base_url: hostile.url } } }),
    );
    const token = "u-environment-token-0123456789";
    const run = await runInProcess(home, USER_INFO, { env: { HARK_USER_ACCESS_TOKEN: token } });
    assert.equal(run.code, 3, run.stderr);
    const error = envelope(run);
    assert.match(error.message, /goes only to HARK_BASE_URL, which is not set/);
    assert.ok(error.recovery.suggestion.includes(`HARK_BASE_URL=${hostile.url}`));
    assert.equal(hostile.received.length, 0, hostile.transcript());

    // Named by HARK_BASE_URL, the same server is the token's service.
    const named = await runInProcess(home, USER_INFO, {
      env: { HARK_USER_ACCESS_TOKEN: token, HARK_BASE_URL: hostile.url },
    });
    assert.equal(named.code, 0, named.stderr);
    assert.equal(hostile.received.length, 1);
    assert.equal(hostile.received[0].headers.authorization, `Bearer ${token}`);
  } finally {
    await hostile.close();
    await home.cleanup();
  }
});

Deno.test("plain HTTP to another machine is refused unless allowed, then warned every time", async () => {
  const hostile = startHostileServer(() => larkOk({ open_id: "ou_1" }));
  const home = await createHarkEnv();
  // 0.0.0.0 reaches this machine but is not a loopback name: hark treats it as another host.
  const remote = `http://0.0.0.0:${hostile.port}`;
  const env = { HARK_USER_ACCESS_TOKEN: "u-insecure-token-0123", HARK_BASE_URL: remote };
  try {
    const refused = await runInProcess(home, USER_INFO, { env });
    assert.equal(refused.code, 2, refused.stderr);
    const error = envelope(refused);
    assert.match(error.message, /Refusing plain HTTP to "0\.0\.0\.0:\d+" \(HARK_BASE_URL\)/);
    assert.match(error.recovery.suggestion, /--allow-insecure-http/);
    assert.equal(hostile.received.length, 0, hostile.transcript());

    for (let i = 0; i < 2; i++) {
      const allowed = await runInProcess(home, [...USER_INFO, "--allow-insecure-http"], { env });
      assert.equal(allowed.code, 0, allowed.stderr);
      assert.match(allowed.stderr, /^warning: http:\/\/0\.0\.0\.0:\d+ is plain HTTP to another/m);
    }
    assert.equal(hostile.received.length, 2);

    // The config's allowance works the same way, warning too.
    await Deno.mkdir(dirname(home.configPath), { recursive: true });
    await Deno.writeTextFile(
      home.configPath,
      JSON.stringify({ apps: { default: { allow_insecure_http: true } } }),
    );
    const byConfig = await runInProcess(home, USER_INFO, { env });
    assert.equal(byConfig.code, 0, byConfig.stderr);
    assert.match(byConfig.stderr, /warning: .* is plain HTTP to another machine/);
  } finally {
    await hostile.close();
    await home.cleanup();
  }
});

Deno.test("HARK_BASE_URL with HARK_USER_ACCESS_TOKEN reaches a service with no config file", async () => {
  const sb = await startSandbox({ quiet: true });
  const home = await createHarkEnv();
  try {
    const { accessToken } = await sandboxUserToken(sb);
    const env = { HARK_USER_ACCESS_TOKEN: accessToken, HARK_BASE_URL: sb.baseUrl, TZ: "UTC" };
    const info = await runInProcess(home, USER_INFO, { env });
    assert.equal(info.code, 0, info.stderr);
    assert.equal(JSON.parse(info.stdout).open_id, sb.users[0].open_id);
    const agenda = await runInProcess(home, ["calendar", "+agenda", "--json"], { env });
    assert.equal(agenda.code, 0, agenda.stderr);
    assert.equal(await Deno.stat(home.configPath).catch(() => undefined), undefined);
  } finally {
    await home.cleanup();
    await sb.close();
  }
});

Deno.test("the config's app secret never goes to a HARK_BASE_URL other than the profile's service", async () => {
  const world = await startWorld();
  const hostile = startHostileServer(() =>
    Response.json({ code: 0, msg: "ok", tenant_access_token: "t-evil-0001", expire: 7200 })
  );
  try {
    assert.equal((await world.signIn()).code, 0);
    const away = { HARK_BASE_URL: hostile.url };
    for (
      const args of [
        ["calendar", "+agenda", "--as", "bot", "--json"],
        ["api", "GET", "/open-apis/im/v1/chats", "--as", "bot", "--json"],
        ["auth", "login", "--no-wait", "--json"],
      ]
    ) {
      const run = await world.runInProcess(args, { env: away });
      assert.equal(run.code, 3, `${args.join(" ")}: ${run.stderr}`);
      const error = envelope(run);
      assert.equal(error.type, "auth");
      assert.ok(error.message.includes(`"${hostile.url}" (HARK_BASE_URL)`), error.message);
      assert.ok(error.message.includes(`"${world.sb.baseUrl}"`), error.message);
      assert.match(error.recovery.suggestion, /Unset HARK_BASE_URL/);
      assert.match(error.recovery.suggestion, /HARK_TENANT_ACCESS_TOKEN/);
    }
    assert.equal(hostile.received.length, 0, hostile.transcript());

    // HARK_BASE_URL naming the profile's own service is no change.
    const same = await world.runInProcess(["calendar", "+agenda", "--as", "bot", "--json"], {
      env: { HARK_BASE_URL: world.sb.baseUrl },
    });
    assert.equal(same.code, 0, same.stderr);

    // Credentials given in the environment go where HARK_BASE_URL says.
    const fromEnv = await world.runInProcess([
      "api",
      "GET",
      "/open-apis/im/v1/chats",
      "--as",
      "bot",
    ], {
      env: { ...away, HARK_APP_ID: "cli_env", HARK_APP_SECRET: "env-secret-0001" },
    });
    assert.equal(fromEnv.code, 0, fromEnv.stderr);
    assert.match(hostile.transcript(), /env-secret-0001/);
    assert.doesNotMatch(hostile.transcript(), new RegExp(world.sb.appSecret));
  } finally {
    await hostile.close();
    await world.close();
  }
});
