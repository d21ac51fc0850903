import assert from "node:assert/strict";
import { withSandbox } from "../test_client.ts";
import { consoleUrl } from "../../src/errors/api_code_map.ts";

const INFO = "/open-apis/authen/v1/user_info";

Deno.test("a status fault answers with a Lark body and default codes", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const token = await client.userToken([]);
    const cases: [number, number][] = [
      [401, 99991663],
      [403, 99991672],
      [500, 500000],
      [502, 500000],
      [503, 500000],
    ];
    for (const [status, code] of cases) {
      await client.json("POST", "/sandbox/faults", {
        route: INFO,
        kind: "status",
        status,
        times: 1,
      });
      const answer = await client.send("GET", INFO, { token });
      assert.equal(answer.status, status);
      assert.equal(answer.body.code, code);
      assert.equal(typeof answer.body.msg, "string");
      assert.equal((await client.send("GET", INFO, { token })).status, 200);
    }
    await client.json("POST", "/sandbox/faults", {
      kind: "status",
      status: 400,
      code: 230002,
      msg: "custom",
      times: 1,
    });
    const custom = await client.send("GET", INFO, { token });
    assert.deepEqual(custom.body, { code: 230002, msg: "custom" });
  });
});

Deno.test("a 429 fault sends Lark's x-ogw-ratelimit-reset, not Retry-After", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const token = await client.userToken([]);
    await client.json("POST", "/sandbox/faults", [
      { route: INFO, kind: "status", status: 429, times: 1 },
      { route: INFO, kind: "status", status: 429, retry_after: 7, times: 1 },
      { route: INFO, kind: "status", status: 400, code: 99991400, retry_after: 3, times: 1 },
      { route: INFO, kind: "status", status: 503, retry_after: 2, times: 1 },
    ]);
    const first = await client.send("GET", INFO, { token });
    assert.equal(first.status, 429);
    assert.equal(first.body.code, 99991400);
    assert.equal(first.headers.get("x-ogw-ratelimit-reset"), "1");
    assert.equal(first.headers.get("x-ogw-ratelimit-limit"), "100");
    assert.equal(first.headers.get("retry-after"), null);
    const second = await client.send("GET", INFO, { token });
    assert.equal(second.headers.get("x-ogw-ratelimit-reset"), "7");
    // Older APIs answer a rate limit with HTTP 400 and the same headers.
    const older = await client.send("GET", INFO, { token });
    assert.equal(older.status, 400);
    assert.equal(older.headers.get("x-ogw-ratelimit-reset"), "3");
    // A 503 asks with the standard header.
    const unavailable = await client.send("GET", INFO, { token });
    assert.equal(unavailable.status, 503);
    assert.equal(unavailable.headers.get("retry-after"), "2");
  });
});

Deno.test("times=N fails the next N matching requests then succeeds", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const token = await client.userToken([]);
    const added = await client.json("POST", "/sandbox/faults", {
      route: `GET ${INFO}`,
      kind: "status",
      status: 503,
      times: 2,
    });
    assert.match(added.body.id, /^f\d+$/);
    // A POST does not match a "GET ..." route.
    assert.equal((await client.json("POST", INFO, {}, token)).status, 404);
    assert.equal((await client.send("GET", INFO, { token })).status, 503);
    assert.equal((await client.send("GET", INFO, { token })).status, 503);
    assert.equal((await client.send("GET", INFO, { token })).status, 200);
    const listed = await client.send("GET", "/sandbox/faults");
    assert.equal(listed.body[0].remaining, 0);
    assert.equal(listed.body[0].hits, 2);
  });
});

Deno.test("latency delays then serves; jitter stays in bounds", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const token = await client.userToken([]);
    await client.json("POST", "/sandbox/faults", { kind: "latency", ms: 150, jitter_ms: 50 });
    const started = performance.now();
    const answer = await client.send("GET", INFO, { token });
    const elapsed = performance.now() - started;
    assert.equal(answer.status, 200);
    assert.ok(elapsed >= 145 && elapsed < 1000, `took ${elapsed} ms`);
    await client.send("DELETE", "/sandbox/faults");
    assert.deepEqual((await client.send("GET", "/sandbox/faults")).body, []);
    const fast = performance.now();
    await client.send("GET", INFO, { token });
    assert.ok(performance.now() - fast < 140);
  });
});

Deno.test("drop closes the connection without an answer", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const token = await client.userToken([]);
    await client.json("POST", "/sandbox/faults", { route: INFO, kind: "drop", times: 1 });
    const fresh = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
    try {
      await assert.rejects(() => client.send("GET", INFO, { token, client: fresh }), TypeError);
      assert.equal((await client.send("GET", INFO, { token, client: fresh })).status, 200);
    } finally {
      fresh.close();
    }
  });
});

Deno.test("fetch retries a drop on a reused connection once, so times=2 is needed there", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const token = await client.userToken([]);
    await client.json("POST", "/sandbox/faults", { route: INFO, kind: "drop", times: 1 });
    assert.equal((await client.send("GET", INFO, { token })).status, 200);
    await client.json("POST", "/sandbox/faults", { route: INFO, kind: "drop", times: 2 });
    await assert.rejects(() => client.send("GET", INFO, { token }), TypeError);
    const log = (await client.send("GET", "/sandbox/requests")).body;
    assert.equal(log.filter((r: { path: string }) => r.path === INFO).length, 4);
  });
});

Deno.test("drop after serving keeps the side effect, and uuid makes the retry safe", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const token = await client.userToken(["im:message.send_as_user", "im:message"]);
    await client.json("POST", "/sandbox/faults", {
      route: "POST /open-apis/im/v1/messages",
      kind: "drop",
      stage: "after",
      times: 1,
    });
    const body = {
      receive_id: sandbox.chats[0].chat_id,
      msg_type: "text",
      content: '{"text":"once"}',
      uuid: "retry-1",
    };
    const path = "/open-apis/im/v1/messages?receive_id_type=chat_id";
    const fresh = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
    try {
      await assert.rejects(() => client.json("POST", path, body, token, fresh), TypeError);
    } finally {
      fresh.close();
    }
    const retry = await client.json("POST", path, body, token);
    assert.equal(retry.body.code, 0);
    const messages = (await client.send("GET", "/sandbox/messages")).body;
    assert.equal(messages.length, 1);
    assert.equal(messages[0].message_id, retry.body.data.message_id);
    const logged = (await client.send("GET", "/sandbox/requests")).body.filter(
      (r: { path: string }) => r.path === "/open-apis/im/v1/messages",
    );
    assert.equal(logged.length, 2);
    assert.equal(logged[0].body.uuid, "retry-1");
    assert.equal(logged[1].body.uuid, "retry-1");
  });
});

Deno.test("malformed answers 200 with a body that is not JSON", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const token = await client.userToken([]);
    await client.json("POST", "/sandbox/faults", { route: INFO, kind: "malformed", times: 1 });
    const answer = await client.send("GET", INFO, { token });
    assert.equal(answer.status, 200);
    assert.throws(() => JSON.parse(answer.text));
  });
});

Deno.test("truncated promises the full Content-Length and sends half", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const token = await client.userToken([]);
    await client.json("POST", "/sandbox/faults", { route: INFO, kind: "truncated", times: 1 });
    const response = await fetch(`${sandbox.baseUrl}${INFO}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(response.status, 200);
    assert.ok(Number(response.headers.get("content-length")) > 100);
    await assert.rejects(() => response.text(), TypeError);
    assert.equal((await client.send("GET", INFO, { token })).status, 200);
  });
});

Deno.test("a startup fault profile and probability 0", async () => {
  await withSandbox({
    faults: [
      { route: "/open-apis/search", kind: "status", status: 500, probability: 0 },
      { route: "/oauth/", kind: "status", status: 502 },
    ],
  }, async (sandbox, client) => {
    const device = await client.form(
      "/oauth/v1/device_authorization",
      { client_id: sandbox.appId, scope: "" },
      client.basic(),
    );
    assert.equal(device.status, 502);
    const token = await client.userToken(["contact:user:search"]);
    const search = await client.send("GET", "/open-apis/search/v1/user?query=a", { token });
    assert.equal(search.status, 200);
    const bad = await client.json("POST", "/sandbox/faults", { kind: "explode" });
    assert.equal(bad.status, 400);
  });
});

Deno.test("the request log records requests with Authorization masked; DELETE clears", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const token = await client.userToken(["im:message.send_as_user", "im:message"]);
    await client.send("GET", `${INFO}?a=1&a=2&b=x`, { token, headers: { "x-request-id": "r1" } });
    await client.refresh("ur-nothing");
    const log = (await client.send("GET", "/sandbox/requests")).body;
    assert.equal(log.length, 2);
    const [info, refresh] = log;
    assert.equal(info.seq, 1);
    assert.equal(info.method, "GET");
    assert.equal(info.path, INFO);
    assert.deepEqual(info.query, { a: ["1", "2"], b: "x" });
    assert.equal(info.headers["x-request-id"], "r1");
    assert.equal(info.headers.authorization, `Bearer ${token.slice(0, 4)}…(masked)`);
    assert.ok(!JSON.stringify(log).includes(token));
    assert.equal(info.body, null);
    assert.equal(typeof info.remote_port, "number");
    assert.ok(!Number.isNaN(Date.parse(info.time)));
    assert.equal(refresh.body.grant_type, "refresh_token");
    assert.equal(refresh.body.client_id, sandbox.appId);
    assert.ok(!JSON.stringify(refresh).includes(sandbox.appSecret));
    await client.send("DELETE", "/sandbox/requests");
    assert.deepEqual((await client.send("GET", "/sandbox/requests")).body, []);
    assert.equal((await client.send("GET", "/sandbox/stats")).body.requests, 0);
  });
});

Deno.test("stats count connections and peak concurrency", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const token = await client.userToken([]);
    await client.send("DELETE", "/sandbox/requests");
    await client.json("POST", "/sandbox/faults", { route: INFO, kind: "latency", ms: 100 });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => client.send("GET", INFO, { token })),
    );
    assert.ok(answers.every((a) => a.status === 200));
    const stats = (await client.send("GET", "/sandbox/stats")).body;
    assert.equal(stats.requests, 5);
    assert.equal(stats.max_in_flight, 5);
    assert.equal(stats.in_flight, 0);
    assert.ok(stats.connections >= 5 && stats.connections <= 6, `${stats.connections}`);
  });
});

Deno.test("keep-alive: sequential requests reuse one connection", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const token = await client.userToken([]);
    await client.send("DELETE", "/sandbox/requests");
    for (let i = 0; i < 5; i++) await client.send("GET", INFO, { token });
    const ports = new Set(
      (await client.send("GET", "/sandbox/requests")).body.map(
        (r: { remote_port: number }) => r.remote_port,
      ),
    );
    assert.equal(ports.size, 1);
  });
});

Deno.test("approve validates its input", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const missing = await client.json("POST", "/sandbox/approve", { decision: "approve" });
    assert.equal(missing.status, 400);
    const unknown = await client.json("POST", "/sandbox/approve", {
      user_code: "BBBB-BBBB",
      decision: "approve",
    });
    assert.equal(unknown.status, 404);
    const notFound = await client.send("GET", "/sandbox/nothing");
    assert.equal(notFound.status, 404);
  });
});

Deno.test("app_scopes lists, replaces and resets the app's enabled scopes, known names only", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const all = await client.send("GET", "/sandbox/app_scopes");
    assert.ok(all.body.scopes.length > 1000);
    assert.ok(all.body.scopes.includes("calendar:calendar.event:read"));
    const set = await client.json("POST", "/sandbox/app_scopes", {
      scopes: ["calendar:calendar.event:read", "offline_access"],
    });
    assert.deepEqual(set.body, { scopes: ["calendar:calendar.event:read", "offline_access"] });
    const unknown = await client.json("POST", "/sandbox/app_scopes", {
      scopes: ["im:message:send"],
    });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error, "invalid_scope");
    assert.match(unknown.body.error_description, /"im:message:send"/);
    const notList = await client.json("POST", "/sandbox/app_scopes", { scopes: "x" });
    assert.equal(notList.status, 400);
    assert.equal((await client.send("GET", "/sandbox/app_scopes")).body.scopes.length, 2);
    const reset = await client.send("DELETE", "/sandbox/app_scopes");
    assert.deepEqual(reset.body.scopes, all.body.scopes);
  });
});

Deno.test("token minting refuses scopes Lark does not know", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const answer = await client.json("POST", "/sandbox/token", { scopes: ["im:message:send"] });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error, "invalid_scope");
  });
});

Deno.test("the console pages hark links to are served: a scope not enabled is enabled there", async () => {
  await withSandbox({ appScopes: ["contact:user.base:readonly"] }, async (sandbox) => {
    // The link of a permission error, as hark builds it for the sandbox's app.
    const link = consoleUrl(
      { identity: "bot", profile: "default", appId: sandbox.appId, serviceOrigin: sandbox.baseUrl },
      "im:message",
    );
    const before = await fetch(link);
    assert.equal(before.status, 200);
    assert.match(await before.text(), /<code>im:message<\/code>: not enabled/);
    const enabled = await fetch(new URL(link).origin + new URL(link).pathname, {
      method: "POST",
      body: new URLSearchParams({ clientID: sandbox.appId, scopes: "im:message" }),
    });
    assert.match(await enabled.text(), /<code>im:message<\/code>: enabled/);
    const scopes = await (await fetch(`${sandbox.baseUrl}/sandbox/app_scopes`)).json();
    assert.ok(scopes.scopes.includes("im:message"));

    const app = await fetch(
      consoleUrl({ identity: "bot", profile: "default" }, undefined)
        .replace("https://open.larksuite.com", sandbox.baseUrl),
    );
    assert.equal(app.status, 200);
    assert.match(await app.text(), new RegExp(sandbox.appId));
    const stranger = await fetch(`${sandbox.baseUrl}/page/scope-apply?clientID=cli_other&scopes=x`);
    assert.equal(stranger.status, 404);
    await stranger.body?.cancel();

    // The approve address explains itself, the decision included.
    const help = await fetch(`${sandbox.baseUrl}/sandbox/approve`);
    assert.equal(help.status, 200);
    assert.match(await help.text(), /<code>decision<\/code>: <code>"approve"<\/code>/);
  });
});
