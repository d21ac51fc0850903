/**
 * The official SDK against the sandbox: tenant token and user info.
 *
 * @module
 */

import assert from "node:assert/strict";
import { assertShape, envelope, sdkError, t, withSdkSandbox } from "./_harness.ts";

// lib/index.js, TokenManager.getCustomTenantAccessToken: the SDK posts {app_id, app_secret} and
// reads `tenant_access_token` and `expire` at the top level of the answer (the generated type of
// auth.v3.tenantAccessToken.internal puts them under `data`, which the real service does not).
const TENANT_TOKEN = t.object({
  code: t.number,
  msg: t.string,
  tenant_access_token: t.string,
  expire: t.number,
});

// types/index.d.ts, authen.v1.userInfo.get.
const USER_INFO = t.object({
  name: t.optional(t.string),
  en_name: t.optional(t.string),
  avatar_url: t.optional(t.string),
  avatar_thumb: t.optional(t.string),
  avatar_middle: t.optional(t.string),
  avatar_big: t.optional(t.string),
  open_id: t.optional(t.string),
  union_id: t.optional(t.string),
  email: t.optional(t.string),
  enterprise_email: t.optional(t.string),
  user_id: t.optional(t.string),
  mobile: t.optional(t.string),
  tenant_key: t.optional(t.string),
  employee_no: t.optional(t.string),
});

Deno.test("SDK: the tenant token the SDK fetches itself works, and its answer has the SDK's shape", async () => {
  await withSdkSandbox({}, async ({ sandbox, client }) => {
    const raw = await client.auth.v3.tenantAccessToken.internal({
      data: { app_id: sandbox.appId, app_secret: sandbox.appSecret },
    });
    assertShape(raw, TENANT_TOKEN, "tenant token");
    // A business call makes the SDK fetch and cache a tenant token on its own.
    const view = await client.calendar.v4.calendarEvent.instanceView({
      path: { calendar_id: "primary" },
      params: { start_time: "1772409600", end_time: "1772496000" },
    });
    assert.equal(view.code, 0);
    const log = await (await fetch(`${sandbox.baseUrl}/sandbox/requests`)).json() as {
      path: string;
    }[];
    assert.equal(
      log.filter((r) => r.path === "/open-apis/auth/v3/tenant_access_token/internal").length,
      2,
    );
    const wrong = await sdkError(client.auth.v3.tenantAccessToken.internal({
      data: { app_id: sandbox.appId, app_secret: "wrong" },
    }));
    assert.equal(wrong.body.code, 10014);
  });
});

Deno.test("SDK: user_info with a device-flow user token has the SDK's shape", async () => {
  await withSdkSandbox({}, async ({ sandbox, client, signIn, asUser }) => {
    const user = sandbox.users[3];
    const token = await signIn(["calendar:calendar.event:read"], user.open_id);
    const info = await client.authen.v1.userInfo.get({}, asUser(token));
    assertShape(info, envelope(USER_INFO), "user_info");
    assert.equal(info.data?.open_id, user.open_id);
    assert.equal(info.data?.name, user.name);
    const bot = await sdkError(client.authen.v1.userInfo.get({}));
    assert.equal(bot.body.code, 99991668);
  });
});
