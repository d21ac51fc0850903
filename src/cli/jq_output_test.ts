import assert from "node:assert/strict";
import type { Context } from "../context.ts";
import { CancelledError } from "../errors/mod.ts";
import { createTestContext } from "../../tests/support/test_context.ts";
import { runWithJq } from "./jq_output.ts";

Deno.test("runWithJq() runs jq through ctx.blocking, where a signal would end the process", async () => {
  const ctx = createTestContext();
  const blocked: string[] = [];
  const watched = {
    ...ctx,
    blocking: <T>(work: () => T): T => {
      blocked.push(ctx.stdout.text());
      const result = work();
      blocked.push(ctx.stdout.text());
      return result;
    },
  };
  await runWithJq(
    watched,
    ".[].id",
    (c) => Promise.resolve(c.stdout.write('[{"id":1},{"id":2}]')),
    "hark x",
  );
  // Nothing was printed before jq ran; its results were printed while it was set apart.
  assert.deepEqual(blocked, ["", "1\n2\n"]);
});

Deno.test("runWithJq() does not start jq after a Ctrl-C: the command is cancelled", async () => {
  const ctx = createTestContext();
  const command = (c: Context) => {
    c.stdout.write('[{"id":1}]');
    ctx.abort();
    return Promise.resolve();
  };
  await assert.rejects(runWithJq(ctx, ".[].id", command, "hark x"), CancelledError);
  assert.equal(ctx.stdout.text(), "");
});
