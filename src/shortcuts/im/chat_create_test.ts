import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { chatCreate, membersOf } from "./chat_create.ts";

const base = { name: "Release", type: "private" };

Deno.test("+chat-create sends the members, their id type and the uuid", async () => {
  const client = new FakeClient(() => ({ chat_id: "oc_new" }));
  const input = inputOf({ ...base, members: "on_1,on_2", "idempotency-key": "c-1" }, {
    identity: "bot",
  });
  chatCreate.validate!(input);
  assert.deepEqual(await chatCreate.run!(input, client), { chat_id: "oc_new" });
  const [request] = client.requests;
  assert.deepEqual(request.query, { user_id_type: "union_id", uuid: "c-1" });
  assert.deepEqual(request.body, {
    name: "Release",
    chat_type: "private",
    user_id_list: ["on_1", "on_2"],
  });
  assert.equal(request.idempotencyKey, "c-1");
  assert.deepEqual(request.scopes, ["im:chat:create"]);
  const [asUser] = chatCreate.requests(inputOf({ ...base, description: " d " }));
  assert.deepEqual(asUser.scopes, ["im:chat:create_by_user"]);
  assert.deepEqual(asUser.body, {
    name: "Release",
    description: "d",
    chat_type: "private",
    user_id_list: [],
  });
  assert.match((asUser.query as { uuid: string }).uuid, /^[0-9a-f-]{36}$/);
});

Deno.test("+chat-create refuses mixed id kinds, bad names and keys", () => {
  const param = (p: string) => (e: unknown) => e instanceof ValidationError && e.param === p;
  assert.throws(() => membersOf(inputOf({ members: "ou_1,on_2" })), param("--members"));
  const many = Array.from({ length: 51 }, (_, i) => `ou_${i}`).join(",");
  assert.throws(() => membersOf(inputOf({ members: many })), param("--members"));
  assert.throws(() => chatCreate.validate!(inputOf({ ...base, name: " " })), param("--name"));
  assert.throws(
    () => chatCreate.validate!(inputOf({ ...base, name: "x".repeat(61) })),
    param("--name"),
  );
  assert.throws(() => chatCreate.validate!(inputOf({ ...base, name: "a\u0007" })), param("--name"));
  assert.throws(
    () => chatCreate.validate!(inputOf({ name: "A", type: "public" })),
    param("--name"),
  );
  assert.throws(
    () => chatCreate.validate!(inputOf({ ...base, description: "d".repeat(101) })),
    param("--description"),
  );
  assert.throws(
    () => chatCreate.validate!(inputOf({ ...base, "idempotency-key": "k".repeat(51) })),
    param("--idempotency-key"),
  );
});

Deno.test("+chat-create whose answer holds no chat says it was created, with the key that creates nothing twice", async () => {
  for (const answer of [null, 1e308, "abc", [], { chat_id: 7 }]) {
    const warnings: string[] = [];
    const input = inputOf({ ...base, members: "ou_1", "idempotency-key": "c-9" }, { warnings });
    const row = chatCreate.output!(
      await chatCreate.run!(input, new FakeClient(() => answer)),
      input,
    );
    assert.equal(row && typeof row === "object" && "name" in row && row.name, "Release");
    assert.deepEqual(warnings, [
      "The chat was created (the service accepted it), but the service's answer holds no chat " +
      "id; running the command again with --idempotency-key c-9 creates nothing new",
    ], JSON.stringify(answer));
  }
  const input = inputOf({ ...base, members: "ou_1", "idempotency-key": "c-9" });
  const chat = { chat_id: "oc_1", name: "Release" };
  assert.deepEqual(
    chatCreate.output!(await chatCreate.run!(input, new FakeClient(() => chat)), input),
    chat,
  );
});

Deno.test("+chat-create --owner, --bots and --set-bot-manager go in Lark's fields", () => {
  const [request] = chatCreate.requests(inputOf({
    ...base,
    members: "on_1",
    owner: " on_1 ",
    bots: "cli_a,cli_b,cli_a",
    "set-bot-manager": true,
    "idempotency-key": "k",
  }, { identity: "bot" }));
  assert.deepEqual(request.query, { user_id_type: "union_id", uuid: "k", set_bot_manager: true });
  assert.deepEqual(request.body, {
    name: "Release",
    owner_id: "on_1",
    chat_type: "private",
    user_id_list: ["on_1"],
    bot_id_list: ["cli_a", "cli_b"],
  });
  const owned = chatCreate.requests(inputOf({ ...base, owner: "ou_9", "idempotency-key": "k" }));
  assert.deepEqual(owned[0].query, { user_id_type: "open_id", uuid: "k" });
  const flagOf = (param: string) => (e: unknown) =>
    e instanceof ValidationError && e.param === param;
  const cases: [Record<string, string | boolean>, string, "user" | "bot"][] = [
    [{ members: "ou_1", owner: "on_1" }, "--owner", "user"],
    [{ owner: "ou 1" }, "--owner", "user"],
    [{ bots: "ou_1" }, "--bots", "user"],
    [{ bots: "cli_1,cli_2,cli_3,cli_4,cli_5,cli_6" }, "--bots", "user"],
    [{ "set-bot-manager": true, owner: "ou_1" }, "--set-bot-manager", "user"],
    [{ "set-bot-manager": true }, "--set-bot-manager", "bot"],
  ];
  for (const [values, flag, identity] of cases) {
    assert.throws(
      () => chatCreate.validate!(inputOf({ ...base, ...values }, { identity })),
      flagOf(flag),
      flag,
    );
  }
});
