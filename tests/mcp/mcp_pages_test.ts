/**
 * Results that fit a context window, through the official MCP client against the sandbox: a
 * 365-day agenda read page by page with `page_token`, each page at most 100 KB of JSON, every
 * event once; every result is checked by the client against the tool's `outputSchema`.
 */

import assert from "node:assert/strict";
import { createShortcutEnv, jsonOf } from "../shortcuts/_shortcut_env.ts";
import { connectHarkMcp } from "./_mcp_client.ts";

const BUDGET = 100_000;

function day(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

Deno.test("a 365-day agenda through page_token: every page within 100 KB, every event once", async () => {
  const env = await createShortcutEnv();
  const mcp = await connectHarkMcp({ ...env.hark.env, HARK_USER_ACCESS_TOKEN: env.token });
  try {
    // Listing the tools gives the client their output schemas, which it checks results against.
    const listed = await mcp.client.listTools();
    const listBytes = new TextEncoder().encode(JSON.stringify(listed)).length;
    const agendaTool = listed.tools.find((tool) => tool.name === "calendar_agenda");
    assert.ok(agendaTool?.outputSchema, "calendar_agenda declares its output");
    assert.ok(listed.tools.every((tool) => tool.outputSchema?.type === "object"));

    const [start, end] = [day(-180), day(185)];
    const whole = jsonOf<{ event_id: string; start: unknown }[]>(
      await env.run(["calendar", "+agenda", "--start", start, "--end", end, "--json"]),
    );
    const wholeBytes = new TextEncoder().encode(JSON.stringify({ items: whole })).length;
    assert.ok(wholeBytes > 2 * BUDGET, `the year is ${wholeBytes} bytes: more than two pages`);

    const seen: unknown[] = [];
    const sizes: number[] = [];
    let token: string | undefined;
    do {
      const result = await mcp.client.callTool({
        name: "calendar_agenda",
        arguments: { start, end, ...(token === undefined ? {} : { page_token: token }) },
      });
      assert.equal(result.isError, undefined, JSON.stringify(result.content));
      const page = result.structuredContent as {
        items: unknown[];
        has_more: boolean;
        page_token?: string;
      };
      sizes.push(new TextEncoder().encode(JSON.stringify(page)).length);
      seen.push(...page.items);
      assert.equal(page.has_more, page.page_token !== undefined);
      token = page.page_token;
      assert.ok(sizes.length <= 50, "the listing ends");
    } while (token !== undefined);

    assert.ok(Math.max(...sizes) <= BUDGET, `pages of ${sizes.join(", ")} bytes`);
    assert.deepEqual(seen, whole, "every event once, in the order of the command line");
    console.log(
      `tools/list: ${listBytes} bytes (${listed.tools.length} tools); 365-day agenda: ` +
        `${whole.length} events, ${wholeBytes} bytes whole, ${sizes.length} pages, the largest ` +
        `${Math.max(...sizes)} bytes`,
    );
  } finally {
    await mcp.close();
    await env.close();
  }
});

Deno.test("a call that takes more than a second sends progress to a client that asked: the agenda's pieces", async () => {
  const env = await createShortcutEnv();
  const mcp = await connectHarkMcp({ ...env.hark.env, HARK_USER_ACCESS_TOKEN: env.token });
  try {
    await mcp.client.listTools();
    // Each piece of the year waits 700 ms: ten run at once, so the call lasts over a second.
    await env.post("/sandbox/faults", {
      route: "/open-apis/calendar/v4/calendars",
      kind: "latency",
      ms: 700,
    });
    const notes: { progress: number; total?: number; message?: string }[] = [];
    const args = { start: day(-180), end: day(185), fields: ["event_id"] };
    const result = await mcp.client.callTool(
      { name: "calendar_agenda", arguments: args },
      undefined,
      { onprogress: (p) => void notes.push(p) },
    );
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    assert.ok(notes.length > 0, "progress was sent");
    assert.match(notes[0].message ?? "", /Reading the agenda: \d+ of \d+ pieces done/);
    for (const [i, note] of notes.entries()) {
      assert.ok(i === 0 || note.progress > notes[i - 1].progress, "progress grows");
      assert.ok(note.total === undefined || note.progress <= note.total);
    }
    // Without a progress token, none is sent (the client would reject an unknown token).
    const quiet = await mcp.client.callTool({ name: "calendar_agenda", arguments: args });
    assert.equal(quiet.isError, undefined);
    assert.deepEqual(mcp.errors, []);
  } finally {
    await mcp.close();
    await env.close();
  }
});
