import assert from "node:assert/strict";
import { createTestContext } from "../../tests/support/test_context.ts";
import { protocolSafe, readMcpFlags } from "./run_mcp.ts";

Deno.test("readMcpFlags() splits --tools and --services at commas, repeated or not", () => {
  assert.deepEqual(readMcpFlags({}), {
    readOnly: false,
    tools: undefined,
    services: undefined,
    allowRawApi: false,
    files: undefined,
  });
  assert.deepEqual(
    readMcpFlags({
      "read-only": true,
      tools: ["calendar_agenda, im_send", "contact_search_user,"],
      services: ["calendar"],
      "allow-raw-api": true,
      files: "~/hark-files",
    }),
    {
      readOnly: true,
      tools: ["calendar_agenda", "im_send", "contact_search_user"],
      services: ["calendar"],
      allowRawApi: true,
      files: "~/hark-files",
    },
  );
});

Deno.test("protocolSafe() keeps stdin and stdout for the protocol", async () => {
  const ctx = createTestContext({ stdin: "protocol bytes", stderrIsTerminal: true });
  const safe = protocolSafe(ctx, undefined);
  safe.stdout.write("stray line\n");
  safe.status("working…");
  assert.equal(ctx.stdout.text(), "");
  assert.equal(ctx.stderr.text(), "stray line\n");
  assert.deepEqual(ctx.statuses, []);
  assert.equal(safe.stdin.isTerminal, false);
  assert.equal((await safe.stdin.readAll()).length, 0);
  assert.equal(safe.env, ctx.env, "everything else is the context's own");
});
