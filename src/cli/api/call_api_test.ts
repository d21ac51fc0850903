import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addQueryParams,
  buildApiRequest,
  parseApiPath,
  parseMethod,
  readJsonFlag,
  runApi,
  tableData,
} from "./call_api.ts";
import type { GlobalOptions } from "../globals.ts";
import { type TestSession, testSession } from "../../../tests/support/test_session.ts";
import { HarkError, ValidationError } from "../../errors/mod.ts";
import {
  createTestContext,
  FetchStub,
  jsonResponse,
  type TestContextOptions,
} from "../../../tests/support/test_context.ts";

const BASE = "https://open.example.test";

function session(
  globals: Partial<GlobalOptions> = {},
  options: TestContextOptions = {},
): TestSession {
  return testSession(createTestContext(options), globals, {
    apps: { default: { app_id: "cli_1", base_url: BASE } },
  });
}

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

Deno.test("readJsonFlag() reads inline JSON, @file and stdin", async () => {
  const ctx = createTestContext({ stdin: '{"from":"stdin"}' });
  assert.deepEqual(await readJsonFlag(ctx, '{"a":1}', "--data"), { a: 1 });
  assert.deepEqual(await readJsonFlag(ctx, "-", "--data"), { from: "stdin" });
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "body.json");
    await Deno.writeTextFile(file, '[1, "two"]');
    assert.deepEqual(await readJsonFlag(ctx, `@${file}`, "--params"), [1, "two"]);
    await assert.rejects(readJsonFlag(ctx, `@${join(dir, "missing.json")}`, "--data"), {
      name: "ValidationError",
      message: /Cannot read --data file ".*missing\.json": no such file/,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readJsonFlag() names the flag, line and column of a syntax error", async () => {
  const ctx = createTestContext();
  const error = await readJsonFlag(ctx, '{\n  "a": 1,\n  oops\n}', "--data").catch((e) => e);
  assert.ok(error instanceof ValidationError);
  assert.equal(error.param, "--data");
  assert.match(error.message, /^Invalid JSON in --data at line 3, column 3: /);
  await assert.rejects(readJsonFlag(ctx, "  ", "--params"), {
    message: "Invalid JSON in --params: it is empty",
  });
  await assert.rejects(readJsonFlag(ctx, '{"a":', "--params"), {
    message: /^Invalid JSON in --params at line 1, column 6/,
  });
});

Deno.test("readJsonFlag() refuses to read stdin from a terminal", async () => {
  const ctx = createTestContext({ stdinIsTerminal: true });
  await assert.rejects(readJsonFlag(ctx, "-", "--data"), { name: "ValidationError" });
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

Deno.test("runApi() with --dry-run prints the preview and sends nothing, signed out", async () => {
  const stub = new FetchStub([]);
  const s = session({ dryRun: true }, { fetch: stub.fetch });
  await runApi(s, { method: "GET", path: "search/v1/user", params: '{"query":"ann"}' });
  stub.verify();
  assert.equal(stub.requests.length, 0);
  assert.deepEqual(JSON.parse(s.ctx.stdout.text()), {
    method: "GET",
    url: `${BASE}/open-apis/search/v1/user?query=ann`,
    query: { query: "ann" },
    headers: {
      "Accept": "application/json",
      "Authorization": "Bearer ****",
      "User-Agent": JSON.parse(s.ctx.stdout.text()).headers["User-Agent"],
    },
  });
  assert.match(JSON.parse(s.ctx.stdout.text()).headers["User-Agent"], /^hark\//);
});

Deno.test("runApi() sends the call with the environment token and prints the data as JSON", async () => {
  const stub = new FetchStub([{
    method: "GET",
    url: `${BASE}/open-apis/authen/v1/user_info`,
    respond: (request) => {
      assert.equal(request.headers.get("authorization"), "Bearer u-env-token");
      return jsonResponse({ code: 0, msg: "success", data: { open_id: "ou_1", name: "Ann" } });
    },
  }]);
  const s = session({}, {
    fetch: stub.fetch,
    env: { HARK_USER_ACCESS_TOKEN: "u-env-token", HARK_BASE_URL: BASE },
  });
  await runApi(s, { method: "GET", path: "/open-apis/authen/v1/user_info" });
  stub.verify();
  assert.deepEqual(JSON.parse(s.ctx.stdout.text()), { name: "Ann", open_id: "ou_1" });
});

Deno.test("runApi() as bot uses the tenant token", async () => {
  const stub = new FetchStub([{
    method: "GET",
    url: `${BASE}/open-apis/im/v1/chats`,
    respond: (request) => {
      assert.equal(request.headers.get("authorization"), "Bearer t-tenant");
      return jsonResponse({ code: 0, data: { items: [{ chat_id: "oc_1", name: "Ops" }] } });
    },
  }]);
  const s = session(
    { as: "bot", format: "csv" },
    { fetch: stub.fetch, env: { HARK_TENANT_ACCESS_TOKEN: "t-tenant", HARK_BASE_URL: BASE } },
  );
  await runApi(s, { method: "GET", path: "im/v1/chats" });
  stub.verify();
  assert.equal(s.ctx.stdout.text().trim().split(/\r?\n/).length, 2);
  assert.match(s.ctx.stdout.text(), /oc_1/);
});

Deno.test("tableData() picks the one list of an answer", () => {
  assert.deepEqual(tableData({ items: [{ a: 1 }], has_more: false }), [{ a: 1 }]);
  assert.deepEqual(tableData({ a: [1], b: [2] }), { a: [1], b: [2] });
  assert.deepEqual(tableData(undefined), {});
});

Deno.test("runApi() after a lost answer to a keyed write prints the command to send it again", async () => {
  const dropped = {
    method: "POST",
    url: `${BASE}/open-apis/im/v1/messages?receive_id_type=chat_id`,
    respond: () => Promise.reject(new TypeError("error reading a body from connection")),
  };
  const stub = new FetchStub([dropped, dropped, dropped, dropped]);
  const s = session({}, {
    fetch: stub.fetch,
    env: { HARK_USER_ACCESS_TOKEN: "u-env-token", HARK_BASE_URL: BASE },
  });
  const data = '{"receive_id":"oc_1","msg_type":"text","content":"{}","uuid":"k-42"}';
  const error = await runApi(s, {
    method: "post",
    path: "im/v1/messages?receive_id_type=chat_id",
    data,
    idempotencyKey: "k-42",
  }).then(() => undefined, (e) => e);
  stub.verify();
  assert.ok(error instanceof HarkError);
  assert.equal(error.code, 4);
  assert.equal(
    error.recovery.command,
    `hark api POST 'im/v1/messages?receive_id_type=chat_id' --data '${data}' ` +
      "--idempotency-key k-42",
  );
  assert.match(error.recovery.suggestion, /may have been applied/);
});
