/**
 * Issue 12, items 1 and 2, end to end: a hostile service on 127.0.0.1 (it signs the user in,
 * then turns on them) redirects credential-carrying requests to a second server and sends text
 * made to drive the terminal. No credential may reach the second server, no redirect may turn a
 * POST into a GET, and no control or bidi character from the network may reach stderr raw.
 * (The fixes are in `src/http/transport.ts` and `src/output/terminal_safe.ts`.)
 */

import assert from "node:assert/strict";
import { createHarkEnv, type HarkRun } from "../support/hark_env.ts";
import { runInProcess, sandboxConfig } from "../support/world.ts";
import { larkOk, startHostileServer } from "./_hostile_server.ts";

/** Retitles the terminal, clears the screen, paints red, and reverses the text after it. */
const ATTACK = "\x1b]0;pwned\x07\x1b[2J\x1b[31mFAKE BANNER\u202eemaNliveE\x9b";

function assertNoControls(text: string, what: string): void {
  // deno-lint-ignore no-control-regex
  const raw = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f]/.exec(text);
  assert.equal(raw, null, `${what} holds a raw control character: ${JSON.stringify(text)}`);
}

Deno.test("a hostile service's redirects and terminal escapes reach nothing", async () => {
  const thief = startHostileServer(() => larkOk({ stolen: true }));
  const service = startHostileServer((request, body) => {
    const path = new URL(request.url).pathname;
    const away = (status: number) =>
      new Response(null, { status, headers: { location: `${thief.url}/steal${path}` } });
    if (path === "/oauth/v1/device_authorization") {
      return Response.json({
        device_code: "dc-hostile-device-code-000",
        user_code: "EVIL-CODE",
        verification_uri: `${service.url}/verify`,
        expires_in: 60,
        interval: 1,
      });
    }
    if (path === "/open-apis/authen/v2/oauth/token") {
      const grant = new URLSearchParams(body).get("grant_type");
      if (grant === "refresh_token") return away(307);
      return Response.json({
        access_token: "u-hostile-access-token-0001",
        refresh_token: "ur-hostile-refresh-token-0001",
        expires_in: 60,
        refresh_token_expires_in: 3600,
        token_type: "Bearer",
        scope: "im:message.send_as_user offline_access",
      });
    }
    if (path === "/open-apis/authen/v1/user_info") {
      return larkOk({ open_id: "ou_hostile", name: `Mallory ${ATTACK}` });
    }
    if (path === "/open-apis/auth/v3/tenant_access_token/internal") return away(307);
    if (path === "/open-apis/im/v1/messages") return away(302);
    return Response.json({ code: 1234, msg: `Denied ${ATTACK}` }, { status: 400 });
  });
  // A deployment the user trusted, turned hostile: its answers are what is under test.
  const home = await createHarkEnv({
    HARK_TEST_APP_SECRET: "hostile-app-secret-0001",
    HARK_TRUSTED_ORIGINS: service.url,
  });
  try {
    await home.writeConfig(sandboxConfig({ appId: "cli_hostile", baseUrl: service.url }));
    const runs: HarkRun[] = [];
    // Sign in (the hostile service approves at once), in text mode: "Signed in as <name>". In
    // process: the device flow's 5 s before the first poll is not this test's subject.
    const login = await runInProcess(home, ["auth", "login", "--format", "table"]);
    runs.push(login);
    assert.equal(login.code, 0, login.stderr);
    assert.match(login.stderr, /Signed in as Mallory /);

    // The refresh's 307 would carry the refresh token and the app secret to the thief.
    const refresh = await home.run(["auth", "token", "--json"]);
    runs.push(refresh);
    assert.equal(refresh.code, 1, refresh.stderr);
    const refused = JSON.parse(refresh.stderr).error;
    assert.equal(refused.type, "redirect");
    assert.ok(refused.message.includes(`${thief.url}/steal`), refused.message);

    // The tenant token's 307 would carry the app secret.
    const bot = await home.run(["api", "GET", "/open-apis/im/v1/chats", "--as", "bot"]);
    runs.push(bot);
    assert.notEqual(bot.code, 0);

    // A 302 on a send must not become a GET that "succeeds".
    const send = await home.run(
      ["im", "+send", "--chat-id", "oc_1", "--text", "hi", "--json"],
      { env: { HARK_USER_ACCESS_TOKEN: "u-env-token-0000000001", HARK_BASE_URL: service.url } },
    );
    runs.push(send);
    assert.equal(send.code, 1, send.stderr);
    assert.equal(JSON.parse(send.stderr).error.type, "redirect");
    const posts = service.received.filter((r) => r.path.startsWith("/open-apis/im/v1/messages"));
    assert.deepEqual(posts.map((r) => r.method), ["POST"]);

    // The service's error text, shown as text on stderr.
    const denied = await home.run(["api", "GET", "/open-apis/anything"], {
      env: { HARK_USER_ACCESS_TOKEN: "u-env-token-0000000001", HARK_BASE_URL: service.url },
    });
    runs.push(denied);
    assert.equal(denied.code, 1);
    assert.match(denied.stderr, /Denied \\x1b\]0;pwned\\x07/);

    assert.equal(thief.received.length, 0, thief.transcript());
    for (const run of runs) assertNoControls(run.stderr, "stderr");
  } finally {
    await home.cleanup();
    await service.close();
    await thief.close();
  }
});
