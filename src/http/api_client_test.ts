import assert from "node:assert/strict";
import { ApiClient, type ApiClientOptions } from "./api_client.ts";
import type { ApiRequest } from "./request.ts";
import type { ResolvedToken, TokenSource } from "../auth/token_source.ts";
import {
  ApiError,
  AuthError,
  CancelledError,
  NetworkError,
  PermissionError,
} from "../errors/mod.ts";
import {
  createTestContext,
  type ExpectedRequest,
  FetchStub,
  jsonResponse,
  type TestContext,
} from "../../tests/support/test_context.ts";
import { VERSION } from "../version.ts";

const BASE = "https://open.example.test";
const TOKEN = "u-first-access-token-0001";
const NEW_TOKEN = "u-second-access-token-0002";
const AGENDA = "/open-apis/calendar/v4/calendars/primary/events/instance_view";
const SEND = "/open-apis/im/v1/messages";

/** A token source that hands out `tokens` in turn: the first from getToken, then one per refresh. */
class FakeTokens implements TokenSource {
  readonly calls: string[] = [];
  #index = 0;
  constructor(readonly tokens: string[] = [TOKEN, NEW_TOKEN]) {}

  getToken(): Promise<ResolvedToken> {
    this.calls.push("get");
    return Promise.resolve(this.#resolved());
  }

  refreshAfterRejection(rejected: string): Promise<ResolvedToken> {
    this.calls.push(`refresh ${rejected}`);
    this.#index++;
    if (this.#index >= this.tokens.length) {
      return Promise.reject(new AuthError("Cannot refresh: the refresh token expired"));
    }
    return Promise.resolve(this.#resolved());
  }

  #resolved(): ResolvedToken {
    return { token: this.tokens[this.#index], identity: "user", source: "keychain" };
  }
}

interface Setup {
  ctx: TestContext;
  stub: FetchStub;
  tokens: FakeTokens;
  client: ApiClient;
}

function setup(
  expected: ExpectedRequest[],
  options: Partial<ApiClientOptions> & { tokens?: FakeTokens; debug?: boolean } = {},
): Setup {
  const stub = new FetchStub(expected);
  const ctx = createTestContext({ fetch: stub.fetch, debug: options.debug });
  const tokens = options.tokens ?? new FakeTokens();
  const client = new ApiClient(ctx, {
    baseUrl: BASE,
    tokens,
    retry: { random: () => 0.5 },
    ...options,
  });
  return { ctx, stub, tokens, client };
}

const get = (respond: ExpectedRequest["respond"]): ExpectedRequest => ({
  method: "GET",
  url: new RegExp(`^${BASE}${AGENDA}`),
  respond,
});
const post = (respond: ExpectedRequest["respond"]): ExpectedRequest => ({
  method: "POST",
  url: new RegExp(`^${BASE}${SEND}`),
  respond,
});
const ok = (data: unknown = { items: [] }) => () => jsonResponse({ code: 0, msg: "success", data });
const larkError = (status: number, code: number, extra: Record<string, unknown> = {}) => () =>
  jsonResponse({ code, msg: `failure ${code}`, ...extra }, status);
const dropped = () => {
  throw new TypeError("fetch failed", {
    cause: new Error(
      "error sending request for url: client error (SendRequest): connection closed before " +
        "message completed",
    ),
  });
};
const refused = () => {
  throw new TypeError("fetch failed", {
    cause: new Error(
      "error sending request for url: client error (Connect): tcp connect error: Connection " +
        "refused (os error 111)",
    ),
  });
};

const agenda: ApiRequest = {
  method: "GET",
  path: AGENDA,
  query: { start_time: "1700000000", end_time: "1700086400", page_token: undefined },
  scopes: ["calendar:calendar:readonly"],
};
const send: ApiRequest = {
  method: "POST",
  path: SEND,
  query: { receive_id_type: "chat_id" },
  body: { receive_id: "oc_1", msg_type: "text", content: '{"text":"hi"}' },
  scopes: ["im:message:send"],
};

Deno.test("request() sends auth, user agent and query, and resolves with data", async () => {
  const { client, stub, tokens } = setup([get((request) => {
    const url = new URL(request.url);
    assert.equal(url.search, "?start_time=1700000000&end_time=1700086400");
    assert.equal(request.headers.get("authorization"), `Bearer ${TOKEN}`);
    assert.equal(request.headers.get("user-agent"), `hark/${VERSION}`);
    assert.equal(request.headers.get("accept"), "application/json");
    assert.equal(request.headers.get("content-type"), null);
    return ok({ items: [{ event_id: "e1" }] })();
  })]);
  assert.deepEqual(await client.request(agenda), { items: [{ event_id: "e1" }] });
  stub.verify();
  assert.deepEqual(tokens.calls, ["get"]);
});

Deno.test("request() sends the body as JSON with a content type", async () => {
  const { client, stub } = setup([post(async (request) => {
    assert.equal(request.headers.get("content-type"), "application/json; charset=utf-8");
    assert.deepEqual(await request.json(), send.body);
    return ok({ message_id: "om_1" })();
  })]);
  assert.deepEqual(await client.request(send), { message_id: "om_1" });
  stub.verify();
});

Deno.test("request() resolves with the whole body without an envelope, undefined when empty", async () => {
  const { client, stub } = setup([
    get(() => jsonResponse({ code: 0, tenant_access_token: "t-x", expire: 7200 })),
    get(() => jsonResponse([1, 2])),
    get(() => new Response(null, { status: 204 })),
  ]);
  assert.deepEqual(await client.request(agenda), {
    code: 0,
    tenant_access_token: "t-x",
    expire: 7200,
  });
  assert.deepEqual(await client.request(agenda), [1, 2]);
  assert.equal(await client.request(agenda), undefined);
  stub.verify();
});

Deno.test("request() retries 5xx twice then succeeds, waiting the jittered backoff", async () => {
  const { client, stub, ctx } = setup([
    get(larkError(500, 500000)),
    get(() => new Response("<html>bad gateway</html>", { status: 502 })),
    get(ok({ items: ["x"] })),
  ]);
  assert.deepEqual(await client.request(agenda), { items: ["x"] });
  stub.verify();
  assert.deepEqual(ctx.sleeps, [250, 500]);
});

Deno.test("request() gives up after 3 retries (4 attempts) with the last 5xx error", async () => {
  const { client, stub, ctx } = setup([
    get(larkError(500, 500000)),
    get(larkError(500, 500000)),
    get(larkError(500, 500000)),
    get(larkError(503, 500000)),
  ]);
  const error = await client.request(agenda).catch((e) => e);
  stub.verify();
  assert.ok(error instanceof ApiError);
  assert.equal(error.type, "server_error");
  assert.equal(error.httpStatus, 503);
  assert.equal(error.code, 4); // the spec's code map: 500000 → 4
  assert.deepEqual(ctx.sleeps, [250, 500, 1000]);
});

Deno.test("request() ends a plain 5xx without envelope as a server_error ApiError, exit 4", async () => {
  const { client, stub } = setup(
    Array.from({ length: 4 }, () => get(() => new Response("down", { status: 503 }))),
  );
  const error = await client.request(agenda).catch((e) => e);
  stub.verify();
  assert.ok(error instanceof ApiError);
  assert.equal(error.type, "server_error");
  assert.equal(error.code, 4);
  assert.match(error.message, /^The service is unavailable: HTTP 503 on GET /);
});

Deno.test("request() honours the configured retry count", async () => {
  const { client, stub, ctx } = setup([get(larkError(500, 500000)), get(larkError(500, 500000))], {
    retry: { retries: 1, jitter: false, baseDelayMs: 100 },
  });
  await assert.rejects(client.request(agenda), ApiError);
  stub.verify();
  assert.deepEqual(ctx.sleeps, [100]);
});

Deno.test("request() does not retry a 5xx on a POST without an idempotency key", async () => {
  const { client, stub, ctx } = setup([post(larkError(500, 500000))]);
  await assert.rejects(client.request(send), ApiError);
  stub.verify();
  assert.deepEqual(ctx.sleeps, []);
});

Deno.test("request() retries a 5xx on a POST that carries an idempotency key", async () => {
  const { client, stub } = setup([post(larkError(500, 500000)), post(ok({ message_id: "om_1" }))]);
  const result = await client.request({ ...send, idempotencyKey: "key-1" });
  assert.deepEqual(result, { message_id: "om_1" });
  stub.verify();
});

Deno.test("request() backs off a 429 for Retry-After seconds, even on a POST", async () => {
  const { client, stub, ctx } = setup([
    post(larkError(429, 99991400, {})),
    post(() => jsonResponse({ code: 99991400, msg: "slow" }, 429, { "retry-after": "2" })),
    post(ok({ message_id: "om_1" })),
  ]);
  assert.deepEqual(await client.request(send), { message_id: "om_1" });
  stub.verify();
  assert.deepEqual(ctx.sleeps, [250, 2000]);
  // A wait of a second or more is shown on the status line; a short one is not.
  assert.deepEqual(ctx.statuses, ["Rate limited, retrying in 2 s (attempt 3 of 4)"]);
});

Deno.test("request() backs off a 429 until the Retry-After date", async () => {
  const now = Date.UTC(2026, 10, 21, 9, 0, 0);
  const { client, stub, ctx } = setup([
    get(() =>
      jsonResponse({ code: 99991400, msg: "slow" }, 429, {
        "retry-after": new Date(now + 3000).toUTCString(),
      })
    ),
    get(ok()),
  ]);
  await client.request(agenda);
  stub.verify();
  assert.deepEqual(ctx.sleeps, [3000]);
});

Deno.test("request() treats code 99991400 under HTTP 400 as a rate limit, and ends with it", async () => {
  const { client, stub, ctx } = setup(
    Array.from({ length: 4 }, () => get(larkError(400, 99991400))),
  );
  const error = await client.request(agenda).catch((e) => e);
  stub.verify();
  assert.ok(error instanceof ApiError);
  assert.equal(error.type, "rate_limit");
  assert.equal(error.apiCode, 99991400);
  assert.deepEqual(ctx.sleeps, [250, 500, 1000]);
});

Deno.test("request() refreshes the token once after a 401 and retries at once", async () => {
  const { client, stub, ctx, tokens } = setup([
    get(larkError(401, 99991677)),
    get((request) => {
      assert.equal(request.headers.get("authorization"), `Bearer ${NEW_TOKEN}`);
      return ok()();
    }),
  ]);
  await client.request(agenda);
  stub.verify();
  assert.deepEqual(tokens.calls, ["get", `refresh ${TOKEN}`]);
  assert.deepEqual(ctx.sleeps, []);
});

Deno.test("request() refreshes on a token-invalid code under HTTP 400, also for a POST", async () => {
  const { client, stub, tokens } = setup([post(larkError(400, 99991663)), post(ok())]);
  await client.request(send);
  stub.verify();
  assert.deepEqual(tokens.calls, ["get", `refresh ${TOKEN}`]);
});

Deno.test("request() fails with an AuthError (exit 3) when the refreshed token is rejected too", async () => {
  const { client, stub, tokens } = setup([
    get(() => new Response("", { status: 401 })),
    get(() => new Response("", { status: 401 })),
  ]);
  const error = await client.request(agenda).catch((e) => e);
  stub.verify();
  assert.ok(error instanceof AuthError);
  assert.equal(error.code, 3);
  assert.equal(error.recovery.command, "hark auth login");
  assert.deepEqual(tokens.calls, ["get", `refresh ${TOKEN}`]);
});

Deno.test("request() passes on the AuthError of a refresh that fails", async () => {
  const { client, stub } = setup([get(larkError(401, 99991677))], {
    tokens: new FakeTokens([TOKEN]),
  });
  await assert.rejects(client.request(agenda), { name: "AuthError", message: /refresh token/ });
  stub.verify();
});

Deno.test("request() turns a 403 into a PermissionError with the upgrade command, at once", async () => {
  const { client, stub, ctx } = setup([get(() => new Response("forbidden", { status: 403 }))]);
  const error = await client.request(agenda).catch((e) => e);
  stub.verify();
  assert.ok(error instanceof PermissionError);
  assert.equal(error.code, 1);
  assert.deepEqual(error.scopes, ["calendar:calendar:readonly"]);
  assert.equal(error.recovery.command, "hark auth login --scope calendar:calendar:readonly");
  assert.deepEqual(ctx.sleeps, []);
});

Deno.test("request() reads the needed scope of a permission code from the answer", async () => {
  const { client, stub } = setup([
    post(larkError(400, 99991672, {
      error: { permission_violations: [{ subject: "im:message:send_as_bot" }] },
    })),
  ]);
  const error = await client.request(send).catch((e) => e);
  stub.verify();
  assert.ok(error instanceof PermissionError);
  assert.deepEqual(error.scopes, ["im:message:send_as_bot"]);
  assert.equal(error.recovery.command, "hark auth login --scope im:message:send_as_bot");
});

Deno.test("request() does not retry an ordinary API error", async () => {
  const { client, stub } = setup([get(() => jsonResponse({ code: 193103, msg: "span" }, 400))]);
  const error = await client.request(agenda).catch((e) => e);
  stub.verify();
  assert.ok(error instanceof ApiError);
  assert.equal(error.apiCode, 193103);
  assert.equal(error.httpStatus, 400);
});

Deno.test("request() does not retry a POST whose connection dropped after sending", async () => {
  const { client, stub } = setup([post(dropped)]);
  const error = await client.request(send).catch((e) => e);
  stub.verify();
  assert.ok(error instanceof NetworkError);
  assert.equal(error.code, 4);
  assert.match(error.recovery.suggestion, /may have been applied/);
});

Deno.test("request() retries a dropped POST that carries an idempotency key", async () => {
  const { client, stub } = setup([post(dropped), post(ok({ message_id: "om_1" }))]);
  await client.request({ ...send, idempotencyKey: "k" });
  stub.verify();
});

Deno.test("request() retries a POST whose connection was refused", async () => {
  const { client, stub, ctx } = setup([post(refused), post(refused), post(ok())]);
  await client.request(send);
  stub.verify();
  assert.deepEqual(ctx.sleeps, [250, 500]);
});

Deno.test("request() retries a dropped GET", async () => {
  const { client, stub } = setup([get(dropped), get(ok())]);
  await client.request(agenda);
  stub.verify();
});

Deno.test("request() ends a DNS failure as a NetworkError naming the host after retries", async () => {
  const dns = () => {
    throw new TypeError("fetch failed", {
      cause: new Error("client error (Connect): dns error: failed to lookup address information"),
    });
  };
  const { client, stub } = setup(Array.from({ length: 4 }, () => get(dns)));
  const error = await client.request(agenda).catch((e) => e);
  stub.verify();
  assert.ok(error instanceof NetworkError);
  assert.equal(error.code, 4);
  assert.match(error.message, /Cannot resolve host "open\.example\.test"/);
});

Deno.test("request() never makes more than 4 attempts whatever the mix of failures", async () => {
  const { client, stub, tokens } = setup([
    get(larkError(401, 99991677)),
    get(larkError(500, 500000)),
    get(larkError(429, 99991400)),
    get(dropped),
  ]);
  await assert.rejects(client.request(agenda), NetworkError);
  stub.verify();
  assert.deepEqual(tokens.calls, ["get", `refresh ${TOKEN}`]);
});

Deno.test("request() retries a malformed answer to a GET", async () => {
  const { client, stub } = setup([
    get(() => new Response("{not json", { status: 200 })),
    get(ok()),
  ]);
  await client.request(agenda);
  stub.verify();
});

Deno.test("request() does not retry a malformed answer to a POST", async () => {
  const { client, stub } = setup([post(() => new Response("{not json", { status: 200 }))]);
  const error = await client.request(send).catch((e) => e);
  stub.verify();
  assert.ok(error instanceof ApiError);
  assert.equal(error.type, "invalid_response");
});

Deno.test("request() retries a truncated answer to a GET", async () => {
  const truncated = () =>
    new Response(
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"code":0,'));
          controller.error(new TypeError("error reading a body from connection"));
        },
      }),
      { status: 200 },
    );
  const { client, stub } = setup([get(truncated), get(ok({ n: 1 }))]);
  assert.deepEqual(await client.request(agenda), { n: 1 });
  stub.verify();
});

Deno.test("request() ends a timeout as a NetworkError at once, on the context's clock", async () => {
  const { client, stub, ctx } = setup([
    get((request: Request) =>
      new Promise<Response>((_, reject) => {
        request.signal.addEventListener("abort", () => reject(request.signal.reason));
        ctx.advance(19);
        assert.equal(request.signal.aborted, false);
        ctx.advance(1);
      })
    ),
  ], { timeoutMs: 20 });
  const error = await client.request(agenda).catch((e) => e);
  stub.verify();
  assert.ok(error instanceof NetworkError);
  assert.match(error.message, /No answer from "open\.example\.test" within 0\.02 s/);
});

Deno.test("request() is cancelled by Ctrl-C before sending, and during a backoff wait", async () => {
  const first = setup([]);
  first.ctx.abort();
  await assert.rejects(first.client.request(agenda), CancelledError);
  first.stub.verify();

  const second = setup([get(() => {
    second.ctx.abort();
    return larkError(500, 500000)();
  })]);
  await assert.rejects(second.client.request(agenda), CancelledError);
  second.stub.verify();
});

Deno.test("request() runs a clean-up call even after Ctrl-C, bounded by its own signal", async () => {
  const { ctx, client, stub } = setup([{
    method: "DELETE",
    url: new RegExp(`^${BASE}/open-apis/calendar/v4/calendars/primary/events/e1$`),
    respond: ok({}),
  }]);
  ctx.abort();
  const path = "/open-apis/calendar/v4/calendars/primary/events/e1";
  await assert.rejects(client.request({ method: "DELETE", path }), CancelledError);
  await client.request({ method: "DELETE", path, cleanup: true });
  stub.verify();
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(
    client.request({ method: "DELETE", path, cleanup: true, signal: controller.signal }),
    CancelledError,
  );
});

Deno.test("request() is cancelled by the request's own signal", async () => {
  const controller = new AbortController();
  const { client, stub } = setup([get(() => {
    controller.abort();
    return dropped();
  })]);
  await assert.rejects(client.request({ ...agenda, signal: controller.signal }), CancelledError);
  stub.verify();
});

Deno.test("request() logs request, response and retry lines with --debug, secrets masked", async () => {
  const { client, stub, ctx } = setup([
    {
      method: "POST",
      url: `${BASE}/open-apis/auth/v3/tenant_access_token/internal`,
      respond: larkError(500, 500000),
    },
    {
      method: "POST",
      url: `${BASE}/open-apis/auth/v3/tenant_access_token/internal`,
      respond: () => jsonResponse({ code: 0, tenant_access_token: "t-very-secret-tenant-token" }),
    },
  ], { debug: true });
  await client.request({
    method: "POST",
    path: "/open-apis/auth/v3/tenant_access_token/internal",
    body: { app_id: "cli_1", app_secret: "the-app-secret-value" },
    idempotencyKey: "k",
  });
  stub.verify();
  const log = ctx.stderr.text();
  const lines = log.trimEnd().split("\n");
  assert.equal(lines.length, 5);
  assert.match(lines[0], /^\[debug\] → POST https:\/\/open\.example\.test\/open-apis\/auth/);
  assert.match(lines[0], /Bearer u-fi…[ )]/);
  assert.match(lines[0], /"app_secret":"the-…"/);
  assert.match(lines[1], /^\[debug\] ← 500 POST .* \d+ ms code=500000/);
  assert.match(lines[2], /^\[debug\] ↻ retry 1\/3 .* in 250 ms/);
  assert.match(lines[4], /"tenant_access_token":"t-ve…"/);
  for (const secret of [TOKEN, "the-app-secret-value", "t-very-secret-tenant-token"]) {
    assert.ok(!log.includes(secret), `log leaks ${secret}`);
  }
  assert.ok(ctx.stdout.text() === "");
});

Deno.test("request() logs nothing without --debug", async () => {
  const { client, stub, ctx } = setup([get(ok())]);
  await client.request(agenda);
  stub.verify();
  assert.equal(ctx.stderr.text(), "");
});

Deno.test("request() never sends a token to another origin than the one that issued it", async () => {
  const elsewhere: TokenSource = {
    getToken: () =>
      Promise.resolve({
        token: TOKEN,
        identity: "user",
        source: "keychain",
        origin: "https://open.feishu.cn",
      }),
    refreshAfterRejection: () => Promise.reject(new Error("no refresh expected")),
  };
  const { stub, client } = setup([], { tokens: elsewhere as FakeTokens });
  const error = await client.request({ method: "GET", path: AGENDA }).catch((e) => e);
  assert.ok(error instanceof AuthError);
  assert.match(
    error.message,
    /issued by "https:\/\/open\.feishu\.cn" to "https:\/\/open\.example\.test"/,
  );
  assert.equal(stub.requests.length, 0);
});
