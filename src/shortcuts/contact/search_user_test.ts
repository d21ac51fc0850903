import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { collect, FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { searchUser } from "./search_user.ts";

const users = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({ name: `U${from + i}`, open_id: `ou_${from + i}` }));

function pagedClient(total: number) {
  return new FakeClient((r) => {
    const size = Number(r.query!.page_size);
    const offset = r.query!.page_token ? Number(String(r.query!.page_token).slice(1)) : 0;
    const more = offset + size < total;
    return {
      users: users(offset, Math.min(size, total - offset)),
      has_more: more,
      page_token: more ? `p${offset + size}` : undefined,
    };
  });
}

Deno.test("search-user returns one page of --limit users", async () => {
  const client = pagedClient(50);
  const found = await collect(
    searchUser.stream!(inputOf({ query: "u", limit: 20, "page-all": false }), client),
  );
  assert.equal(found.length, 20);
  assert.equal(client.requests.length, 1);
  assert.deepEqual(client.requests[0].query, { query: "u", page_size: 20, page_token: undefined });
});

Deno.test("search-user --page-all follows page_token to the end, 200 per page", async () => {
  const client = pagedClient(450);
  const found = await collect(
    searchUser.stream!(inputOf({ query: "u", limit: 20, "page-all": true }), client),
  );
  assert.equal(found.length, 450);
  // --page-all ignores --limit: each page asks for Lark's maximum, 200.
  assert.deepEqual(client.requests.map((r) => r.query!.page_size), [200, 200, 200]);
  assert.deepEqual(client.requests.map((r) => r.query!.page_token), [undefined, "p200", "p400"]);
});

Deno.test("search-user --max-pages stops a long listing with a warning", async () => {
  const client = pagedClient(450);
  const warnings: string[] = [];
  const input = inputOf({ query: "u", limit: 200, "page-all": true, "max-pages": 2 }, {
    warnings,
  });
  const found = await collect(searchUser.stream!(input, client));
  assert.equal(found.length, 400);
  assert.match(warnings[0], /Stopped after 2 pages \(--max-pages\)/);
});

Deno.test("search-user stops when the service repeats a page token", async () => {
  const client = new FakeClient(() => ({
    users: [{ name: "a", open_id: "ou_a" }],
    has_more: true,
    page_token: "same",
  }));
  const input = inputOf({ query: "u", limit: 20, "page-all": true });
  await assert.rejects(
    collect(searchUser.stream!(input, client)),
    /page token it had given before/,
  );
  assert.equal(client.requests.length, 2);
});

Deno.test("search-user pages past 200 when --limit asks for more", async () => {
  const client = pagedClient(450);
  const found = await collect(
    searchUser.stream!(inputOf({ query: "u", limit: 300, "page-all": false }), client),
  );
  assert.equal(found.length, 300);
  assert.deepEqual(client.requests.map((r) => r.query!.page_size), [200, 200]);
});

Deno.test("search-user validate rejects an empty query and a limit under 1", () => {
  assert.throws(
    () => searchUser.validate!(inputOf({ query: " ", limit: 20 })),
    (e: unknown) => e instanceof ValidationError && e.param === "--query",
  );
  assert.throws(
    () => searchUser.validate!(inputOf({ query: "a", limit: 0 })),
    (e: unknown) => e instanceof ValidationError && e.param === "--limit",
  );
});

Deno.test("search-user --page-token starts where a shorter listing stopped, and says how to go on", async () => {
  const client = pagedClient(50);
  const warnings: string[] = [];
  const input = inputOf({ query: "u", limit: 20, "page-all": false, "page-token": "p20" }, {
    warnings,
  });
  const found = await collect(searchUser.stream!(input, client));
  assert.deepEqual(found.map((u) => u.open_id), users(20, 20).map((u) => u.open_id));
  assert.equal(client.requests[0].query!.page_token, "p20");
  assert.deepEqual(warnings, ["There is more: continue with --page-token p40"]);
  assert.throws(
    () => searchUser.validate!(inputOf({ query: "u", limit: 20, "page-token": "a b" })),
    (e: unknown) => e instanceof ValidationError && e.param === "--page-token",
  );
});
