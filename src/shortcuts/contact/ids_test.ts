import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { inputOf } from "../../../tests/support/fake_client.ts";
import {
  CHAT_ID,
  checkId,
  idListParam,
  idParam,
  MESSAGE_ID,
  USER_ID,
  userIdTypeOf,
} from "./ids.ts";

const invalid = (param: string, pattern = /./) => (e: unknown) =>
  e instanceof ValidationError && e.param === param && pattern.test(e.message);

Deno.test("userIdTypeOf() tells open ids, union ids and user ids apart", () => {
  assert.equal(userIdTypeOf("ou_7d8a6e6df7621556ce0d21922b676706"), "open_id");
  assert.equal(userIdTypeOf("on_94a1ee5551019f18cd73d9f111898cf2"), "union_id");
  assert.equal(userIdTypeOf("a1b2c3d4"), "user_id");
  assert.equal(userIdTypeOf("oc_1"), "user_id");
});

Deno.test("checkId() trims, and refuses blanks, spaces, controls and a missing prefix", () => {
  assert.equal(checkId("  oc_1 ", "--chat-id", CHAT_ID), "oc_1");
  assert.equal(checkId("e8eb2af2", "--user-id", USER_ID), "e8eb2af2");
  for (
    const bad of [
      "",
      "  ",
      "oc_",
      "1234",
      "oc 1",
      "oc_1\u0000",
      "oc_\u202e1",
      "oc_\u200b1",
      `oc_${"1".repeat(126)}`,
    ]
  ) {
    assert.throws(() => checkId(bad, "--chat-id", CHAT_ID), invalid("--chat-id"), bad);
  }
  assert.throws(
    () => checkId("x".repeat(1000), "--message-id", MESSAGE_ID),
    (e: unknown) =>
      invalid("--message-id", /expected a message id \(om_…\)/)(e) &&
      (e as Error).message.length < 200 &&
      /hark im \+messages/.test((e as ValidationError).recovery.suggestion),
  );
});

Deno.test("idParam() and idListParam() read flags: absent, one, a list without repeats", () => {
  assert.equal(idParam(inputOf({}), "chat-id", CHAT_ID), undefined);
  assert.equal(idParam(inputOf({ "chat-id": "oc_1" }), "chat-id", CHAT_ID), "oc_1");
  assert.deepEqual(idListParam(inputOf({}), "members", USER_ID, 3), []);
  assert.deepEqual(
    idListParam(inputOf({ members: "ou_1, ou_2,ou_1" }), "members", USER_ID, 3),
    ["ou_1", "ou_2"],
  );
  for (const bad of ["", ",", " , ", "ou_1,,ou_2", "ou 1"]) {
    assert.throws(
      () => idListParam(inputOf({ members: bad }), "members", USER_ID, 3),
      invalid("--members"),
    );
  }
  assert.throws(
    () => idListParam(inputOf({ members: "a,b,c,d" }), "members", USER_ID, 3),
    invalid("--members", /4, at most 3/),
  );
});
