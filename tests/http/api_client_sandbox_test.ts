/**
 * The HTTP client against the real sandbox over loopback, with faults injected through
 * `POST /sandbox/faults` and attempts counted in `GET /sandbox/requests`. The clock is fake, so
 * every backoff wait is recorded exactly and the tests do not sleep.
 */

import assert from "node:assert/strict";
import { type Sandbox, startSandbox } from "../../sandbox/mod.ts";
import type { FaultSpec, LoggedRequest } from "../../sandbox/mod.ts";
import { ApiClient, type ApiClientOptions, type ApiRequest } from "../../src/http/mod.ts";
import type { ResolvedToken, TokenSource } from "../../src/auth/token_source.ts";
import { ApiError, AuthError, NetworkError, PermissionError } from "../../src/errors/mod.ts";
import { createTestContext, type TestContext } from "../support/test_context.ts";
import { VERSION } from "../../src/version.ts";
import { type SandboxTokenOptions, sandboxUserToken } from "../support/sandbox_token.ts";

const USER_INFO = "/open-apis/authen/v1/user_info";
const MESSAGES = "/open-apis/im/v1/messages";

/** A token source over sandbox tokens whose refresh calls the real token endpoint. */
class SandboxTokens implements TokenSource {
  refreshes = 0;
  constructor(
    readonly sb: Sandbox,
    public accessToken: string,
    public refreshToken: string,
  ) {}

  getToken(): Promise<ResolvedToken> {
    return Promise.resolve({ token: this.accessToken, identity: "user", source: "env" });
  }

  async refreshAfterRejection(rejected: string): Promise<ResolvedToken> {
    this.refreshes++;
    if (rejected !== this.accessToken) return this.getToken();
    const response = await fetch(`${this.sb.baseUrl}/open-apis/authen/v2/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: this.refreshToken,
        client_id: this.sb.appId,
        client_secret: this.sb.appSecret,
      }).toString(),
    });
    const body = await response.json();
    if (!response.ok) throw new AuthError(`Cannot refresh: ${body.error}`);
    this.accessToken = body.access_token;
    this.refreshToken = body.refresh_token ?? this.refreshToken;
    return this.getToken();
  }
}

interface Harness {
  sb: Sandbox;
  ctx: TestContext;
  tokens: SandboxTokens;
  client(options?: Partial<ApiClientOptions>): ApiClient;
  fault(spec: FaultSpec): Promise<void>;
  requests(path: string): Promise<LoggedRequest[]>;
}

async function withSandbox(
  test: (h: Harness) => Promise<void>,
  tokenOptions: SandboxTokenOptions = {},
): Promise<void> {
  const sb = await startSandbox({ quiet: true });
  const http = Deno.createHttpClient({});
  try {
    const granted = await sandboxUserToken(sb, tokenOptions);
    const ctx = createTestContext({
      timeout: (ms) => AbortSignal.timeout(ms),
      fetch: (input, init) => fetch(input, { ...init, client: http }),
    });
    const tokens = new SandboxTokens(sb, granted.accessToken, granted.refreshToken);
    await fetch(`${sb.baseUrl}/sandbox/requests`, { method: "DELETE" }).then((r) =>
      r.body?.cancel()
    );
    await test({
      sb,
      ctx,
      tokens,
      client: (options = {}) =>
        new ApiClient(ctx, {
          baseUrl: sb.baseUrl,
          tokens,
          retry: { random: () => 0.5 },
          ...options,
        }),
      async fault(spec) {
        const response = await fetch(`${sb.baseUrl}/sandbox/faults`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(spec),
        });
        assert.equal(response.status, 200, await response.text());
      },
      async requests(path) {
        const log: LoggedRequest[] = await (await fetch(`${sb.baseUrl}/sandbox/requests`)).json();
        return log.filter((r) => r.path === path);
      },
    });
  } finally {
    http.close();
    await sb.close();
  }
}

const userInfo: ApiRequest = { method: "GET", path: USER_INFO };

function sendTo(sb: Sandbox, uuid?: string): ApiRequest {
  return {
    method: "POST",
    path: MESSAGES,
    query: { receive_id_type: "chat_id" },
    body: {
      receive_id: sb.chats[0].chat_id,
      msg_type: "text",
      content: JSON.stringify({ text: "deploy finished" }),
      ...(uuid ? { uuid } : {}),
    },
    idempotencyKey: uuid,
    scopes: ["im:message.send_as_user"],
  };
}

Deno.test("client sends the bearer token and user agent the sandbox accepts", async () => {
  await withSandbox(async ({ sb, client, requests }) => {
    const data = await client().request<{ open_id: string }>(userInfo);
    assert.equal(data.open_id, sb.users[0].open_id);
    const [logged] = await requests(USER_INFO);
    assert.equal(logged.headers["user-agent"], `hark/${VERSION}`);
    assert.match(logged.headers["authorization"], /^Bearer u-/);
  });
});

Deno.test("client retries two 500s, then succeeds on the third attempt", async () => {
  await withSandbox(async ({ sb, ctx, client, fault, requests }) => {
    await fault({ route: `GET ${USER_INFO}`, kind: "status", status: 500, times: 2 });
    const data = await client().request<{ open_id: string }>(userInfo);
    assert.equal(data.open_id, sb.users[0].open_id);
    assert.equal((await requests(USER_INFO)).length, 3);
    assert.deepEqual(ctx.sleeps, [250, 500]);
  });
});

Deno.test("client stops after 4 attempts when the 5xx persist", async () => {
  await withSandbox(async ({ ctx, client, fault, requests }) => {
    await fault({ route: USER_INFO, kind: "status", status: 503 });
    const error = await client().request(userInfo).catch((e) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.type, "server_error");
    assert.equal((await requests(USER_INFO)).length, 4);
    assert.deepEqual(ctx.sleeps, [250, 500, 1000]);
  });
});

Deno.test("client waits out a 429's x-ogw-ratelimit-reset (Lark's header), then succeeds", async () => {
  await withSandbox(async ({ ctx, client, fault, requests }) => {
    await fault({ route: USER_INFO, kind: "status", status: 429, retry_after: 2, times: 1 });
    await client().request(userInfo);
    assert.equal((await requests(USER_INFO)).length, 2);
    assert.deepEqual(ctx.sleeps, [2000]);
  });
});

Deno.test("client retries a dropped connection on a GET", async () => {
  await withSandbox(async ({ client, fault, requests }) => {
    await fault({ route: USER_INFO, kind: "drop", times: 1 });
    await client().request(userInfo);
    assert.equal((await requests(USER_INFO)).length, 2);
  });
});

Deno.test("client does not retry a dropped message send without an idempotency key", async () => {
  await withSandbox(async ({ sb, client, fault, requests }) => {
    await fault({ route: `POST ${MESSAGES}`, kind: "drop", times: 1 });
    const error = await client().request(sendTo(sb)).catch((e) => e);
    assert.ok(error instanceof NetworkError);
    assert.equal(error.code, 4);
    assert.equal((await requests(MESSAGES)).length, 1);
  });
});

Deno.test("client retries a message send dropped after it was served, and it posts once", async () => {
  await withSandbox(async ({ sb, client, fault, requests }) => {
    await fault({ route: `POST ${MESSAGES}`, kind: "drop", stage: "after", times: 1 });
    await fault({ route: `POST ${MESSAGES}`, kind: "status", status: 502, times: 1 });
    const uuid = "hark-test-uuid-0001";
    const data = await client().request<{ message_id: string }>(sendTo(sb, uuid));
    assert.match(data.message_id, /^om_/);
    assert.equal((await requests(MESSAGES)).length, 3);
    const messages: { uuid: string | null }[] =
      await (await fetch(`${sb.baseUrl}/sandbox/messages`)).json();
    assert.equal(messages.filter((m) => m.uuid === uuid).length, 1);
  });
});

Deno.test("client retries malformed and truncated answers to a GET", async () => {
  await withSandbox(async ({ client, fault, requests }) => {
    await fault({ route: USER_INFO, kind: "malformed", times: 1 });
    await fault({ route: USER_INFO, kind: "truncated", times: 1 });
    const data = await client().request<{ open_id: string }>(userInfo);
    assert.match(data.open_id, /^ou_/);
    assert.equal((await requests(USER_INFO)).length, 3);
  });
});

Deno.test("client refreshes the token after a 401 and retries at once", async () => {
  await withSandbox(async ({ ctx, tokens, client, fault, requests }) => {
    await fault({ route: USER_INFO, kind: "status", status: 401, times: 1 });
    const before = tokens.accessToken;
    await client().request(userInfo);
    assert.equal(tokens.refreshes, 1);
    assert.notEqual(tokens.accessToken, before);
    assert.equal((await requests(USER_INFO)).length, 2);
    assert.deepEqual(ctx.sleeps, []);
  });
});

Deno.test("client refreshes a token the sandbox expired, with the real refresh grant", async () => {
  await withSandbox(async ({ tokens, client, requests }) => {
    await new Promise((resolve) => setTimeout(resolve, 150));
    const data = await client().request<{ open_id: string }>(userInfo);
    assert.match(data.open_id, /^ou_/);
    assert.equal(tokens.refreshes, 1);
    assert.equal((await requests(USER_INFO)).length, 2);
  }, { accessTokenTtl: 0.1 });
});

Deno.test("client fails with an AuthError when the refreshed token is rejected too", async () => {
  await withSandbox(async ({ tokens, client, fault, requests }) => {
    await fault({ route: USER_INFO, kind: "status", status: 401, times: 2 });
    const error = await client().request(userInfo).catch((e) => e);
    assert.ok(error instanceof AuthError);
    assert.equal(error.code, 3);
    assert.equal(tokens.refreshes, 1);
    assert.equal((await requests(USER_INFO)).length, 2);
  });
});

Deno.test("client turns a missing scope into a PermissionError with the upgrade command", async () => {
  await withSandbox(async ({ sb, client, requests }) => {
    const error = await client().request(sendTo(sb)).catch((e) => e);
    assert.ok(error instanceof PermissionError);
    assert.equal(error.code, 1);
    // The sandbox names every scope that would grant the call (Lark's permission_violations):
    // alternatives, of which hark asks for one.
    assert.deepEqual(error.alternatives, ["im:message.send_as_user", "im:message"]);
    assert.deepEqual(error.scopes, ["im:message.send_as_user"]);
    assert.equal(error.recovery.command, "hark auth login --scope im:message.send_as_user");
    assert.equal((await requests(MESSAGES)).length, 1);
  }, { scopes: ["calendar:calendar.event:read"] });
});

Deno.test("client turns an injected 403 into a PermissionError at once", async () => {
  await withSandbox(async ({ client, fault, requests }) => {
    await fault({ route: USER_INFO, kind: "status", status: 403, times: 1 });
    await assert.rejects(client().request(userInfo), PermissionError);
    assert.equal((await requests(USER_INFO)).length, 1);
  });
});

Deno.test("client ends a slow answer as a NetworkError after its timeout", async () => {
  await withSandbox(async ({ client, fault }) => {
    await fault({ route: USER_INFO, kind: "latency", ms: 1000, times: 1 });
    const error = await client({ timeoutMs: 100 }).request(userInfo).catch((e) => e);
    assert.ok(error instanceof NetworkError);
    assert.match(error.message, /No answer from "127\.0\.0\.1:\d+" within 0\.1 s/);
  });
});

Deno.test("client retries a refused connection, then ends with a NetworkError", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const ctx = createTestContext({
    fetch: (input, init) => fetch(input, init),
    timeout: (ms) => AbortSignal.timeout(ms),
  });
  const tokens: TokenSource = {
    getToken: () => Promise.resolve({ token: "u-x", identity: "user", source: "env" }),
    refreshAfterRejection: () => Promise.reject(new AuthError("no")),
  };
  const client = new ApiClient(ctx, {
    baseUrl: `http://127.0.0.1:${port}`,
    tokens,
    retry: { jitter: false },
  });
  const error = await client.request(userInfo).catch((e) => e);
  assert.ok(error instanceof NetworkError);
  assert.equal(error.code, 4);
  assert.match(error.message, new RegExp(`Cannot connect to "127\\.0\\.0\\.1:${port}"`));
  assert.deepEqual(ctx.sleeps, [500, 1000, 2000]);
});
