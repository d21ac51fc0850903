import assert from "node:assert/strict";
import { ApiError, AuthError } from "../errors/mod.ts";
import { jsonResponse, withFetchStub } from "../../tests/support/test_context.ts";
import { fetchTenantToken, TENANT_TOKEN_PATH, type TenantToken } from "./tenant_token.ts";

const BASE = "https://open.larksuite.com";
const CREDENTIALS = { appId: "cli_app", appSecret: "s3cret" };

function fetchWith(respond: (request: Request) => Response | Promise<Response>) {
  return withFetchStub(
    [{ method: "POST", url: BASE + TENANT_TOKEN_PATH, respond }],
    async (ctx) => ({ started: ctx.now(), token: await fetchTenantToken(ctx, BASE, CREDENTIALS) }),
  );
}

function rejection(respond: () => Response): Promise<unknown> {
  return fetchWith(respond).then(
    () => assert.fail("expected a failure"),
    (error: unknown) => error,
  );
}

Deno.test("fetchTenantToken() posts the app credentials as JSON and dates the expiry on the clock", async () => {
  let body: unknown;
  const { started, token } = await fetchWith(async (request) => {
    assert.equal(request.headers.get("content-type"), "application/json");
    body = await request.json();
    return jsonResponse({ code: 0, tenant_access_token: "t-1", expire: "3600" });
  });
  assert.deepEqual(body, { app_id: "cli_app", app_secret: "s3cret" });
  assert.deepEqual(token, { token: "t-1", expiresAt: started + 3_600_000 } satisfies TenantToken);
});

Deno.test("fetchTenantToken() assumes two hours when the answer gives no expiry", async () => {
  const { started, token } = await fetchWith(() =>
    jsonResponse({ code: 0, tenant_access_token: "t-1" })
  );
  assert.equal(token.expiresAt, started + 7_200_000);
});

Deno.test("fetchTenantToken() classifies each refusal", async () => {
  const limited = await rejection(() => jsonResponse({ code: 99991400, msg: "slow" }, 200));
  assert.ok(limited instanceof ApiError);
  assert.equal(limited.type, "rate_limit");
  const throttled = await rejection(() => new Response("", { status: 429 }));
  assert.ok(throttled instanceof ApiError);
  assert.equal(throttled.type, "rate_limit");
  const down = await rejection(() => new Response("", { status: 503 }));
  assert.ok(down instanceof ApiError);
  assert.equal(down.type, "server_error");
  const html = await rejection(() => new Response("<html>", { status: 400 }));
  assert.ok(html instanceof ApiError);
  assert.equal(html.type, "invalid_response");
  const refused = await rejection(() => jsonResponse({ code: 10014, msg: "app secret invalid" }));
  assert.ok(refused instanceof AuthError);
  assert.equal(refused.code, 3);
  assert.match(refused.message, /^Cannot get a tenant token \(code 10014\): app secret invalid/);
  assert.equal(refused.recovery.command, "hark config init --force");
});
