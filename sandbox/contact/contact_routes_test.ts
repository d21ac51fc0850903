import assert from "node:assert/strict";
import { withSandbox } from "../test_client.ts";

const JSON_TYPE = { "content-type": "application/json" };

const PROFILE_SCOPES = [
  "contact:contact.base:readonly",
  "contact:user.base:readonly",
  "contact:user.email:readonly",
  "contact:user.phone:readonly",
  "contact:user.employee_id:readonly",
  "contact:user.department:readonly",
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

Deno.test("contact user get needs one of its API permissions, never basic_profile", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const path = `/open-apis/contact/v3/users/${sandbox.users[2].open_id}`;
    // Lark's user get doc: any one of four API permissions; basic_profile opens basic_batch only.
    for (
      const scopes of [["contact:user.basic_profile:readonly"], ["contact:user.base:readonly"]]
    ) {
      const refused = await client.send("GET", path, { token: await client.userToken(scopes) });
      assert.equal(refused.body.code, 99991679, scopes[0]);
      assert.deepEqual(
        refused.body.error.permission_violations.map((v: { subject: string }) => v.subject),
        [
          "contact:contact.base:readonly",
          "contact:contact:access_as_app",
          "contact:contact:readonly",
          "contact:contact:readonly_as_app",
        ],
      );
    }
    for (
      const scope of [
        "contact:contact.base:readonly",
        "contact:contact:access_as_app",
        "contact:contact:readonly",
        "contact:contact:readonly_as_app",
      ]
    ) {
      const answer = await client.send("GET", path, { token: await client.userToken([scope]) });
      assert.equal(answer.body.code, 0, scope);
    }
  });
  // The app has not enabled one of them: the bot is refused (99991672).
  await withSandbox({ appScopes: ["contact:user.base:readonly"] }, async (sandbox, client) => {
    const path = `/open-apis/contact/v3/users/${sandbox.users[2].open_id}`;
    const refused = await client.send("GET", path, { token: await client.tenantToken() });
    assert.equal(refused.body.code, 99991672);
  });
});

Deno.test("contact user get shows each sensitive field only with its field permission", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const base = await client.userToken(["contact:contact.base:readonly"]);
    const path = `/open-apis/contact/v3/users/${sandbox.users[2].open_id}`;
    const user = (await client.send("GET", path, { token: base })).body.data.user;
    assert.equal(user.open_id, sandbox.users[2].open_id);
    // The third seeded user has set no zone: the field is absent, as Lark leaves it.
    assert.equal("time_zone" in user, false);
    const zoned = `/open-apis/contact/v3/users/${sandbox.users[5].open_id}`;
    assert.equal(
      (await client.send("GET", zoned, { token: base })).body.data.user.time_zone,
      "Pacific/Auckland",
    );
    for (const field of ["name", "email", "mobile", "user_id", "department_ids", "avatar"]) {
      assert.equal(field in user, false, field);
    }
    const bot = await client.tenantToken();
    const full = (await client.send("GET", path, { token: bot })).body.data.user;
    assert.equal(full.email, sandbox.users[2].email);
    assert.deepEqual(full.department_ids, sandbox.users[2].department_ids);
    const some = (await client.send("GET", path, {
      token: await client.userToken([
        "contact:contact.base:readonly",
        "contact:user.base:readonly",
        "contact:user.email:readonly",
      ]),
    })).body.data.user;
    assert.equal(some.name, sandbox.users[2].name);
    assert.equal(some.email, sandbox.users[2].email);
    assert.equal("mobile" in some, false);
    assert.equal("department_ids" in some, false);
    // A broad API permission the doc lists among the field permissions unlocks every field.
    const broad = (await client.send("GET", path, {
      token: await client.userToken(["contact:contact:readonly"]),
    })).body.data.user;
    assert.equal(broad.user_id, sandbox.users[2].user_id);
    assert.deepEqual(broad.department_ids, sandbox.users[2].department_ids);
  });
  // The bot's fields are the app's enabled field permissions.
  await withSandbox(
    { appScopes: ["contact:contact.base:readonly", "contact:user.base:readonly"] },
    async (sandbox, client) => {
      const path = `/open-apis/contact/v3/users/${sandbox.users[2].open_id}`;
      const bot = (await client.send("GET", path, { token: await client.tenantToken() })).body
        .data.user;
      assert.equal(bot.name, sandbox.users[2].name);
      assert.equal("email" in bot, false);
    },
  );
});

Deno.test("users/batch answers up to 50 profiles, leaving unknown ids out", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const token = await client.userToken(PROFILE_SCOPES);
    const ids = [sandbox.users[1].open_id, "ou_nobody", sandbox.users[3].open_id];
    const query = ids.map((id) => `user_ids=${id}`).join("&");
    const answer = await client.send(
      "GET",
      `/open-apis/contact/v3/users/batch?user_id_type=open_id&${query}`,
      { token },
    );
    assert.equal(answer.body.code, 0);
    assert.deepEqual(
      answer.body.data.items.map((u: { open_id: string; name: string }) => [u.open_id, u.name]),
      [[sandbox.users[1].open_id, sandbox.users[1].name], [
        sandbox.users[3].open_id,
        sandbox.users[3].name,
      ]],
    );
    const many = Array.from({ length: 51 }, (_, i) => `user_ids=${sandbox.users[i % 10].open_id}`)
      .join("&");
    const tooMany = await client.send("GET", `/open-apis/contact/v3/users/batch?${many}`, {
      token,
    });
    assert.equal(tooMany.body.code, 99992402);
    const none = await client.send("GET", "/open-apis/contact/v3/users/batch", { token });
    assert.equal(none.body.code, 99992402);
    const basic = await client.userToken(["contact:user.basic_profile:readonly"]);
    const refused = await client.send(
      "GET",
      `/open-apis/contact/v3/users/batch?user_ids=${ids[0]}`,
      { token: basic },
    );
    assert.equal(refused.body.code, 99991679);
  });
});

Deno.test("users/basic_batch names up to 10 users for basic_profile, as the user only", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const token = await client.userToken(["contact:user.basic_profile:readonly"]);
    const path = "/open-apis/contact/v3/users/basic_batch?user_id_type=open_id";
    const ids = [sandbox.users[1].open_id, "ou_nobody", sandbox.users[3].open_id];
    const answer = await client.json("POST", path, { user_ids: ids }, token);
    assert.equal(answer.body.code, 0);
    assert.deepEqual(
      answer.body.data.users.map((u: { user_id: string; name: string }) => [u.user_id, u.name]),
      [[ids[0], sandbox.users[1].name], [ids[2], sandbox.users[3].name]],
    );
    const eleven = sandbox.users.slice(0, 11).map((u) => u.open_id);
    assert.equal(
      (await client.json("POST", path, { user_ids: eleven }, token)).body.code,
      99992402,
    );
    assert.equal((await client.json("POST", path, {}, token)).body.code, 99992402);
    const profile = await client.userToken(["contact:contact.base:readonly"]);
    assert.equal(
      (await client.json("POST", path, { user_ids: ids }, profile)).body.code,
      99991679,
      "the profile scopes do not open it",
    );
    const bot = await client.json("POST", path, { user_ids: ids }, await client.tenantToken());
    assert.notEqual(bot.body.code, 0, "the sandbox takes it as the user only, as lark-cli uses it");
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

Deno.test("contact batch_get_id turns emails into ids for the tenant token only, leaving the unknown without one", async () => {
  const path = "/open-apis/contact/v3/users/batch_get_id";
  await withSandbox({}, async (sandbox, client) => {
    const bot = await client.tenantToken();
    const [ann, bob] = sandbox.users;
    const gone = sandbox.users.at(-1)!;
    const answer = await client.send("POST", `${path}?user_id_type=open_id`, {
      token: bot,
      headers: JSON_TYPE,
      body: JSON.stringify({
        emails: [ann.email.toUpperCase(), "nobody@example.com", gone.email, bob.email],
      }),
    });
    assert.equal(answer.body.code, 0);
    const list = answer.body.data.user_list;
    assert.equal(list[0].user_id, ann.open_id);
    assert.equal(list[0].status.is_resigned, false);
    assert.deepEqual(list[1], { email: "nobody@example.com" });
    assert.deepEqual(list[2], { email: gone.email }, "people who left need include_resigned");
    assert.equal(list[3].user_id, bob.open_id);
    const union = await client.send("POST", `${path}?user_id_type=union_id`, {
      token: bot,
      headers: JSON_TYPE,
      body: JSON.stringify({ emails: [gone.email], include_resigned: true }),
    });
    assert.equal(union.body.data.user_list[0].user_id, gone.union_id);

    const tooMany = await client.send("POST", path, {
      token: bot,
      headers: JSON_TYPE,
      body: JSON.stringify({ emails: Array.from({ length: 51 }, (_, i) => `p${i}@example.com`) }),
    });
    assert.equal(tooMany.body.code, 99992402);
    const asUser = await client.send("POST", path, {
      token: await client.userToken(["contact:user.id:readonly"]),
      headers: JSON_TYPE,
      body: JSON.stringify({ emails: [ann.email] }),
    });
    assert.equal(asUser.body.code, 99991679, "Lark takes only the tenant token here");
  });
});

Deno.test("contact batch_get_id needs contact:user.id:readonly enabled for the app", async () => {
  await withSandbox({ appScopes: ["calendar:calendar:read"] }, async (sandbox, client) => {
    const answer = await client.send("POST", "/open-apis/contact/v3/users/batch_get_id", {
      token: await client.tenantToken(),
      headers: JSON_TYPE,
      body: JSON.stringify({ emails: [sandbox.users[0].email] }),
    });
    assert.equal(answer.body.code, 99991672);
  });
});
