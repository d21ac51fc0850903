/**
 * The shape checker of the SDK conformance suite catches what it must.
 *
 * @module
 */

import assert from "node:assert/strict";
import { assertShape, envelope, sdkError, t } from "./_harness.ts";

const SHAPE = envelope(t.object({
  id: t.string,
  count: t.optional(t.number),
  state: t.optional(t.enum("on", "off")),
  tags: t.optional(t.array(t.string)),
}));

Deno.test("assertShape() accepts an answer with the declared fields and types", () => {
  assertShape({ code: 0, msg: "success", data: { id: "a", count: 1, tags: ["x"] } }, SHAPE);
  assertShape({ code: 0, msg: "success" }, SHAPE);
});

Deno.test("assertShape() names every missing, mistyped, undeclared or out-of-set field", () => {
  assert.throws(
    () =>
      assertShape({
        code: "0",
        msg: "success",
        data: { count: "1", state: "maybe", tags: [1], extra: true },
      }, SHAPE),
    (error: Error) => {
      for (
        const part of [
          "answer.code: expected number, got string",
          "answer.data.id: expected string, got undefined",
          "answer.data.count: expected number, got string",
          'answer.data.state: expected one of on|off, got "maybe"',
          "answer.data.tags[0]: expected string, got number",
          "answer.data.extra: not in the SDK's type",
        ]
      ) assert.ok(error.message.includes(part), `${part} in ${error.message}`);
      return true;
    },
  );
  assert.throws(() => assertShape({ code: 0, msg: "", data: [] }, SHAPE), /expected object/);
});

Deno.test("sdkError() refuses a call that succeeded", async () => {
  await assert.rejects(sdkError(Promise.resolve({ code: 0 })), /Expected the SDK call to fail/);
  await assert.rejects(sdkError(Promise.reject(new Error("no answer"))), /no answer/);
});
