import assert from "node:assert/strict";
import { ValidationError } from "../errors/mod.ts";
import { createTestContext } from "../../tests/support/test_context.ts";
import { addQueryParams, buildApiRequest, parseApiPath, parseMethod } from "./api_request.ts";

Deno.test("parseMethod() accepts any case and names a bad method", () => {
  assert.equal(parseMethod("get"), "GET");
  assert.equal(parseMethod("Patch"), "PATCH");
  assert.throws(() => parseMethod("FETCH"), (error: unknown) => {
    assert.ok(error instanceof ValidationError);
    assert.equal(error.code, 2);
    assert.equal(error.param, "<METHOD>");
    assert.match(error.message, /Invalid method "FETCH": expected one of GET, POST/);
    return true;
  });
});

Deno.test("parseApiPath() adds the /open-apis/ prefix when missing and splits a query", () => {
  assert.equal(
    parseApiPath("/open-apis/calendar/v4/calendars").path,
    "/open-apis/calendar/v4/calendars",
  );
  assert.equal(parseApiPath("calendar/v4/calendars").path, "/open-apis/calendar/v4/calendars");
  assert.equal(parseApiPath("/im/v1/chats").path, "/open-apis/im/v1/chats");
  const { path, query } = parseApiPath("open-apis/im/v1/messages?receive_id_type=chat_id");
  assert.equal(path, "/open-apis/im/v1/messages");
  assert.equal(query.get("receive_id_type"), "chat_id");
});

Deno.test("parseApiPath() rejects full URLs, empty paths and dot segments", () => {
  for (
    const bad of ["https://open.larksuite.com/open-apis/x", "/open-apis/", "", "a/../b", "a b"]
  ) {
    assert.throws(() => parseApiPath(bad), ValidationError, bad);
  }
});

Deno.test("parseApiPath() rejects percent-encoded dot segments like .. (issue 12, low)", () => {
  for (
    const bad of [
      "/open-apis/%2e%2e/%2e%2e/x",
      "/open-apis/calendar/%2E%2E/x",
      "/open-apis/calendar/%2E./x",
      "/open-apis/calendar/.%2e/x",
      "calendar/%2e/x",
    ]
  ) {
    assert.throws(() => parseApiPath(bad), ValidationError, bad);
  }
  // What URL parsing would have made of one: a path outside /open-apis/.
  assert.equal(new URL("https://h/open-apis/%2e%2e/%2e%2e/x").pathname, "/x");
  // A dot inside a segment is an ordinary character.
  assert.equal(parseApiPath("/open-apis/a/%2e%2ex/b").path, "/open-apis/a/%2e%2ex/b");
});

Deno.test("addQueryParams() takes scalars and lists, drops null, and replaces path params", () => {
  const query = new URLSearchParams("page_size=10&keep=1");
  addQueryParams({ page_size: 50, ids: ["a", "b"], all: true, gone: null }, query);
  assert.equal(query.toString(), "keep=1&page_size=50&ids=a&ids=b&all=true");
  assert.throws(() => addQueryParams([1], new URLSearchParams()), ValidationError);
  assert.throws(() => addQueryParams({ a: { b: 1 } }, new URLSearchParams()), {
    message: /Invalid --params value for "a"/,
  });
});

Deno.test("buildApiRequest() assembles method, path, query, body and key", async () => {
  const ctx = createTestContext({ stdin: '{"receive_id":"oc_1"}' });
  const request = await buildApiRequest(ctx, {
    method: "post",
    path: "im/v1/messages?receive_id_type=open_id",
    params: '{"receive_id_type":"chat_id"}',
    data: "-",
    idempotencyKey: "k-1",
    scopes: ["im:message:send"],
  });
  assert.deepEqual(request, {
    method: "POST",
    path: "/open-apis/im/v1/messages?receive_id_type=chat_id",
    body: { receive_id: "oc_1" },
    idempotencyKey: "k-1",
    scopes: ["im:message:send"],
  });
  await assert.rejects(
    buildApiRequest(ctx, { method: "GET", path: "/x", params: "-", data: "-" }),
    { message: "Only one of --params and --data can read stdin" },
  );
  await assert.rejects(
    buildApiRequest(ctx, { method: "GET", path: "/x", scopes: ["nocolon"] }),
    { name: "ValidationError", message: /Invalid scope "nocolon"/ },
  );
});

Deno.test("parseApiPath() rejects backslashes and percent-encoded slashes or backslashes", () => {
  for (
    const bad of [
      "/open-apis/..\\..\\x",
      "calendar\\v4",
      "/open-apis/calendar/a%2fb",
      "/open-apis/calendar/..%2F..%2Fx",
      "/open-apis/calendar/%5c",
      "/open-apis/calendar/%5C..%5C",
    ]
  ) {
    assert.throws(
      () => parseApiPath(bad),
      (e: unknown) =>
        e instanceof ValidationError && e.param === "<path>" &&
        /could reach a path outside \/open-apis\//.test(e.message),
      bad,
    );
  }
  // What URL parsing would have made of the first: a path outside /open-apis/.
  assert.equal(new URL("https://h/open-apis/..\\..\\x").pathname, "/x");
  // A query may hold them: only the path is a path.
  assert.equal(parseApiPath("/open-apis/a/b?q=%2F%5C").path, "/open-apis/a/b");
});
