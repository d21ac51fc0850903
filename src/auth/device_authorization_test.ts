import assert from "node:assert/strict";
import { ApiError, AuthError, ValidationError } from "../errors/mod.ts";
import { jsonResponse, withFetchStub } from "../../tests/support/test_context.ts";
import { type DeviceAuthorization, requestDeviceAuthorization } from "./device_authorization.ts";

const URL = "https://accounts.larksuite.com/oauth/v1/device_authorization";
const CREDENTIALS = { appId: "cli_app", appSecret: "s3cret" };
const ANSWER = {
  device_code: "dc-1",
  user_code: "ABCD-EFGH",
  verification_uri: "https://accounts.larksuite.com/device",
  verification_uri_complete: "https://accounts.larksuite.com/device?code=ABCD-EFGH",
  expires_in: 600,
  interval: 5,
};

function authorize(
  respond: (request: Request) => Response | Promise<Response>,
  scopes = ["calendar:calendar"],
): Promise<DeviceAuthorization> {
  return withFetchStub(
    [{ method: "POST", url: URL, respond }],
    (ctx) => requestDeviceAuthorization(ctx, URL, CREDENTIALS, scopes),
  );
}

Deno.test("requestDeviceAuthorization() sends Basic client credentials and the scopes plus offline_access once", async () => {
  let form: Record<string, string> = {};
  let headers: Headers | undefined;
  const auth = await authorize(async (request) => {
    headers = request.headers;
    form = Object.fromEntries(new URLSearchParams(await request.text()));
    return jsonResponse(ANSWER);
  }, ["calendar:calendar", "offline_access", "calendar:calendar"]);
  assert.deepEqual(auth, ANSWER);
  assert.deepEqual(form, { client_id: "cli_app", scope: "calendar:calendar offline_access" });
  assert.equal(headers?.get("authorization"), `Basic ${btoa("cli_app:s3cret")}`);
  assert.equal(headers?.get("content-type"), "application/x-www-form-urlencoded");
});

Deno.test("requestDeviceAuthorization() keeps only the optional fields that have their type", async () => {
  const auth = await authorize(() =>
    jsonResponse({
      device_code: "dc-1",
      user_code: "U",
      verification_uri: "https://v",
      verification_uri_complete: 7,
      expires_in: "600",
      interval: null,
    })
  );
  assert.deepEqual(auth, {
    device_code: "dc-1",
    user_code: "U",
    verification_uri: "https://v",
    verification_uri_complete: undefined,
    expires_in: undefined,
    interval: undefined,
  });
});

Deno.test("requestDeviceAuthorization() turns invalid_scope into a --scope error naming each scope asked", async () => {
  await assert.rejects(
    authorize(
      () => jsonResponse({ error: "invalid_scope" }, 400, { "x-tt-logid": "log-9" }),
      ["a:b", "c:d"],
    ),
    (error) => {
      assert.ok(error instanceof ValidationError);
      assert.equal(error.param, "--scope");
      assert.match(error.message, /one of "a:b", "c:d"/);
      assert.doesNotMatch(error.message, /offline_access/);
      // ValidationError keeps no log id of its own: the message carries it.
      assert.match(error.message, /log-9/);
      return true;
    },
  );
});

Deno.test("requestDeviceAuthorization() turns invalid_client into an AuthError pointing at config init", async () => {
  await assert.rejects(
    authorize(() => jsonResponse({ error: "invalid_client", error_description: "bad" }, 401)),
    (error) => {
      assert.ok(error instanceof AuthError);
      assert.equal(error.code, 3);
      assert.match(error.message, /^Cannot start the sign-in: invalid_client: bad \(from "/);
      assert.equal(error.recovery.command, "hark config init --force");
      return true;
    },
  );
});

Deno.test("requestDeviceAuthorization() turns other refusals into ApiErrors, a 429 a rate limit", async () => {
  await assert.rejects(authorize(() => jsonResponse({ error: "x" }, 429)), (error) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.type, "rate_limit");
    return true;
  });
  // A 200 without the codes is no authorization either.
  await assert.rejects(authorize(() => jsonResponse({ device_code: "dc-1" })), (error) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.httpStatus, 200);
    assert.match(error.message, /Cannot start the sign-in: HTTP 200/);
    return true;
  });
});
