import assert from "node:assert/strict";
import { withSandbox } from "../test_client.ts";

const PROFILE_SCOPES = [
  "contact:user.base:readonly",
  "contact:user.email:readonly",
  "contact:user.phone:readonly",
  "contact:user.employee_id:readonly",
];

Deno.test("contact user get answers a profile by open_id, union_id and user_id", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const token = await client.userToken(PROFILE_SCOPES);
    const person = sandbox.users[6];
    for (
      const [type, id] of [["open_id", person.open_id], ["union_id", person.union_id], [
        "user_id",
        person.user_id,
      ]]
    ) {
      const answer = await client.send(
        "GET",
        `/open-apis/contact/v3/users/${id}?user_id_type=${type}`,
        { token },
      );
      assert.equal(answer.body.code, 0, type);
      const user = answer.body.data.user;
      assert.equal(user.open_id, person.open_id);
      assert.equal(user.union_id, person.union_id);
      assert.equal(user.user_id, person.user_id);
      assert.equal(user.name, person.name);
      assert.equal(user.email, person.email);
      assert.equal(user.mobile, person.mobile);
      assert.equal(user.job_title, person.job_title);
      assert.equal(user.time_zone, person.time_zone);
      assert.deepEqual(user.department_ids, person.department_ids);
      assert.deepEqual(user.status, {
        is_frozen: false,
        is_resigned: false,
        is_activated: true,
        is_exited: false,
        is_unjoin: false,
      });
      assert.equal(user.avatar.avatar_origin, person.avatar_url);
      assert.equal(typeof user.join_time, "number");
      assert.equal(typeof user.gender, "number");
      const leader = sandbox.users.find((u) => u.open_id === person.leader_open_id)!;
      const leaderId = type === "open_id"
        ? leader.open_id
        : type === "union_id"
        ? leader.union_id
        : leader.user_id;
      assert.equal(user.leader_user_id, leaderId, "the leader in the requested id type");
    }
  });
});

Deno.test("contact user get shows email, mobile and user_id only with their scopes", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const basic = await client.userToken(["contact:user.basic_profile:readonly"]);
    const path = `/open-apis/contact/v3/users/${sandbox.users[2].open_id}`;
    const user = (await client.send("GET", path, { token: basic })).body.data.user;
    assert.equal(user.name, sandbox.users[2].name);
    // The third seeded user has set no zone: the field is absent, as Lark leaves it.
    assert.equal("time_zone" in user, false);
    const zoned = `/open-apis/contact/v3/users/${sandbox.users[5].open_id}`;
    assert.equal(
      (await client.send("GET", zoned, { token: basic })).body.data.user.time_zone,
      "Pacific/Auckland",
    );
    for (const field of ["email", "mobile", "user_id"]) assert.equal(field in user, false, field);
    const bot = await client.tenantToken();
    const full = (await client.send("GET", path, { token: bot })).body.data.user;
    assert.equal(full.email, sandbox.users[2].email);
    const email = await client.userToken([
      "contact:user.basic_profile:readonly",
      "contact:user.email:readonly",
    ]);
    const some = (await client.send("GET", path, { token: email })).body.data.user;
    assert.equal(some.email, sandbox.users[2].email);
    assert.equal("mobile" in some, false);
    const none = await client.userToken(["im:message:readonly"]);
    const refused = await client.send("GET", path, { token: none });
    assert.equal(refused.body.code, 99991679);
    assert.match(refused.body.msg, /contact:user\.basic_profile:readonly/);
  });
});

Deno.test("contact user get reports resigned users, department ids and bad requests", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const token = await client.tenantToken();
    const get = (query: string) =>
      client.send("GET", `/open-apis/contact/v3/users/${query}`, { token });
    const resigned = sandbox.users.at(-1)!;
    const gone = (await get(resigned.open_id)).body.data.user;
    assert.equal(gone.status.is_resigned, true);
    assert.equal(gone.status.is_activated, false);
    const custom = await get(`${sandbox.users[1].open_id}?department_id_type=department_id`);
    assert.match(custom.body.data.user.department_ids[0], /^D[0-9a-f]{8}$/);
    assert.deepEqual((await get("ou_nobody")).body, { code: 41012, msg: "user id invalid error" });
    assert.equal((await get(`${sandbox.users[1].open_id}?user_id_type=email`)).body.code, 99992402);
    assert.equal(
      (await get(`${sandbox.users[1].open_id}?department_id_type=name`)).body.code,
      99992402,
    );
    assert.equal((await get(`${sandbox.users[1].user_id}`)).body.code, 41012, "open_id by default");
  });
});

Deno.test("search v1 user answers field violations in Lark's shape", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const token = await client.userToken(["contact:user:search"]);
    const empty = await client.send("GET", "/open-apis/search/v1/user?query=", { token });
    assert.deepEqual(empty.body, {
      code: 99992402,
      msg: "field validation failed",
      error: { field_violations: [{ field: "query", description: "query is required" }] },
    });
    const badToken = await client.send("GET", "/open-apis/search/v1/user?query=a&page_token=%%", {
      token,
    });
    assert.equal(badToken.body.code, 99992402);
  });
});
