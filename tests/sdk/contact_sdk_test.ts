/**
 * The official SDK against the sandbox's contact endpoints: `contact.v3.user.get`,
 * `contact.v3.user.batch`, `contact.v3.user.basicBatch` and `contact.v3.user.batchGetId` built by
 * the SDK, their answers
 * checked against the SDK's response types (types/index.d.ts), nothing more.
 *
 * Search v1 user (`GET /open-apis/search/v1/user`) is not in the SDK; it goes through the SDK's
 * generic `client.request`, checked against Lark's "搜索用户" doc
 * (https://open.feishu.cn/document/ukTMukTMukTM/uMTM4UjLzEDO14yMxgTN): `users[]` of
 * `{name, open_id, user_id, department_ids, avatar{avatar_72, avatar_240, avatar_640,
 * avatar_origin}}`, `has_more`, `page_token`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { assertShape, envelope, sdkError, t, withSdkSandbox } from "./_harness.ts";

const AVATAR = t.optional(t.object({
  avatar_72: t.optional(t.string),
  avatar_240: t.optional(t.string),
  avatar_640: t.optional(t.string),
  avatar_origin: t.optional(t.string),
}));
// types/index.d.ts, contact.v3.user.get.
const USER_FIELDS = {
  union_id: t.optional(t.string),
  user_id: t.optional(t.string),
  open_id: t.optional(t.string),
  name: t.optional(t.string),
  en_name: t.optional(t.string),
  nickname: t.optional(t.string),
  email: t.optional(t.string),
  mobile: t.optional(t.string),
  mobile_visible: t.optional(t.boolean),
  gender: t.optional(t.number),
  avatar: AVATAR,
  status: t.optional(t.object({
    is_frozen: t.optional(t.boolean),
    is_resigned: t.optional(t.boolean),
    is_activated: t.optional(t.boolean),
    is_exited: t.optional(t.boolean),
    is_unjoin: t.optional(t.boolean),
  })),
  department_ids: t.optional(t.array(t.string)),
  leader_user_id: t.optional(t.string),
  city: t.optional(t.string),
  country: t.optional(t.string),
  work_station: t.optional(t.string),
  join_time: t.optional(t.number),
  is_tenant_manager: t.optional(t.boolean),
  employee_no: t.optional(t.string),
  employee_type: t.optional(t.number),
  positions: t.optional(t.array(t.object({
    position_code: t.optional(t.string),
    position_name: t.optional(t.string),
    department_id: t.optional(t.string),
    leader_user_id: t.optional(t.string),
    leader_position_code: t.optional(t.string),
    is_major: t.optional(t.boolean),
  }))),
  orders: t.optional(t.array(t.object({
    department_id: t.optional(t.string),
    user_order: t.optional(t.number),
    department_order: t.optional(t.number),
    is_primary_dept: t.optional(t.boolean),
  }))),
  enterprise_email: t.optional(t.string),
  time_zone: t.optional(t.string),
  description: t.optional(t.string),
  job_title: t.optional(t.string),
  geo: t.optional(t.string),
  job_level_id: t.optional(t.string),
  job_family_id: t.optional(t.string),
  dotted_line_leader_user_ids: t.optional(t.array(t.string)),
};
const USER = t.object(USER_FIELDS);
const SEARCH_USERS = t.object({
  users: t.array(t.object({
    name: t.string,
    open_id: t.string,
    user_id: t.string,
    department_ids: t.array(t.string),
    avatar: AVATAR,
  })),
  has_more: t.boolean,
  page_token: t.optional(t.string),
});

Deno.test("SDK: contact user get by every id type, as the bot and as a user", async () => {
  await withSdkSandbox({}, async ({ sandbox, client, signIn, asUser }) => {
    const person = sandbox.users[4];
    for (
      const [type, id] of [
        ["open_id", person.open_id],
        ["union_id", person.union_id],
        ["user_id", person.user_id],
      ] as const
    ) {
      const answer = await client.contact.v3.user.get({
        path: { user_id: id },
        params: { user_id_type: type, department_id_type: "open_department_id" },
      });
      assertShape(answer, envelope(t.object({ user: t.optional(USER) })), `user.get ${type}`);
      assert.equal(answer.data?.user?.open_id, person.open_id);
      assert.equal(answer.data?.user?.email, person.email);
    }
    // Lark's user get doc: an API permission opens it; each sensitive field needs its own.
    const user = asUser(
      await signIn(["contact:contact.base:readonly", "contact:user.base:readonly"]),
    );
    const limited = await client.contact.v3.user.get({ path: { user_id: person.open_id } }, user);
    assertShape(limited, envelope(t.object({ user: t.optional(USER) })), "user.get as a user");
    assert.equal(limited.data?.user?.name, person.name);
    assert.equal(limited.data?.user?.email, undefined, "email needs its own scope");
    const basic = asUser(await signIn(["contact:user.basic_profile:readonly"]));
    const refused = await sdkError(
      client.contact.v3.user.get({ path: { user_id: person.open_id } }, basic),
    );
    assert.equal(refused.body.code, 99991679, "basic_profile does not open user get");
    const unknown = await sdkError(client.contact.v3.user.get({ path: { user_id: "ou_nobody" } }));
    assert.deepEqual(unknown.body, { code: 41012, msg: "user id invalid error" });
  });
});

// types/index.d.ts, contact.v3.user.batch: the user get profile, `name` and `mobile` declared
// required (the sandbox leaves out `mobile` without its field permission, as Lark does).
const BATCH_USER = t.object({
  ...USER_FIELDS,
  name: t.string,
  mobile: t.optional(t.string),
});
// types/index.d.ts, contact.v3.user.basicBatch.
const BASIC_USERS = t.object({
  users: t.optional(t.array(t.object({
    user_id: t.optional(t.string),
    name: t.optional(t.string),
    i18n_name: t.optional(t.object({
      zh_cn: t.optional(t.string),
      ja_jp: t.optional(t.string),
      en_us: t.optional(t.string),
    })),
  }))),
});

Deno.test("SDK: contact user batch answers several profiles, as the bot and as a user", async () => {
  await withSdkSandbox({}, async ({ sandbox, client, signIn, asUser }) => {
    const people = [sandbox.users[1], sandbox.users[7]];
    const params = {
      user_ids: people.map((p) => p.open_id),
      user_id_type: "open_id" as const,
      department_id_type: "open_department_id" as const,
    };
    const answer = await client.contact.v3.user.batch({ params });
    assertShape(answer, envelope(t.object({ items: t.optional(t.array(BATCH_USER)) })), "batch");
    assert.deepEqual(answer.data?.items?.map((u) => u.name), people.map((p) => p.name));
    const user = asUser(
      await signIn(["contact:contact.base:readonly", "contact:user.base:readonly"]),
    );
    const asPerson = await client.contact.v3.user.batch({ params }, user);
    assertShape(asPerson, envelope(t.object({ items: t.optional(t.array(BATCH_USER)) })), "user");
    assert.equal(asPerson.data?.items?.[1].email, undefined, "email needs its own scope");
  });
});

Deno.test("SDK: contact user basicBatch names users for basic_profile, as a user", async () => {
  await withSdkSandbox({}, async ({ sandbox, client, signIn, asUser }) => {
    const people = [sandbox.users[2], sandbox.users[9]];
    const user = asUser(await signIn(["contact:user.basic_profile:readonly"]));
    const answer = await client.contact.v3.user.basicBatch({
      data: { user_ids: people.map((p) => p.open_id) },
      params: { user_id_type: "open_id" },
    }, user);
    assertShape(answer, envelope(BASIC_USERS), "basicBatch");
    assert.deepEqual(
      answer.data?.users?.map((u) => [u.user_id, u.name]),
      people.map((p) => [p.open_id, p.name]),
    );
  });
});

Deno.test("SDK request: search v1 user (not in the SDK) answers the documented shape", async () => {
  await withSdkSandbox({}, async ({ sandbox, client, signIn, asUser }) => {
    const user = asUser(await signIn(["contact:user:search"]));
    const first = sandbox.users[0];
    const answer = await client.request({
      method: "GET",
      url: "/open-apis/search/v1/user",
      params: { query: first.name, page_size: 5 },
    }, user);
    assertShape(answer, envelope(SEARCH_USERS), "search v1 user");
    assert.equal(answer.data.users[0].open_id, first.open_id);
  });
});

// types/index.d.ts, contact.v3.user.batchGetId.
const ID_LIST = t.object({
  user_list: t.optional(t.array(t.object({
    user_id: t.optional(t.string),
    mobile: t.optional(t.string),
    email: t.optional(t.string),
    status: t.optional(t.object({
      is_frozen: t.optional(t.boolean),
      is_resigned: t.optional(t.boolean),
      is_activated: t.optional(t.boolean),
      is_exited: t.optional(t.boolean),
      is_unjoin: t.optional(t.boolean),
    })),
  }))),
});

Deno.test("SDK: contact user batchGetId turns emails into open ids with the tenant token", async () => {
  await withSdkSandbox({}, async ({ sandbox, client, signIn, asUser }) => {
    const person = sandbox.users[3];
    const answer = await client.contact.v3.user.batchGetId({
      data: { emails: [person.email, "nobody@example.com"] },
      params: { user_id_type: "open_id" },
    });
    assertShape(answer, envelope(ID_LIST), "batchGetId");
    assert.deepEqual(answer.data?.user_list?.map((u) => [u.email, u.user_id]), [
      [person.email, person.open_id],
      ["nobody@example.com", undefined],
    ]);
    const user = asUser(await signIn(["contact:user.id:readonly"]));
    const refused = await sdkError(
      client.contact.v3.user.batchGetId({ data: { emails: [person.email] } }, user),
    );
    assert.equal(refused.body.code, 99991679, "the tenant token only");
  });
});
