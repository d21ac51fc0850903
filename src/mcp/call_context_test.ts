import assert from "node:assert/strict";
import { createTestContext } from "../../tests/support/test_context.ts";
import { continueNote } from "../shortcuts/paging.ts";
import { callContext } from "./call_context.ts";

Deno.test("callContext() passes a call's warnings on, but not the CLI's --page-token note", () => {
  const call = callContext(createTestContext(), new AbortController().signal);
  call.ctx.stderr.write(`warning: ${continueNote("tok_1")}\n`);
  call.ctx.stderr.write("warning: the description was left out\n");
  assert.deepEqual(call.warnings(), ["the description was left out"]);
});
