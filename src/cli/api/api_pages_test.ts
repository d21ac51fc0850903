import assert from "node:assert/strict";
import { ApiError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { fetchAllPages, pagingLine } from "./api_pages.ts";

function pages(answers: Record<string, unknown>) {
  const sent: string[] = [];
  const send = (request: ApiRequest) => {
    sent.push(request.path);
    const token = new URL(request.path, "http://x").searchParams.get("page_token") ?? "";
    return Promise.resolve(answers[token]);
  };
  return { sent, send };
}

Deno.test("fetchAllPages() stops at --max-pages and says the listing had more", async () => {
  const { sent, send } = pages({
    "": { items: [1], has_more: true, page_token: "a" },
    a: { items: [2], has_more: true, page_token: "b" },
  });
  const stopped: number[] = [];
  const data = await fetchAllPages(send, { method: "GET", path: "/open-apis/x?q=1" }, {
    maxPages: 2,
    onMaxPages: (n) => stopped.push(n),
  });
  assert.deepEqual(sent, ["/open-apis/x?q=1", "/open-apis/x?q=1&page_token=a"]);
  assert.deepEqual(stopped, [2]);
  assert.deepEqual(data, { items: [1, 2], has_more: true, page_token: "b" });
});

Deno.test("fetchAllPages() refuses a page token given twice, and returns an answer without a list as it is", async () => {
  const loop = pages({
    "": { items: [1], has_more: true, page_token: "a" },
    a: { items: [2], has_more: true, page_token: "a" },
  });
  await assert.rejects(
    fetchAllPages(loop.send, { method: "GET", path: "/x" }, { maxPages: 9, onMaxPages() {} }),
    ApiError,
  );
  const plain = pages({ "": { open_id: "ou_1", has_more: true, page_token: "z" } });
  const data = await fetchAllPages(plain.send, { method: "GET", path: "/x" }, {
    maxPages: 9,
    onMaxPages() {},
  });
  assert.deepEqual(data, { open_id: "ou_1", has_more: true, page_token: "z" });
  assert.equal(plain.sent.length, 1);
});

Deno.test("pagingLine() shows has_more and a terminal-safe page_token, and nothing without them", () => {
  assert.equal(pagingLine({ items: [], has_more: false }), "has_more: false");
  assert.equal(
    pagingLine({ has_more: true, page_token: "p\u001b[2J" }),
    'has_more: true, page_token: "p\\u001b[2J" (next page: -f page_token=<page_token>; ' +
      "every page: --page-all)",
  );
  assert.equal(pagingLine({ items: [] }), undefined);
});
