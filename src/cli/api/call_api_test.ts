import assert from "node:assert/strict";
import { apiRetryAdvice, runApi, tableData } from "./call_api.ts";
import type { GlobalOptions } from "../../session/global_options.ts";
import { type TestSession, testSession } from "../../../tests/support/test_session.ts";
import { HarkError, NetworkError } from "../../errors/mod.ts";
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

Deno.test("runApi() --page-all follows page_token with -f fields in the query, and a table keeps the paging line", async () => {
  const page = (token: string | undefined, items: unknown[], next?: string) => ({
    method: "GET",
    url: `${BASE}/open-apis/search/v1/user?query=ann&page_size=2` +
      (token ? `&page_token=${token}` : ""),
    respond: () =>
      jsonResponse({
        code: 0,
        data: { users: items, has_more: next !== undefined, ...(next ? { page_token: next } : {}) },
      }),
  });
  const stub = new FetchStub([
    page(undefined, [{ name: "Ann" }, { name: "Anna" }], "p2"),
    page("p2", [{ name: "Annie" }]),
  ]);
  const env = { HARK_USER_ACCESS_TOKEN: "u-env-token", HARK_BASE_URL: BASE };
  const s = session({ format: "json" }, { fetch: stub.fetch, env });
  await runApi(s, {
    method: "GET",
    path: "search/v1/user",
    fields: [{ kind: "raw", text: "query=ann" }, { kind: "typed", text: "page_size=2" }],
    pageAll: true,
  });
  stub.verify();
  assert.deepEqual(JSON.parse(s.ctx.stdout.text()), {
    users: [{ name: "Ann" }, { name: "Anna" }, { name: "Annie" }],
    has_more: false,
  });

  const one = new FetchStub([page(undefined, [{ name: "Ann" }, { name: "Anna" }], "p2")]);
  const table = session({ format: "table" }, { fetch: one.fetch, env });
  await runApi(table, {
    method: "GET",
    path: "search/v1/user",
    fields: [{ kind: "raw", text: "query=ann" }, { kind: "raw", text: "page_size=2" }],
  });
  one.verify();
  assert.match(table.ctx.stdout.text(), /Anna/);
  assert.match(
    table.ctx.stderr.text(),
    /^has_more: true, page_token: "p2" \(next page: .*--page-all\)/m,
  );
});

Deno.test("runApi() refuses --page-all for a write and a bad --max-pages before sending", async () => {
  const stub = new FetchStub([]);
  const s = session({}, { fetch: stub.fetch });
  await assert.rejects(
    runApi(s, { method: "DELETE", path: "im/v1/messages/om_1", pageAll: true }),
    /Cannot use --page-all with DELETE/,
  );
  await assert.rejects(
    runApi(s, { method: "GET", path: "im/v1/chats", pageAll: true, maxPages: "0" }),
    /Invalid value "0" for --max-pages/,
  );
  assert.equal(stub.requests.length, 0);
});

Deno.test("apiRetryAdvice() repeats the -f and -F fields in the command that retries a write", () => {
  const lost = new NetworkError("Connection lost", { mayHaveApplied: true });
  const advised = apiRetryAdvice(lost, {
    method: "post",
    path: "im/v1/messages",
    fields: [{ kind: "raw", text: "msg_type=text" }, { kind: "typed", text: "n=1" }],
    idempotencyKey: "k1",
  });
  assert.equal(
    advised.recovery.command,
    "hark api POST im/v1/messages -f msg_type=text -F n=1 --idempotency-key k1",
  );
});
