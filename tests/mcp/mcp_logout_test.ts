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

// A method or the raw API tool makes its request with no sign-in check before it: its token is
// resolved for the request itself, and a call after the sign-out must still look again.
const oneRequestTools = [
  {
    what: "a method tool",
    flags: ["--tools", "calendar.v4.calendarEvent.instanceView"],
    call: (start: number) => ({
      name: "calendar_v4_calendarEvent_instanceView",
      arguments: {
        path: { calendar_id: "primary" },
        params: { start_time: String(start), end_time: String(start + 86_400) },
      },
    }),
  },
  {
    what: "the raw API tool",
    flags: ["--tools", "calendar_agenda,api", "--allow-raw-api"],
    call: () => ({
      name: "api",
      arguments: { method: "GET", path: "/open-apis/calendar/v4/calendars" },
    }),
  },
];

for (const tool of oneRequestTools) {
  Deno.test(`hark mcp: after auth logout the next call of ${tool.what} fails, sending nothing`, async () => {
    const world = await startWorld();
    try {
      await world.signIn();
      const mcp = await connectHarkMcp(world.home.env, tool.flags);
      try {
        const start = Math.floor(Date.now() / 1000);
        const first = await mcp.client.callTool(tool.call(start));
        assert.equal(first.isError, undefined, JSON.stringify(first));

        // Well within a second of the first call's token read.
        await world.clearRequests();
        const logout = await world.runInProcess(["auth", "logout", "--json"]);
        assert.equal(logout.code, 0, logout.stderr);

        const after = await mcp.client.callTool(tool.call(start));
        assert.equal(after.isError, true, JSON.stringify(after));
        const { error } = after.structuredContent as { error: { type: string; message: string } };
        assert.equal(error.type, "auth");
        assert.equal(error.message, 'Not signed in to profile "default"');
        const sent = await world.requestLog();
        assert.deepEqual(
          sent.filter((r) => r.headers.authorization !== undefined).map((r) => r.path),
          [],
          "no request carried a token after the sign-out",
        );
      } finally {
        await mcp.close();
      }
    } finally {
      await world.close();
    }
  });
}
