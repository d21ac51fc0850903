import assert from "node:assert/strict";
import { runApi, tableData } from "./call_api.ts";
import type { GlobalOptions } from "../../session/global_options.ts";
import { type TestSession, testSession } from "../../../tests/support/test_session.ts";
import { HarkError } from "../../errors/mod.ts";
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
