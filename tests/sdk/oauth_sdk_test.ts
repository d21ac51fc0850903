/**
 * The sign-in endpoints hark calls that the official SDK does not have (it signs users in
 * with the older OIDC code flow): device authorization and the v2 token endpoint, both grants,
 * against the sandbox, checked against their documented shapes. Sent with plain `fetch`, as
 * form bodies: the SDK's generic `request` sends JSON and a tenant token, which these refuse.
 *
 * Facts: RFC 8628 §3.2 (device authorization answer), §3.5 (authorization_pending); lark-cli
 * `internal/auth/device_flow.go` (path on the accounts host, Basic client credentials,
 * `verification_uri_complete`) and `internal/auth/uat_client.go` (the token answer: `code`,
 * `access_token`, `refresh_token`, `expires_in`, `refresh_token_expires_in`, `scope`; failures
 * `code`, `error`, `error_description`; 20073 for a spent refresh token, `internal/output/
 * lark_errors.go`).
 *
 * @module
 */

import assert from "node:assert/strict";
import { assertShape, t, withSdkSandbox } from "./_harness.ts";

const DEVICE_AUTHORIZATION = t.object({
  device_code: t.string,
  user_code: t.string,
  verification_uri: t.string,
  verification_uri_complete: t.optional(t.string),
  expires_in: t.number,
  interval: t.optional(t.number),
});

const TOKENS = t.object({
  code: t.optional(t.number),
  access_token: t.string,
  refresh_token: t.optional(t.string),
  token_type: t.optional(t.string),
  expires_in: t.number,
  refresh_token_expires_in: t.optional(t.number),
  scope: t.optional(t.string),
});

const FAILURE = t.object({
  code: t.optional(t.number),
  error: t.string,
  error_description: t.optional(t.string),
});

Deno.test("SDK request: device authorization and the v2 token endpoint (not in the SDK) answer the documented shapes", async () => {
  await withSdkSandbox({}, async ({ sandbox }) => {
    const form = (fields: Record<string, string>) => ({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
    const answer = async (path: string, init: RequestInit) => {
      const response = await fetch(`${sandbox.baseUrl}${path}`, init);
      return { status: response.status, body: await response.json() };
    };
    const credentials = { client_id: sandbox.appId, client_secret: sandbox.appSecret };

    const authorize = () =>
      answer("/oauth/v1/device_authorization", {
        ...form({ client_id: sandbox.appId, scope: "contact:user:search offline_access" }),
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${btoa(`${sandbox.appId}:${sandbox.appSecret}`)}`,
        },
      });
    const poll = (deviceCode: string) =>
      answer(
        "/open-apis/authen/v2/oauth/token",
        form({
          grant_type: "urn:ietf:params:oauth:grant-type:device_code",
          device_code: deviceCode,
          ...credentials,
        }),
      );

    const waiting = await authorize();
    assert.equal(waiting.status, 200);
    assertShape(waiting.body, DEVICE_AUTHORIZATION, "device authorization");
    const pending = await poll(waiting.body.device_code);
    assert.equal(pending.status, 400);
    assertShape(pending.body, FAILURE, "pending poll");
    assert.equal(pending.body.error, "authorization_pending");

    // A second code, approved before its first poll: no wait for the poll interval.
    const device = await authorize();
    const approved = await fetch(`${sandbox.baseUrl}/sandbox/approve`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ user_code: device.body.user_code, decision: "approve" }),
    });
    await approved.body?.cancel();
    const issued = await poll(device.body.device_code);
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    assertShape(issued.body, TOKENS, "device-code grant");
    assert.match(issued.body.access_token, /^u-/);

    const refresh = () =>
      answer(
        "/open-apis/authen/v2/oauth/token",
        form({
          grant_type: "refresh_token",
          refresh_token: issued.body.refresh_token,
          ...credentials,
        }),
      );
    const refreshed = await refresh();
    assert.equal(refreshed.status, 200);
    assertShape(refreshed.body, TOKENS, "refresh grant");
    assert.notEqual(refreshed.body.refresh_token, issued.body.refresh_token, "rotated");
    // A refresh token is single-use: the second use is 20073.
    const spent = await refresh();
    assert.equal(spent.status, 400);
    assertShape(spent.body, FAILURE, "spent refresh token");
    assert.equal(spent.body.code, 20073);
    assert.equal(spent.body.error, "invalid_grant");
  });
});
