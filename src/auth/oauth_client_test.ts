import assert from "node:assert/strict";
import { ApiError, NetworkError } from "../errors/mod.ts";
import { withFetchStub } from "../../tests/support/test_context.ts";
import { resolveServiceAddress } from "../config/mod.ts";
import { basicAuthorization, endpointsOf, exchange, sendRequest } from "./oauth_client.ts";

const URL = "https://open.larksuite.com/x";
const GET = { method: "GET", headers: {} };

Deno.test("basicAuthorization() form-encodes each part before joining them (RFC 6749 §2.3.1)", () => {
  const value = basicAuthorization({ appId: "cli:a b", appSecret: "s/é+" });
  assert.equal(atob(value.slice("Basic ".length)), "cli%3Aa+b:s%2F%C3%A9%2B");
});

Deno.test("endpointsOf() puts device authorization on the accounts host, the rest on base_url", () => {
  const address = resolveServiceAddress(
    { get: () => undefined },
    { apps: { default: { base_url: "https://open.feishu.cn" } } },
    "default",
  );
  assert.deepEqual(endpointsOf(address, {}), {
    deviceAuthorizationUrl: "https://accounts.feishu.cn/oauth/v1/device_authorization",
    tokenUrl: "https://open.feishu.cn/open-apis/authen/v2/oauth/token",
    baseUrl: "https://open.feishu.cn",
  });
  assert.equal(
    endpointsOf(address, { device_authorization_path: "/sso/device" }).deviceAuthorizationUrl,
    "https://accounts.feishu.cn/sso/device",
  );
});

Deno.test("exchange() reads 4xx bodies too, and only a JSON object as json", async () => {
  const answers = await withFetchStub([
    { method: "GET", url: URL, respond: () => new Response('{"a":1}', { status: 400 }) },
    { method: "GET", url: URL, respond: () => new Response("[1]", { status: 200 }) },
    { method: "GET", url: URL, respond: () => new Response("nope", { status: 502 }) },
  ], async (ctx) => [
    await exchange(ctx, URL, GET),
    await exchange(ctx, URL, GET),
    await exchange(ctx, URL, GET),
  ]);
  assert.deepEqual(answers.map((a) => [a.status, a.json, a.text]), [
    [400, { a: 1 }, '{"a":1}'],
    [200, undefined, "[1]"],
    [502, undefined, "nope"],
  ]);
});

Deno.test("sendRequest() turns no answer into a NetworkError and a redirect into an ApiError, never applied", async () => {
  await withFetchStub([
    { method: "GET", url: URL, respond: () => Promise.reject(new TypeError("refused")) },
    {
      method: "GET",
      url: URL,
      respond: () => new Response(null, { status: 307, headers: { location: URL + "/y" } }),
    },
  ], async (ctx) => {
    await assert.rejects(sendRequest(ctx, URL, GET), (error) => {
      assert.ok(error instanceof NetworkError);
      assert.equal(error.mayHaveApplied, false);
      return true;
    });
    await assert.rejects(sendRequest(ctx, URL, GET), (error) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.mayHaveApplied, false);
      return true;
    });
  });
});
