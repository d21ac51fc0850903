/**
 * A running `hark mcp` stops acting as the user once `hark auth logout` ran in another process:
 * its session held the access token in memory, and kept using it. The official SDK's client
 * drives the server against the sandbox, which records every request.
 */

import assert from "node:assert/strict";
import { startWorld } from "../support/world.ts";
import { connectHarkMcp } from "./_mcp_client.ts";

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

Deno.test("hark mcp: after auth logout in another process the next call fails, sending nothing", async () => {
  const world = await startWorld();
  try {
    await world.signIn();
    const mcp = await connectHarkMcp(world.home.env);
    try {
      const agenda = () =>
        mcp.client.callTool({
          name: "calendar_agenda",
          arguments: { start: today(), end: today() },
        });
      const first = await agenda();
      assert.equal(first.isError, undefined, JSON.stringify(first));

      await world.clearRequests();
      const logout = await world.run(["auth", "logout", "--json"]);
      assert.equal(logout.code, 0, logout.stderr);

      const after = await agenda();
      assert.equal(after.isError, true, JSON.stringify(after));
      const { error } = after.structuredContent as {
        error: { code: number; type: string; message: string; recovery: { command: string } };
      };
      assert.equal(error.type, "auth");
      assert.equal(error.code, 3);
      assert.equal(error.message, 'Not signed in to profile "default"');
      assert.equal(error.recovery.command, "hark auth login");
      const sent = await world.requestLog();
      assert.deepEqual(
        sent.filter((r) => r.headers.authorization !== undefined).map((r) => r.path),
        [],
        "no request carried a token after the sign-out",
      );

      // A new sign-in in a terminal is picked up by the next call, without a restart.
      await world.signIn();
      const back = await agenda();
      assert.equal(back.isError, undefined, JSON.stringify(back));
    } finally {
      await mcp.close();
    }
  } finally {
    await world.close();
  }
});
