import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { inputOf } from "../../../tests/support/fake_client.ts";
import { parseTimeInput } from "../../time/mod.ts";
import { foundIds, type MessagesSearchValues, searchRequest } from "./messages_search.ts";

const PAGING = { limit: 20, "page-all": false, "max-pages": 1000, "at-me": false } as const;

Deno.test("+messages-search maps every filter to Lark's search body", () => {
  const request = searchRequest(inputOf({
    ...PAGING,
    query: " plan ",
    "chat-id": "oc_1,oc_2",
    sender: "ou_1",
    attachment: "file",
    "chat-type": "p2p",
    "sender-type": "user",
    "exclude-sender-type": "bot",
    "at-me": true,
    start: parseTimeInput("2026-03-01", { param: "--start", now: 0, timeZone: "UTC" }),
    end: parseTimeInput("2026-03-01", { param: "--end", now: 0, timeZone: "UTC" }),
  }));
  assert.equal(request.method, "POST");
  assert.deepEqual(request.query, { page_size: 20, page_token: undefined });
  assert.deepEqual(request.body, {
    query: "plan",
    filter: {
      chat_ids: ["oc_1", "oc_2"],
      from_ids: ["ou_1"],
      include_attachment_types: ["file"],
      from_types: ["user"],
      exclude_from_types: ["bot"],
      chat_type: "p2p",
      is_at_me: true,
      time_range: {
        start_time: "2026-03-01T00:00:00+00:00",
        end_time: "2026-03-01T23:59:59+00:00",
      },
    },
  });
  assert.deepEqual(request.scopes, ["search:message"]);
  assert.equal(searchRequest(inputOf({ ...PAGING, query: "x", limit: 500 })).query!.page_size, 50);
});

Deno.test("+messages-search refuses a search of nothing and contradictory filters", () => {
  const cases: [Partial<MessagesSearchValues>, string][] = [
    [{}, "--query"],
    [{ query: "a\u001bb" }, "--query"],
    [{ query: "x".repeat(201) }, "--query"],
    [{ query: "x", sender: "on_1" }, "--sender"],
    [{ query: "x", "chat-id": "ou_1" }, "--chat-id"],
    [{ query: "x", "sender-type": "bot", "exclude-sender-type": "bot" }, "--exclude-sender-type"],
  ];
  for (const [values, flag] of cases) {
    assert.throws(
      () => searchRequest(inputOf({ ...PAGING, ...values })),
      (e: unknown) => e instanceof ValidationError && e.param === flag,
      flag,
    );
  }
});

Deno.test("+messages-search reads the ids of a page and skips malformed items", () => {
  assert.deepEqual(
    foundIds({
      items: [{ meta_data: { message_id: "om_1" } }, { meta_data: {} }, 7, { meta_data: "x" }],
    }),
    ["om_1"],
  );
  assert.deepEqual(foundIds({ items: "nope" }), []);
});
