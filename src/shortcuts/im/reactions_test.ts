import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import type { ParamValues } from "../definition.ts";
import { collect, FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { reactionAdd, reactionRemove, reactionRow, reactions } from "./reactions.ts";
import { pin, pins, pinsPageRequest, unpin } from "./pins.ts";

const flagOf = (param: string) => (e: unknown) => e instanceof ValidationError && e.param === param;
const PAGING = { limit: 20, "page-all": false, "max-pages": 10 };

Deno.test("+reaction-add posts the emoji type to the message's reactions", () => {
  const [request] = reactionAdd.requests(inputOf({ "message-id": " om_1 ", emoji: " THUMBSUP " }));
  assert.equal(request.method, "POST");
  assert.equal(request.path, "/open-apis/im/v1/messages/om_1/reactions");
  assert.deepEqual(request.body, { reaction_type: { emoji_type: "THUMBSUP" } });
  assert.deepEqual(request.scopes, ["im:message.reactions:write_only"]);
  const [remove] = reactionRemove.requests(inputOf({ "message-id": "om_1", "reaction-id": "r/1" }));
  assert.equal(remove.method, "DELETE");
  assert.equal(remove.path, "/open-apis/im/v1/messages/om_1/reactions/r%2F1");
});

Deno.test("the message operations refuse bad input naming the flag", () => {
  const cases: [typeof reactions, ParamValues, string][] = [
    [reactionAdd, { "message-id": "oc_1", emoji: "OK" }, "--message-id"],
    [reactionAdd, { "message-id": "om_1", emoji: "thumbs up" }, "--emoji"],
    [reactionAdd, { "message-id": "om_1", emoji: "" }, "--emoji"],
    [reactionAdd, { "message-id": "om_1", emoji: "\u001b[2J" }, "--emoji"],
    [reactionRemove, { "message-id": "om_1", "reaction-id": ".." }, "--reaction-id"],
    [reactions, { "message-id": "om_1", emoji: "a-b", ...PAGING }, "--emoji"],
    [reactions, { "message-id": "om_1", "page-token": "a b", ...PAGING }, "--page-token"],
    [pins, { "chat-id": "om_1", ...PAGING }, "--chat-id"],
    [pin, { "message-id": "om 1" }, "--message-id"],
    [unpin, { "message-id": "" }, "--message-id"],
  ];
  for (const [shortcut, values, flag] of cases) {
    assert.throws(() => shortcut.validate!(inputOf(values)), flagOf(flag), `${flag}`);
  }
});

Deno.test("+reactions reads pages, keeps Lark's fields and drops a time that is not one", async () => {
  const client = new FakeClient((request) => {
    assert.equal(request.query?.reaction_type, "SMILE");
    assert.equal(request.query?.page_size, 2);
    return {
      items: [
        {
          reaction_id: "r1",
          operator: { operator_id: "ou_1", operator_type: "user" },
          action_time: "1700000000000",
          reaction_type: { emoji_type: "SMILE" },
        },
        { reaction_id: "r2", action_time: "soon", reaction_type: "SMILE" },
      ],
      has_more: false,
    };
  });
  const rows = await collect(
    reactions.stream!(
      inputOf({ "message-id": "om_1", emoji: "SMILE", ...PAGING, limit: 2 }),
      client,
    ),
  );
  assert.deepEqual(rows, [
    {
      reaction_id: "r1",
      emoji_type: "SMILE",
      operator_id: "ou_1",
      operator_type: "user",
      action_time: "2023-11-14T22:13:20.000Z",
    },
    { reaction_id: "r2", emoji_type: "", operator_id: "", operator_type: "", action_time: "" },
  ]);
  assert.deepEqual(reactionRow(null).reaction_id, "");
});

Deno.test("+pins sends the window in milliseconds, both ends inclusive", () => {
  const request = pinsPageRequest(inputOf({
    "chat-id": "oc_1",
    start: { kind: "date", text: "2026-11-01", date: "2026-11-01", param: "--start" },
    end: { kind: "date", text: "2026-11-01", date: "2026-11-01", param: "--end" },
    "page-token": undefined,
    ...PAGING,
  }));
  assert.deepEqual(request.query, {
    chat_id: "oc_1",
    start_time: String(Date.UTC(2026, 10, 1)),
    end_time: String(Date.UTC(2026, 10, 2) - 1),
    page_size: 20,
    page_token: undefined,
  });
});

Deno.test("+pin answers the pin; +unpin says the message is no longer pinned", async () => {
  const client = new FakeClient((request) =>
    request.method === "POST"
      ? { pin: { message_id: "om_1", chat_id: "oc_1", operator_id: "cli_1", create_time: "0" } }
      : {}
  );
  const pinned = await pin.run!(inputOf({ "message-id": "om_1" }), client);
  assert.deepEqual(pin.output!(pinned, inputOf({})), {
    message_id: "om_1",
    chat_id: "oc_1",
    operator_id: "cli_1",
    operator_id_type: "",
    create_time: "1970-01-01T00:00:00.000Z",
  });
  assert.deepEqual(await unpin.run!(inputOf({ "message-id": "om_1" }), client), {
    message_id: "om_1",
    pinned: false,
  });
  assert.deepEqual(client.requests.map((r) => `${r.method} ${r.path}`), [
    "POST /open-apis/im/v1/pins",
    "DELETE /open-apis/im/v1/pins/om_1",
  ]);
});
