/**
 * Fan-out: `+freebusy --start 1970-01-01 --end 9999-12-31` once sent 37,352 requests in 30 s and
 * went on (`+agenda` alike; both are MCP tools). A span is read in at most `--max-pieces` pieces
 * (128 by default): a longer one is refused before any request, on the command line and through
 * MCP; a person raises the cap with `--max-pieces`, an MCP call cannot go beyond the default,
 * whatever the server's environment says. (The rules themselves are tested on the planner, in
 * `src/shortcuts/calendar/split_span_test.ts`; this checks the wiring, against the sandbox.)
 */

import assert from "node:assert/strict";
import { createShortcutEnv } from "../shortcuts/_shortcut_env.ts";
import { connectHarkMcp } from "../mcp/_mcp_client.ts";

const FOREVER = ["--start", "1970-01-01", "--end", "9999-12-31"];

function envelope(stderr: string) {
  return JSON.parse(stderr.trim().split("\n").at(-1)!).error;
}

Deno.test("a span of 8,000 years is refused before any request, on the command line and through MCP", async (t) => {
  const env = await createShortcutEnv({}, { inProcess: true });
  try {
    const calendarRequests = async () =>
      (await env.requests()).filter((r) => r.path.startsWith("/open-apis/calendar/"));

    await t.step("the command line refuses it, naming the flags, and sends nothing", async () => {
      for (const verb of ["+freebusy", "+agenda"]) {
        const run = await env.runProcess(["calendar", verb, ...FOREVER, "--json"], {
          timeoutMs: 20_000,
        });
        assert.equal(run.code, 2, run.stderr);
        const { type, message, recovery } = envelope(run.stderr);
        assert.equal(type, "validation");
        assert.match(
          message,
          /^Too long a span for --start\/--end: .* more than --max-pieces \(128\)$/,
        );
        assert.match(recovery.suggestion, /raise --max-pieces to 131072/);
        const dry = await env.run(["calendar", verb, ...FOREVER, "--dry-run"]);
        assert.equal(dry.code, 2, dry.stderr);
      }
      assert.deepEqual(await calendarRequests(), []);
    });

    await t.step("--max-pieces raises or lowers the cap on the command line", async () => {
      const year = ["--start", "2026-01-01", "--end", "2026-12-31"];
      const low = await env.run(["calendar", "+agenda", ...year, "--max-pieces", "8", "--json"]);
      assert.equal(low.code, 2, low.stderr);
      assert.match(envelope(low.stderr).message, /take 16 requests .* --max-pieces \(8\)$/);
      assert.deepEqual(await calendarRequests(), []);
      const enough = await env.run([
        "calendar",
        "+agenda",
        ...year,
        "--max-pieces",
        "16",
        "--json",
      ]);
      assert.equal(enough.code, 0, enough.stderr);
      assert.equal((await calendarRequests()).length, 16);
      await env.clearRequests();
    });

    await t.step(
      "an MCP call gets the cap and cannot raise it, whatever the server's environment says",
      async () => {
        // The server's environment asks for 256 pieces: a tool call must still get 128. (Were it
        // obeyed, the 28-year span below would cost 256 requests, not a flood.)
        const mcp = await connectHarkMcp({
          ...env.hark.env,
          HARK_USER_ACCESS_TOKEN: env.token,
          HARK_CALENDAR_MAX_PIECES: "256",
        });
        const textOf = (result: unknown) =>
          (result as { content: { text: string }[] }).content.map((c) => c.text).join("\n");
        try {
          const forever = { start: "1970-01-01", end: "9999-12-31" };
          const decades = { start: "1990-01-01", end: "2017-12-31" };
          for (const name of ["calendar_freebusy", "calendar_agenda"]) {
            for (const span of [forever, decades]) {
              const refused = await mcp.client.callTool({ name, arguments: span });
              assert.equal(refused.isError, true, `${name}: ${textOf(refused)}`);
              assert.match(
                textOf(refused),
                /^Error \(validation\): Too long a span for start\/end: .* max_pieces \(128\)\n/,
              );
            }
            const raised = await mcp.client.callTool({
              name,
              arguments: { ...decades, max_pieces: 256 },
            });
            assert.equal(raised.isError, true, name);
            assert.match(
              textOf(raised),
              /^Error \(validation\): Invalid argument "max_pieces": 256 is more than 128/,
            );
          }
          const { tools } = await mcp.client.listTools();
          const agenda = tools.find((tool) => tool.name === "calendar_agenda");
          assert.deepEqual(
            (agenda?.inputSchema.properties?.max_pieces as { maximum?: number }).maximum,
            128,
          );
        } finally {
          await mcp.close();
        }
        assert.deepEqual(await calendarRequests(), []);
      },
    );
  } finally {
    await env.close();
  }
});
