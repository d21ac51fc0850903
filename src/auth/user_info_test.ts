import assert from "node:assert/strict";
import { ApiError } from "../errors/mod.ts";
import { jsonResponse, withFetchStub } from "../../tests/support/test_context.ts";
import { fetchUserInfo, USER_INFO_PATH } from "./user_info.ts";

const BASE = "https://open.larksuite.com";

Deno.test("fetchUserInfo() sends the user token as Bearer and keeps the string fields", async () => {
  let authorization: string | null = null;
  const info = await withFetchStub([{
    method: "GET",
    url: BASE + USER_INFO_PATH,
    respond: (request) => {
      authorization = request.headers.get("authorization");
      return jsonResponse({
        code: 0,
        data: { open_id: "ou_1", name: "Ada", email: 42, avatar_url: "https://a" },
      });
    },
  }], (ctx) => fetchUserInfo(ctx, BASE, "u-token"));
  assert.equal(authorization, "Bearer u-token");
  assert.deepEqual(info, { open_id: "ou_1", name: "Ada", email: undefined });
});

Deno.test("fetchUserInfo() turns a non-zero code into an ApiError with the code and log id", async () => {
  await withFetchStub([{
    method: "GET",
    url: BASE + USER_INFO_PATH,
    respond: () =>
      jsonResponse({ code: 99991663, msg: "token invalid" }, 400, { "x-tt-logid": "L" }),
  }], async (ctx) => {
    await assert.rejects(fetchUserInfo(ctx, BASE, "u-token"), (error) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.apiCode, 99991663);
      assert.equal(error.requestId, "L");
      assert.match(error.message, /^Cannot read the signed-in user: token invalid/);
      return true;
    });
  });
});

Deno.test("fetchUserInfo() refuses data that is not an object, such as a list, as unreadable", async () => {
  await withFetchStub([{
    method: "GET",
    url: BASE + USER_INFO_PATH,
    respond: () => jsonResponse({ code: 0, data: [{ open_id: "ou_1" }] }),
  }], async (ctx) => {
    await assert.rejects(fetchUserInfo(ctx, BASE, "u-token"), (error) => {
      assert.ok(error instanceof ApiError);
      assert.match(error.message, /^Cannot read the signed-in user/);
      return true;
    });
  });
});
