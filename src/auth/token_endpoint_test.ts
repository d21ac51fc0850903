import assert from "node:assert/strict";
import { ApiError, NetworkError } from "../errors/mod.ts";
import { jsonResponse, withFetchStub } from "../../tests/support/test_context.ts";
import { callTokenEndpoint, DEVICE_CODE_GRANT, type TokenAnswer } from "./token_endpoint.ts";

const URL = "https://open.larksuite.com/open-apis/authen/v2/oauth/token";
const CREDENTIALS = { appId: "cli_app", appSecret: "s3cret" };
const DEVICE_GRANT = { grant_type: DEVICE_CODE_GRANT, device_code: "dc-1" };

/** Calls the token endpoint once against one stubbed answer. */
function callWith(
  respond: (request: Request) => Response | Promise<Response>,
): Promise<TokenAnswer> {
  return withFetchStub(
    [{ method: "POST", url: URL, respond }],
    (ctx) => callTokenEndpoint(ctx, URL, CREDENTIALS, DEVICE_GRANT),
  );
}

function transientOf(answer: TokenAnswer) {
  assert.equal(answer.kind, "transient", JSON.stringify(answer));
  return answer as Extract<TokenAnswer, { kind: "transient" }>;
}

function refusalOf(answer: TokenAnswer) {
  assert.equal(answer.kind, "error", JSON.stringify(answer));
  return answer as Extract<TokenAnswer, { kind: "error" }>;
}

Deno.test("callTokenEndpoint() posts the grant and the client credentials as a form, without Basic", async () => {
  let form: URLSearchParams | undefined;
  let headers: Headers | undefined;
  const answer = await callWith(async (request) => {
    headers = request.headers;
    form = new URLSearchParams(await request.text());
    return jsonResponse({ access_token: "u-1" });
  });
  assert.equal(answer.kind, "tokens");
  assert.equal(headers?.get("content-type"), "application/x-www-form-urlencoded");
  assert.equal(headers?.get("accept"), "application/json");
  assert.equal(headers?.get("authorization"), null);
  assert.deepEqual(Object.fromEntries(form!), {
    grant_type: DEVICE_CODE_GRANT,
    device_code: "dc-1",
    client_id: "cli_app",
    client_secret: "s3cret",
  });
});

Deno.test("callTokenEndpoint() reads a grant, numbers given as digit strings included", async () => {
  const answer = await callWith(() =>
    jsonResponse({
      access_token: "u-1",
      expires_in: "7200",
      refresh_token: "r-1",
      refresh_token_expires_in: 604800,
      scope: "calendar:calendar offline_access",
      token_type: "Bearer",
    })
  );
  assert.deepEqual(answer, {
    kind: "tokens",
    grant: {
      access_token: "u-1",
      expires_in: 7200,
      refresh_token: "r-1",
      refresh_token_expires_in: 604800,
      scope: "calendar:calendar offline_access",
      token_type: "Bearer",
    },
  });
  const sparse = await callWith(() => jsonResponse({ access_token: "u-2", expires_in: "soon" }));
  assert.deepEqual(sparse, {
    kind: "tokens",
    grant: {
      access_token: "u-2",
      expires_in: undefined,
      refresh_token: undefined,
      refresh_token_expires_in: undefined,
      scope: undefined,
      token_type: undefined,
    },
  });
});

for (
  const error of [
    "authorization_pending",
    "slow_down",
    "access_denied",
    "expired_token",
    "invalid_grant",
    "invalid_client",
  ]
) {
  Deno.test(`callTokenEndpoint() returns RFC 6749's ${error} as a refusal with its description`, async () => {
    const answer = await callWith(() =>
      jsonResponse({ error, error_description: `about ${error}` }, 400, { "x-tt-logid": "log-1" })
    );
    assert.deepEqual(refusalOf(answer), {
      kind: "error",
      error,
      code: undefined,
      description: `about ${error}`,
      status: 400,
      requestId: "log-1",
    });
  });
}

Deno.test("callTokenEndpoint() names an answer with only Lark's code code_<code>", async () => {
  const answer = refusalOf(
    await callWith(() => jsonResponse({ code: 20037, msg: "refresh token expired" }, 400)),
  );
  assert.equal(answer.error, "code_20037");
  assert.equal(answer.code, 20037);
  assert.equal(answer.description, "refresh token expired");
});

Deno.test("callTokenEndpoint() calls a 200 without a token an invalid_response refusal", async () => {
  const answer = refusalOf(await callWith(() => jsonResponse({ code: 0, access_token: "" })));
  assert.equal(answer.error, "invalid_response");
  assert.equal(answer.code, undefined);
  assert.equal(answer.description, "HTTP 200");
});

Deno.test("callTokenEndpoint() treats HTTP 429 and Lark's rate-limit code as transient rate limits", async () => {
  for (
    const respond of [
      () => jsonResponse({ error: "slow" }, 429),
      () => jsonResponse({ code: 99991400, msg: "too many" }, 200),
    ]
  ) {
    const answer = transientOf(await callWith(respond));
    assert.match(answer.reason, /^rate limited \(HTTP (429|200)\)$/);
    assert.ok(answer.error instanceof ApiError);
    assert.equal(answer.error.type, "rate_limit");
    assert.equal(answer.error.code, 1);
  }
});

Deno.test("callTokenEndpoint() treats a 5xx and the busy code 20050 as transient, keeping the code", async () => {
  const down = transientOf(await callWith(() => new Response("oops", { status: 503 })));
  assert.equal(down.reason, "HTTP 503");
  assert.equal(down.error.type, "server_error");
  assert.equal(down.code, undefined);
  const busy = transientOf(await callWith(() => jsonResponse({ code: 20050, msg: "busy" }, 500)));
  assert.equal(busy.reason, "HTTP 500, code 20050");
  assert.equal(busy.code, 20050);
  assert.match(busy.error.message, /unavailable \(HTTP 500, code 20050\): busy/);
  // The spec's own server code keeps the code map's error (exit 4), as a business call would.
  const spec = transientOf(await callWith(() => jsonResponse({ code: 500000, msg: "x" }, 500)));
  assert.equal(spec.error.code, 4);
  assert.match(spec.error.message, /code 500000/);
});

Deno.test("callTokenEndpoint() treats an answer that is not a JSON object as transient", async () => {
  const answer = transientOf(await callWith(() => new Response("<html>", { status: 400 })));
  assert.equal(answer.reason, "unreadable answer (HTTP 400)");
  assert.equal(answer.error.type, "invalid_response");
  assert.match(answer.error.message, /is not JSON \(HTTP 400\)/);
});

Deno.test("callTokenEndpoint() turns a network failure into a transient NetworkError never applied", async () => {
  const answer = transientOf(
    await callWith(() => {
      throw new TypeError("connection refused");
    }),
  );
  assert.ok(answer.error instanceof NetworkError);
  assert.equal(answer.error.code, 4);
  assert.equal(answer.error.mayHaveApplied, false);
  assert.equal(answer.reason, answer.error.message);
});

Deno.test("callTokenEndpoint() never follows a redirect: it throws without retrying", async () => {
  await assert.rejects(
    callWith(() =>
      new Response(null, { status: 302, headers: { location: "https://elsewhere.example/" } })
    ),
    (error) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.mayHaveApplied, false);
      return true;
    },
  );
});
