import assert from "node:assert/strict";
import { withSandbox } from "../test_client.ts";

const SCOPE = "calendar:calendar.event:read offline_access";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("device authorization answers the RFC 8628 fields and records the scopes", async () => {
  await withSandbox({ interval: 0 }, async (sandbox, client) => {
    const answer = await client.deviceCode(SCOPE);
    assert.equal(answer.status, 200);
    assert.match(answer.body.user_code, /^[A-Z]{4}-[A-Z]{4}$/);
    assert.equal(answer.body.verification_uri, `${sandbox.baseUrl}/sandbox/verify`);
    assert.equal(
      answer.body.verification_uri_complete,
      `${sandbox.baseUrl}/sandbox/verify?user_code=${answer.body.user_code}`,
    );
    assert.equal(answer.body.expires_in, 600);
    assert.equal(answer.body.interval, 0);
    const approved = await client.json("POST", "/sandbox/approve", {
      user_code: answer.body.user_code.toLowerCase().replace("-", ""),
      decision: "approve",
    });
    assert.equal(approved.status, 200);
    assert.equal(approved.body.scope, SCOPE);
    const tokens = await client.poll(answer.body.device_code);
    assert.equal(tokens.status, 200);
    assert.equal(tokens.body.code, 0);
    assert.equal(tokens.body.token_type, "Bearer");
    assert.equal(tokens.body.scope, SCOPE);
    assert.equal(tokens.body.expires_in, 7200);
    assert.equal(tokens.body.refresh_token_expires_in, 2592000);
    assert.match(tokens.body.refresh_token, /^ur-/);
  });
});

Deno.test("device authorization rejects bad client authentication and JSON bodies", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const path = "/oauth/v1/device_authorization";
    const fields = { client_id: sandbox.appId, scope: SCOPE };
    const missing = await client.form(path, fields);
    assert.equal(missing.status, 401);
    assert.equal(missing.body.error, "invalid_client");
    const wrong = await client.form(path, fields, client.basic(sandbox.appId, "nope"));
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error, "invalid_client");
    const otherId = await client.form(path, { ...fields, client_id: "cli_other" }, client.basic());
    assert.equal(otherId.status, 400);
    assert.equal(otherId.body.error, "invalid_client");
    const asJson = await client.send("POST", path, {
      headers: { ...client.basic(), "content-type": "application/json" },
      body: JSON.stringify(fields),
    });
    assert.equal(asJson.status, 400);
    assert.equal(asJson.body.error, "invalid_request");
  });
});

Deno.test("Basic credentials are URL-decoded (RFC 6749 section 2.3.1)", async () => {
  await withSandbox({ appSecret: "p@ss:w rd%" }, async (sandbox, client) => {
    const answer = await client.form(
      "/oauth/v1/device_authorization",
      { client_id: sandbox.appId, scope: "" },
      client.basic(sandbox.appId, "p@ss:w rd%"),
    );
    assert.equal(answer.status, 200);
  });
});

Deno.test("a device code is pending, then slow_down when polled too fast", async () => {
  await withSandbox({ interval: 5 }, async (_sandbox, client) => {
    const { body } = await client.deviceCode(SCOPE);
    const first = await client.poll(body.device_code);
    assert.equal(first.status, 400);
    assert.equal(first.body.error, "authorization_pending");
    const second = await client.poll(body.device_code);
    assert.equal(second.status, 400);
    assert.equal(second.body.error, "slow_down");
    assert.match(second.body.error_description, /10 seconds/);
  });
});

Deno.test("a denied device code answers access_denied", async () => {
  await withSandbox({ interval: 0 }, async (_sandbox, client) => {
    const { body } = await client.deviceCode(SCOPE);
    const denied = await client.json("POST", "/sandbox/approve", {
      user_code: body.user_code,
      decision: "deny",
    });
    assert.equal(denied.status, 200);
    const poll = await client.poll(body.device_code);
    assert.equal(poll.status, 400);
    assert.equal(poll.body.error, "access_denied");
    const again = await client.json("POST", "/sandbox/approve", {
      user_code: body.user_code,
      decision: "approve",
    });
    assert.equal(again.status, 409);
  });
});

Deno.test("an expired device code answers expired_token", async () => {
  await withSandbox({ interval: 0, deviceCodeTtl: 0.2 }, async (_sandbox, client) => {
    const { body } = await client.deviceCode(SCOPE);
    await sleep(250);
    const poll = await client.poll(body.device_code);
    assert.equal(poll.status, 400);
    assert.equal(poll.body.error, "expired_token");
    const approve = await client.json("POST", "/sandbox/approve", {
      user_code: body.user_code,
      decision: "approve",
    });
    assert.equal(approve.body.error, "expired_token");
  });
});

Deno.test("auto-approve issues tokens on the poll after N pending ones", async () => {
  await withSandbox({ interval: 0, autoApproveAfter: 2 }, async (sandbox, client) => {
    const { body } = await client.deviceCode(SCOPE);
    assert.equal((await client.poll(body.device_code)).body.error, "authorization_pending");
    assert.equal((await client.poll(body.device_code)).body.error, "authorization_pending");
    const third = await client.poll(body.device_code);
    assert.equal(third.status, 200);
    const info = await client.send("GET", "/open-apis/authen/v1/user_info", {
      token: third.body.access_token,
    });
    assert.equal(info.body.data.open_id, sandbox.users[0].open_id);
  });
});

Deno.test("a device code that produced tokens is invalid_grant on reuse; unknown too", async () => {
  await withSandbox({ interval: 0, autoApproveAfter: 0 }, async (_sandbox, client) => {
    const { body } = await client.deviceCode(SCOPE);
    assert.equal((await client.poll(body.device_code)).status, 200);
    const reuse = await client.poll(body.device_code);
    assert.equal(reuse.status, 400);
    assert.equal(reuse.body.error, "invalid_grant");
    assert.equal((await client.poll("dc-unknown")).body.error, "invalid_grant");
  });
});

Deno.test("approval through the HTML page signs in the chosen user", async () => {
  await withSandbox({ interval: 0 }, async (sandbox, client) => {
    const { body } = await client.deviceCode("offline_access");
    const page = await client.send("GET", `/sandbox/verify?user_code=${body.user_code}`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type")!, /text\/html/);
    assert.match(page.text, new RegExp(`value="${body.user_code}"`));
    assert.match(page.text, /value="approve"/);
    assert.match(page.text, /value="deny"/);
    const chosen = sandbox.users[3];
    const posted = await client.form("/sandbox/verify", {
      user_code: body.user_code,
      open_id: chosen.open_id,
      decision: "approve",
    });
    assert.equal(posted.status, 200);
    assert.match(posted.text, /Approved/);
    const tokens = await client.poll(body.device_code);
    const info = await client.send("GET", "/open-apis/authen/v1/user_info", {
      token: tokens.body.access_token,
    });
    assert.equal(info.body.data.open_id, chosen.open_id);
    assert.equal(info.body.data.email, chosen.email);
    const unknown = await client.form("/sandbox/verify", {
      user_code: "ZZZZ-ZZZZ",
      decision: "approve",
    });
    assert.equal(unknown.status, 404);
    assert.match(unknown.text, /Unknown user code/);
  });
});

Deno.test("denial through the HTML page answers access_denied", async () => {
  await withSandbox({ interval: 0 }, async (_sandbox, client) => {
    const { body } = await client.deviceCode(SCOPE);
    const posted = await client.form("/sandbox/verify", {
      user_code: body.user_code,
      decision: "deny",
    });
    assert.match(posted.text, /Denied/);
    assert.equal((await client.poll(body.device_code)).body.error, "access_denied");
  });
});

Deno.test("refresh rotates: the old refresh token stops working", async () => {
  await withSandbox({ interval: 0, autoApproveAfter: 0 }, async (_sandbox, client) => {
    const { body } = await client.deviceCode(SCOPE);
    const first = (await client.poll(body.device_code)).body;
    const second = await client.refresh(first.refresh_token);
    assert.equal(second.status, 200);
    assert.notEqual(second.body.refresh_token, first.refresh_token);
    assert.notEqual(second.body.access_token, first.access_token);
    assert.equal(second.body.scope, SCOPE);
    const old = await client.refresh(first.refresh_token);
    assert.equal(old.status, 400);
    assert.equal(old.body.error, "invalid_grant");
    assert.equal(old.body.code, 20073);
    const info = await client.send("GET", "/open-apis/authen/v1/user_info", {
      token: second.body.access_token,
    });
    assert.equal(info.status, 200);
  });
});

Deno.test("no refresh token without offline_access", async () => {
  await withSandbox({ interval: 0, autoApproveAfter: 0 }, async (_sandbox, client) => {
    const { body } = await client.deviceCode("calendar:calendar.event:read");
    const tokens = await client.poll(body.device_code);
    assert.equal(tokens.status, 200);
    assert.equal(tokens.body.refresh_token, undefined);
  });
});

Deno.test("an expired refresh token is invalid_grant with code 20037", async () => {
  await withSandbox({ interval: 0 }, async (_sandbox, client) => {
    const { body } = await client.deviceCode(SCOPE);
    await client.json("POST", "/sandbox/approve", {
      user_code: body.user_code,
      decision: "approve",
      refresh_token_ttl: 0.2,
    });
    const tokens = (await client.poll(body.device_code)).body;
    assert.equal(tokens.refresh_token_expires_in, 0);
    await sleep(250);
    const answer = await client.refresh(tokens.refresh_token);
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error, "invalid_grant");
    assert.equal(answer.body.code, 20037);
    assert.match(answer.body.error_description, /expired/);
  });
});

Deno.test("refresh failures carry Lark's code: 20026 unknown, 20064 revoked, 20073 used", async () => {
  await withSandbox({ interval: 0, autoApproveAfter: 0 }, async (sandbox, client) => {
    const unknown = await client.refresh("ur-never-issued");
    assert.equal(unknown.status, 400);
    assert.deepEqual(Object.keys(unknown.body).sort(), ["code", "error", "error_description"]);
    assert.equal(unknown.body.code, 20026);
    assert.equal(unknown.body.error, "invalid_grant");

    const one = (await client.poll((await client.deviceCode(SCOPE)).body.device_code)).body;
    const two = (await client.poll((await client.deviceCode(SCOPE)).body.device_code)).body;
    const revoked = await client.json("POST", "/sandbox/revoke", {
      refresh_token: one.refresh_token,
    });
    assert.deepEqual(revoked.body, { revoked: 1 });
    const refused = await client.refresh(one.refresh_token);
    assert.equal(refused.body.code, 20064);
    assert.equal(refused.body.error, "invalid_grant");
    // Revoking a user withdraws every token of theirs, the access tokens included.
    const all = await client.json("POST", "/sandbox/revoke", { open_id: sandbox.users[0].open_id });
    assert.deepEqual(all.body, { revoked: 1 });
    assert.equal((await client.refresh(two.refresh_token)).body.code, 20064);
    const info = await client.send("GET", "/open-apis/authen/v1/user_info", {
      token: two.access_token,
    });
    assert.equal(info.body.code, 99991663);
    const bad = await client.json("POST", "/sandbox/revoke", {});
    assert.equal(bad.status, 400);
  });
});

Deno.test("a 5xx fault on the token endpoint answers 20050, and the refresh token survives it", async () => {
  await withSandbox({ interval: 0, autoApproveAfter: 0 }, async (_sandbox, client) => {
    const tokens = (await client.poll((await client.deviceCode(SCOPE)).body.device_code)).body;
    await client.json("POST", "/sandbox/faults", {
      route: "POST /open-apis/authen/v2/oauth/token",
      kind: "status",
      status: 503,
      times: 1,
    });
    const busy = await client.refresh(tokens.refresh_token);
    assert.equal(busy.status, 503);
    assert.equal(busy.body.code, 20050);
    assert.equal(busy.body.error, "server_error");
    assert.equal(typeof busy.body.error_description, "string");
    const retried = await client.refresh(tokens.refresh_token);
    assert.equal(retried.status, 200);
    assert.equal(retried.body.code, 0);
  });
});

Deno.test("device authorization refuses the whole request when one scope is unknown", async () => {
  await withSandbox({ interval: 0, autoApproveAfter: 0 }, async (_sandbox, client) => {
    const answer = await client.deviceCode("calendar:calendar.event:read im:message:send");
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error, "invalid_scope");
    assert.equal(
      answer.body.error_description,
      "The provided scope list contains invalid or malformed scopes. Please ensure all scopes " +
        "are valid.",
    );
    const known = await client.deviceCode("calendar:calendar.event:read im:message.send_as_user");
    assert.equal(known.status, 200);
  });
});

Deno.test("a sign-in grants only the scopes the app has enabled", async () => {
  await withSandbox({
    interval: 0,
    autoApproveAfter: 0,
    appScopes: ["calendar:calendar.event:read", "offline_access"],
  }, async (_sandbox, client) => {
    const { body } = await client.deviceCode(
      "calendar:calendar.event:read im:message.send_as_user offline_access",
    );
    const tokens = await client.poll(body.device_code);
    assert.equal(tokens.body.scope, "calendar:calendar.event:read offline_access");
  });
});

Deno.test("an expired access token answers 99991677 and an unknown one 99991663", async () => {
  await withSandbox({ accessTokenTtl: 0.2 }, async (_sandbox, client) => {
    const token = await client.userToken(["offline_access"]);
    const ok = await client.send("GET", "/open-apis/authen/v1/user_info", { token });
    assert.equal(ok.status, 200);
    await sleep(250);
    const expired = await client.send("GET", "/open-apis/authen/v1/user_info", { token });
    assert.equal(expired.status, 401);
    assert.equal(expired.body.code, 99991677);
    const unknown = await client.send("GET", "/open-apis/authen/v1/user_info", { token: "u-x" });
    assert.equal(unknown.status, 401);
    assert.equal(unknown.body.code, 99991663);
    const missing = await client.send("GET", "/open-apis/authen/v1/user_info");
    assert.equal(missing.status, 401);
    assert.equal(missing.body.code, 99991661);
  });
});

Deno.test("the token endpoint accepts forms only and credentials once", async () => {
  await withSandbox({ interval: 0 }, async (sandbox, client) => {
    const path = "/open-apis/authen/v2/oauth/token";
    const fields = {
      grant_type: "refresh_token",
      refresh_token: "ur-x",
      client_id: sandbox.appId,
      client_secret: sandbox.appSecret,
    };
    const asJson = await client.json("POST", path, fields);
    assert.equal(asJson.status, 400);
    assert.equal(asJson.body.error, "invalid_request");
    const twice = await client.form(path, fields, client.basic());
    assert.equal(twice.status, 400);
    assert.equal(twice.body.error, "invalid_request");
    assert.match(twice.body.error_description, /sent once/);
    const badSecret = await client.form(path, { ...fields, client_secret: "no" });
    assert.equal(badSecret.status, 401);
    assert.equal(badSecret.body.error, "invalid_client");
    const grant = await client.form(path, { ...fields, grant_type: "password" });
    assert.equal(grant.body.error, "unsupported_grant_type");
  });
});

Deno.test("tenant tokens come from app credentials; a bad secret is 10014", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const path = "/open-apis/auth/v3/tenant_access_token/internal";
    const ok = await client.json("POST", path, {
      app_id: sandbox.appId,
      app_secret: sandbox.appSecret,
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.code, 0);
    assert.equal(ok.body.msg, "ok");
    assert.match(ok.body.tenant_access_token, /^t-/);
    assert.equal(ok.body.expire, 7200);
    const bad = await client.json("POST", path, { app_id: sandbox.appId, app_secret: "x" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 10014);
    const form = await client.form(path, { app_id: sandbox.appId, app_secret: "x" });
    assert.equal(form.body.code, 9499);
  });
});

Deno.test("tenant tokens expire with 99991677", async () => {
  await withSandbox({ tenantTokenTtl: 0.2 }, async (_sandbox, client) => {
    const token = await client.tenantToken();
    await sleep(250);
    const answer = await client.send("POST", "/open-apis/im/v1/messages?receive_id_type=chat_id", {
      token,
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(answer.status, 401);
    assert.equal(answer.body.code, 99991677);
  });
});
