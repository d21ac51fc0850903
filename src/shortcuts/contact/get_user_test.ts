import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { createTestContext } from "../../../tests/support/test_context.ts";
import { FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { getUser, profileRow, statusOf } from "./get_user.ts";
import { me } from "./me.ts";

Deno.test("+get-user asks with the id type the id shows, and Lark's profile scopes as both", async () => {
  const client = new FakeClient(() => ({
    user: {
      name: "Ana",
      join_time: 1700000000,
      email: "a@x.test",
      department_ids: [],
      user_id: "u",
    },
  }));
  const warnings: string[] = [];
  const input = inputOf({ "user-id": "on_1" }, {
    identity: "bot",
    ctx: createTestContext({ timeZone: "Asia/Shanghai" }),
    warnings,
  });
  const result = await getUser.run!(input, client);
  assert.deepEqual(getUser.output!(result, input), {
    name: "Ana",
    join_time: "2023-11-15T06:13:20+08:00",
    email: "a@x.test",
    department_ids: [],
    user_id: "u",
  });
  assert.deepEqual(warnings, []);
  assert.equal(client.requests[0].path, "/open-apis/contact/v3/users/on_1");
  assert.deepEqual(client.requests[0].query, {
    user_id_type: "union_id",
    department_id_type: "open_department_id",
  });
  // Lark's contact-v3 user get doc: an API permission (any one of four) and the name's field
  // permission; contact:user.basic_profile:readonly opens basic_batch only.
  const profile = ["contact:contact.base:readonly", "contact:user.base:readonly"];
  assert.deepEqual(client.requests[0].scopes, profile);
  const [plain] = getUser.requests(inputOf({ "user-id": "e8eb2af2" }));
  assert.equal((plain.query as { user_id_type: string }).user_id_type, "user_id");
  assert.deepEqual(plain.scopes, profile);
  assert.deepEqual(getUser.scopes.user, profile);
  assert.deepEqual(getUser.scopes.bot, profile, "the bot needs the API permission too");
  assert.deepEqual(getUser.scopes.optional?.user, [
    "contact:user.email:readonly",
    "contact:user.department:readonly",
    "contact:user.employee_id:readonly",
  ]);
  assert.deepEqual(getUser.scopes.optional?.bot, getUser.scopes.optional?.user);
  assert.throws(
    () => getUser.validate!(inputOf({ "user-id": " " })),
    (e: unknown) => e instanceof ValidationError && e.param === "--user-id",
  );
});

Deno.test("+get-user names the fields Lark left out for lack of their field permission", () => {
  const person = { open_id: "ou_1", name: "Ana", email: "a@x.test" };
  const asUser = (scopes?: string[]) => {
    const warnings: string[] = [];
    const input = inputOf({ "user-id": "ou_1" }, {
      warnings,
      config: scopes ? { users: { default: { scopes } } } : {},
    });
    getUser.output!(person, input);
    return warnings;
  };
  // Granted scopes unknown (an environment token): both absent fields are named.
  const [unknown] = asUser();
  assert.match(unknown, /^Not shown: departments, user id\. Lark leaves them out without /);
  assert.match(unknown, /contact:user\.department:readonly, contact:user\.employee_id:readonly/);
  assert.match(
    unknown,
    /hark auth login --scope contact:user\.department:readonly --scope contact:user\.employee_id:readonly$/,
  );
  // The sign-in holds the department scope: the person simply has none; only the user id.
  const [one] = asUser(["contact:user.department:readonly"]);
  assert.match(one, /^Not shown: user id\. Lark leaves it out without/);
  // A broad API permission unlocks every field: nothing to say.
  assert.deepEqual(asUser(["contact:contact:readonly"]), []);
  const warnings: string[] = [];
  getUser.output!(person, inputOf({ "user-id": "ou_1" }, { identity: "bot", warnings }));
  assert.match(warnings[0], /enable them for the app in the developer console$/);
});

Deno.test("statusOf() says resigned, frozen, inactive or active; profileRow keeps other fields", () => {
  assert.equal(statusOf({ status: { is_resigned: true, is_activated: false } }), "resigned");
  assert.equal(statusOf({ status: { is_frozen: true, is_activated: true } }), "frozen");
  assert.equal(statusOf({ status: { is_activated: false } }), "inactive");
  assert.equal(statusOf({ status: { is_activated: true } }), "active");
  assert.equal(statusOf({}), "");
  // A status that is not an object says nothing (it used to read as "active").
  assert.equal(statusOf({ status: "active" }), "");
  assert.equal(statusOf({ status: [true] }), "");
  assert.deepEqual(profileRow({ name: "x" }, "UTC"), { name: "x" });
});

Deno.test("+me asks who the token belongs to, as the user only", async () => {
  const client = new FakeClient(() => ({ open_id: "ou_1", name: "Ana" }));
  assert.deepEqual(await me.run!(inputOf({}), client), { open_id: "ou_1", name: "Ana" });
  assert.equal(client.requests[0].path, "/open-apis/authen/v1/user_info");
  assert.deepEqual(me.identities, ["user"]);
});

Deno.test("profileRow() shows join_time in RFC 3339, or leaves one that is not a time out with a warning", () => {
  assert.deepEqual(profileRow({ name: "x", join_time: 1795000000 }, "UTC"), {
    name: "x",
    join_time: "2026-11-18T11:06:40+00:00",
  });
  for (const bad of ["abc", "1e308", 1e308, "99999999999999", -1.5]) {
    const warnings: string[] = [];
    const row = profileRow({ name: "x", join_time: bad }, "UTC", (w) => warnings.push(w));
    assert.deepEqual(row, { name: "x" }, String(bad));
    assert.equal(warnings.length, 1, String(bad));
  }
});
