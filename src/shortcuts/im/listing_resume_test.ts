import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { collect, FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { chats } from "./chats.ts";
import { messages } from "./messages.ts";
import { thread } from "./thread.ts";

const PAGING = { limit: 1, "page-all": false, "max-pages": 10 };
const flagOf = (param: string) => (e: unknown) => e instanceof ValidationError && e.param === param;

Deno.test("+messages, +thread and +chats start at --page-token and print the next one", async () => {
  const cases = [
    [messages, { "chat-id": "oc_1", order: "desc" }],
    [thread, { "thread-id": "omt_1", order: "asc" }],
    [chats, {}],
  ] as const;
  for (const [shortcut, values] of cases) {
    const client = new FakeClient((request) => {
      assert.equal(request.query?.page_token, "tok_2");
      return {
        items: [{ message_id: "om_1", chat_id: "oc_1", msg_type: "text", body: { content: "{}" } }],
        has_more: true,
        page_token: "tok_3",
      };
    });
    const warnings: string[] = [];
    const input = inputOf({ ...values, ...PAGING, "page-token": " tok_2 " }, { warnings });
    assert.equal(shortcut.requests(input).at(-1)?.query?.page_token, "tok_2");
    const rows = await collect(shortcut.stream!(input, client));
    assert.equal(rows.length, 1);
    assert.deepEqual(warnings, ["There is more: continue with --page-token tok_3"]);
    assert.throws(
      () => shortcut.validate!(inputOf({ ...values, ...PAGING, "page-token": "a\u001bb" })),
      flagOf("--page-token"),
    );
  }
});
