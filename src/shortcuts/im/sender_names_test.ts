import assert from "node:assert/strict";
import { ApiError, NetworkError, PermissionError } from "../../errors/mod.ts";
import { FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { type NamedMessage, SenderNames } from "./sender_names.ts";

const user = (id: string, name?: string) => ({
  sender: { id, id_type: "open_id", sender_type: "user", sender_name: name },
});
const names = (messages: NamedMessage[]) => messages.map((m) => m.sender?.sender_name);

Deno.test("SenderNames keeps the service's names and looks up the rest once per person", async () => {
  const client = new FakeClient((r) => ({ user: { name: `Name of ${r.path.split("/").pop()}` } }));
  const resolver = new SenderNames(client, inputOf({}));
  const page1 = [user("ou_a", "Ana"), user("ou_b"), user("ou_b"), user("ou_c")];
  assert.deepEqual(names(await resolver.fill(page1)), [
    "Ana",
    "Name of ou_b",
    "Name of ou_b",
    "Name of ou_c",
  ]);
  assert.deepEqual(client.requests.map((r) => r.path), [
    "/open-apis/contact/v3/users/ou_b",
    "/open-apis/contact/v3/users/ou_c",
  ]);
  assert.deepEqual(client.requests[0].query, { user_id_type: "open_id" });
  assert.deepEqual(client.requests[0].scopes, ["contact:user.basic_profile:readonly"]);
  // The next page asks for nobody already known, even one named only by the service before.
  const page2 = [user("ou_a"), user("ou_b"), user("ou_c")];
  assert.deepEqual(names(await resolver.fill(page2)), ["Ana", "Name of ou_b", "Name of ou_c"]);
  assert.equal(client.requests.length, 2);
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
  const quiet = new SenderNames(new FakeClient(() => ({ user: { name: "Bo" } })), inputOf({}));
  assert.deepEqual(names(await quiet.fill(page)), ["Ana", "Bo", undefined]);
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
  assert.match(warnings[0], /needs the scope "contact:user\.base:readonly"/);
  assert.ok(client.requests.length <= 3, "no lookup after the first refusal's round");
});

Deno.test("SenderNames leaves an unknown person unnamed, but fails on a network error", async () => {
  const unknown = new FakeClient(() => {
    throw new ApiError("The service answered with code 41012", { apiCode: 41012 });
  });
  const resolver = new SenderNames(unknown, inputOf({}));
  assert.deepEqual(names(await resolver.fill([user("ou_x"), user("ou_x")])), [
    undefined,
    undefined,
  ]);
  await resolver.fill([user("ou_x")]);
  assert.equal(unknown.requests.length, 1, "the failure is remembered");
  const down = new FakeClient(() => {
    throw new NetworkError("Cannot connect");
  });
  await assert.rejects(new SenderNames(down, inputOf({})).fill([user("ou_y")]), NetworkError);
});
