import assert from "node:assert/strict";
import { ApiError, NetworkError, PermissionError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { stringsField } from "../../json/fields.ts";
import { FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { type NamedMessage, SenderNames } from "./sender_names.ts";

const user = (id: string, name?: string) => ({
  sender: { id, id_type: "open_id", sender_type: "user", sender_name: name },
});
const names = (messages: NamedMessage[]) => messages.map((m) => m.sender?.sender_name);

/** The ids a names request asks about: basic_batch's body, users/batch's query. */
function idsOf(request: ApiRequest): string[] {
  const query = request.query?.user_ids;
  return Array.isArray(query) ? [...query] : stringsField(request.body, "user_ids");
}

/** basic_batch's answer (as the user) naming every id but `ou_gone`. */
const basicBatch = (request: ApiRequest) => ({
  users: idsOf(request).filter((id) => id !== "ou_gone").map((id) => ({
    user_id: id,
    name: `Name of ${id}`,
  })),
});

Deno.test("SenderNames asks basic_batch as the user, ten people a call, once per person", async () => {
  const client = new FakeClient(basicBatch);
  const resolver = new SenderNames(client, inputOf({}));
  const people = Array.from({ length: 12 }, (_, i) => `ou_${i}`);
  const page1 = [user("ou_a", "Ana"), ...people.map((id) => user(id)), user("ou_1")];
  const got = names(await resolver.fill(page1));
  assert.equal(got[0], "Ana");
  assert.equal(got[1], "Name of ou_0");
  assert.equal(got.at(-1), "Name of ou_1");
  // Lark's basic_batch (names only, for basic_profile) takes at most 10 ids: 12 people, 2 calls.
  assert.deepEqual(client.requests.map((r) => [r.method, r.path, idsOf(r).length]), [
    ["POST", "/open-apis/contact/v3/users/basic_batch", 10],
    ["POST", "/open-apis/contact/v3/users/basic_batch", 2],
  ]);
  assert.deepEqual(client.requests[0].query, { user_id_type: "open_id" });
  assert.deepEqual(client.requests[0].scopes, ["contact:user.basic_profile:readonly"]);
  // The next page asks for nobody already known, even one named only by the service before.
  const page2 = [user("ou_a"), user("ou_3"), user("ou_11")];
  assert.deepEqual(names(await resolver.fill(page2)), ["Ana", "Name of ou_3", "Name of ou_11"]);
  assert.equal(client.requests.length, 2);
});

Deno.test("SenderNames asks users/batch as the bot, fifty people a call", async () => {
  const client = new FakeClient((r) => ({
    items: idsOf(r).map((id) => ({ open_id: id, name: `Bot sees ${id}` })),
  }));
  const resolver = new SenderNames(client, inputOf({}, { identity: "bot" }));
  const people = Array.from({ length: 51 }, (_, i) => user(`ou_${i}`));
  const got = names(await resolver.fill(people));
  assert.equal(got[50], "Bot sees ou_50");
  assert.deepEqual(client.requests.map((r) => [r.method, r.path, idsOf(r).length]), [
    ["GET", "/open-apis/contact/v3/users/batch", 50],
    ["GET", "/open-apis/contact/v3/users/batch", 1],
  ]);
  assert.equal(client.requests[0].query?.user_id_type, "open_id");
  assert.deepEqual(client.requests[0].scopes, [
    "contact:contact.base:readonly",
    "contact:user.base:readonly",
  ]);
});

Deno.test("SenderNames takes names from mentions before asking, and leaves bots alone", async () => {
  const client = new FakeClient(() => {
    throw new Error("no lookup expected");
  });
  const page: NamedMessage[] = [
    { ...user("ou_a"), mentions: [] },
    { ...user("ou_b"), mentions: [{ id: "ou_a", name: "Ana" }] },
    { sender: { id: "cli_1", id_type: "app_id", sender_type: "app" } },
  ];
  const resolver = new SenderNames(client, inputOf({}, { identity: "bot" }));
  await assert.rejects(resolver.fill(page), /no lookup expected/);
  const quiet = new SenderNames(new FakeClient(basicBatch), inputOf({}));
  assert.deepEqual(names(await quiet.fill(page)), ["Ana", "Name of ou_b", undefined]);
});

Deno.test("SenderNames stops looking up after a permission error, with one warning", async () => {
  const client = new FakeClient(() => {
    throw new PermissionError("Permission denied (code 99991679)", { scopes: ["x"] });
  });
  const warnings: string[] = [];
  const resolver = new SenderNames(client, inputOf({}, { identity: "bot", warnings }));
  const page = [user("ou_a"), user("ou_b"), user("ou_c")];
  assert.deepEqual(names(await resolver.fill(page)), [undefined, undefined, undefined]);
  await resolver.fill([user("ou_d")]);
  assert.equal(warnings.length, 1);
  assert.match(
    warnings[0],
    /needs the scopes "contact:contact\.base:readonly", "contact:user\.base:readonly"/,
  );
  assert.equal(client.requests.length, 1, "no lookup after the refusal");
  const asUser: string[] = [];
  await new SenderNames(client, inputOf({}, { warnings: asUser })).fill([user("ou_e")]);
  assert.match(asUser[0], /needs the scope "contact:user\.basic_profile:readonly"/);
});

Deno.test("SenderNames leaves people the service left out or refused unnamed, but fails on a network error", async () => {
  const partial = new FakeClient(basicBatch);
  const resolver = new SenderNames(partial, inputOf({}));
  assert.deepEqual(names(await resolver.fill([user("ou_gone"), user("ou_x")])), [
    undefined,
    "Name of ou_x",
  ]);
  await resolver.fill([user("ou_gone")]);
  assert.equal(partial.requests.length, 1, "the one left out is not asked about again");
  const refused = new FakeClient(() => {
    throw new ApiError("The service answered with code 41050", { apiCode: 41050 });
  });
  const outside = new SenderNames(refused, inputOf({}, { identity: "bot" }));
  assert.deepEqual(names(await outside.fill([user("ou_x"), user("ou_y")])), [
    undefined,
    undefined,
  ]);
  await outside.fill([user("ou_x")]);
  assert.equal(refused.requests.length, 1, "the failure is remembered");
  const down = new FakeClient(() => {
    throw new NetworkError("Cannot connect");
  });
  await assert.rejects(new SenderNames(down, inputOf({})).fill([user("ou_y")]), NetworkError);
});
