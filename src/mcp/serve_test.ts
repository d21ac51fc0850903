import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client";
import { testSession } from "../../tests/support/test_session.ts";
import type { OutputStream } from "../context.ts";
import { createTestContext, FetchStub, jsonResponse } from "../../tests/support/test_context.ts";
import { fakeGroups } from "../../tests/support/fake_shortcuts.ts";
import { mcpScript } from "../../tests/support/mcp_script.ts";
import { serveMcp, SERVER_INSTRUCTIONS } from "./serve.ts";
import { MAX_MESSAGE_LENGTH, StreamTransport } from "./stream_transport.ts";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { ToolRunner } from "./tool_runner.ts";
import { selectTools } from "./tool_set.ts";

/** A one-way pipe: bytes written as text on one end, read as a stream on the other. */
function pipe(): { output: OutputStream & { lines: string[] }; input: ReadableStream<Uint8Array> } {
  const stream = new TransformStream<Uint8Array, Uint8Array>();
  const writer = stream.writable.getWriter();
  const lines: string[] = [];
  return {
    input: stream.readable,
    output: {
      isTerminal: false,
      lines,
      write(text) {
        lines.push(text);
        if (text === "") void writer.close();
        else void writer.write(new TextEncoder().encode(text));
      },
    },
  };
}

function start(options: { readOnly?: boolean; answerAfterMs?: number } = {}) {
  const stub = new FetchStub([
    {
      method: "GET",
      url: "https://open.example.com/open-apis/demo/items",
      respond: async () => {
        // A slow service, on the real clock.
        await new Promise((resolve) => setTimeout(resolve, options.answerAfterMs ?? 0));
        return jsonResponse({ code: 0, msg: "success", data: {} });
      },
    },
  ]);
  const ctx = createTestContext({
    env: { HARK_USER_ACCESS_TOKEN: "u-0123456789abc", HARK_BASE_URL: "https://open.example.com" },
    fetch: stub.fetch,
  });
  const config = { apps: { default: { base_url: "https://open.example.com" } } };
  const runner = new ToolRunner(ctx, {
    openSession: () => Promise.resolve(testSession(ctx, {}, config)),
    dryRun: false,
  });
  const tools = selectTools(fakeGroups(), {
    readOnly: options.readOnly ?? false,
    allowRawApi: false,
    timeZone: "UTC",
  });
  const toServer = pipe();
  const toClient = pipe();
  const logs: string[] = [];
  const controller = new AbortController();
  const served = serveMcp({
    tools,
    runner,
    input: toServer.input,
    output: toClient.output,
    signal: controller.signal,
    log: (line) => logs.push(line),
  });
  const transport = new StreamTransport(toClient.input, toServer.output);
  return { stub, ctx, served, transport, toServer, toClient, logs, controller };
}

Deno.test("serveMcp() answers the SDK's client: tools, calls, hidden and unknown tools", async () => {
  const { stub, ctx, served, transport, toServer, toClient, logs } = start({ readOnly: true });
  const client = new Client({ name: "test", version: "1" });
  await client.connect(transport);
  assert.equal(client.getServerVersion()?.name, "hark");
  assert.equal(client.getInstructions(), SERVER_INSTRUCTIONS);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name), ["demo_every_type", "demo_list", "other_status"]);
  assert.equal(tools[1].annotations?.readOnlyHint, true);

  const listed = await client.callTool({ name: "demo_list", arguments: {} });
  assert.deepEqual(listed.structuredContent, {
    items: [{ id: "i1" }, { id: "i2" }, { id: "i3" }],
    has_more: false,
  });
  stub.verify();

  const refused = await client.callTool({ name: "demo_post", arguments: { text: "hi" } });
  assert.equal(refused.isError, true);
  assert.match(
    JSON.stringify(refused.structuredContent),
    /Cannot call demo_post: hark mcp runs with --read-only and this tool changes data/,
  );
  await assert.rejects(
    client.callTool({ name: "nope", arguments: {} }),
    /Unknown tool "nope": the tools are demo_every_type, demo_list, other_status/,
  );

  // A line that is not JSON-RPC is reported and skipped; the server goes on.
  toServer.output.write("not json\n");
  assert.equal((await client.listTools()).tools.length, 3);
  assert.ok(logs.some((l) => /Cannot read a message: it is not JSON-RPC/.test(l)), logs.join());

  // Everything the server wrote is one JSON-RPC message per line; nothing else.
  for (const line of toClient.output.lines.join("").split("\n").filter((l) => l !== "")) {
    assert.equal(JSON.parse(line).jsonrpc, "2.0");
  }
  assert.equal(ctx.stdout.text(), "");

  // The end of the input ends the server.
  toServer.output.write("");
  await served;
  await client.close();
});

Deno.test("serveMcp() stops when its signal is aborted", async () => {
  const { served, controller, transport } = start();
  const client = new Client({ name: "test", version: "1" });
  await client.connect(transport);
  controller.abort();
  await served;
  await client.close();
});

Deno.test("serveMcp() answers the calls in flight when the input ends, then stops", async () => {
  const { stub, served, toServer, toClient, logs } = start({ answerAfterMs: 200 });
  // The whole script, then the end of the input at once, as `printf … | hark mcp` does.
  toServer.output.write(
    mcpScript("printf", [
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "demo_list", arguments: {} } },
    ]),
  );
  toServer.output.write("");
  await served;
  const answers = toClient.output.lines.join("").split("\n").filter((l) => l !== "")
    .map((line) => JSON.parse(line));
  assert.deepEqual(answers.map((a) => a.id), [1, 2]);
  assert.deepEqual(answers[1].result.structuredContent, {
    items: [{ id: "i1" }, { id: "i2" }, { id: "i3" }],
    has_more: false,
  });
  stub.verify();
  assert.ok(logs.some((l) => /answering 1 call in flight first/.test(l)), logs.join("\n"));
});

Deno.test("serveMcp() answers a message over 10 MiB with an error carrying its id, and goes on", async () => {
  const { served, transport, toServer, toClient, logs } = start();
  const client = new Client({ name: "test", version: "1" });
  await client.connect(transport);
  const huge = "x".repeat(MAX_MESSAGE_LENGTH + 1);
  // The SDK's client writes the id last, after 10 MiB of arguments.
  const call = client.callTool({ name: "demo_list", arguments: { prefix: huge } }, undefined, {
    timeout: 20_000,
  });
  await assert.rejects(call, (error: unknown) => {
    assert.ok(error instanceof McpError, String(error));
    assert.equal(error.code, ErrorCode.InvalidRequest);
    assert.match(error.message, /Request too large: the message is longer than 10485760 /);
    return true;
  });
  // Without a readable id, a parse error without one.
  toServer.output.write(`{"jsonrpc": "2.0", "method": "tools/call", "params": "${huge}"}\n`);
  assert.equal((await client.listTools()).tools.length, 5, "the server goes on");
  const answers = toClient.output.lines.join("").split("\n").filter((l) => l !== "")
    .map((line) => JSON.parse(line));
  const parseError = answers.find((a) => a.error?.code === ErrorCode.ParseError);
  assert.equal(parseError.id, undefined);
  assert.match(parseError.error.message, /^Parse error: the message is longer than/);
  assert.ok(logs.some((l) => /longer than 10485760 characters/.test(l)), logs.join());
  toServer.output.write("");
  await served;
  await client.close();
});

Deno.test("serveMcp() answers arguments nested 100,000 deep with a clear invalid-arguments error", async () => {
  const { served, toServer, toClient } = start();
  const depth = 100_000;
  const nested = "[".repeat(depth) + "]".repeat(depth);
  const call = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"demo_list",` +
    `"arguments":{"prefix":${nested}}}}\n`;
  toServer.output.write(mcpScript("deep", []) + call);
  toServer.output.write("");
  await served;
  const answers = toClient.output.lines.join("").split("\n").filter((l) => l !== "")
    .map((line) => JSON.parse(line));
  const answer = answers.find((a) => a.id === 7);
  assert.ok(answer, JSON.stringify(answers).slice(0, 500));
  assert.equal(answer.result.isError, true, JSON.stringify(answer));
  assert.equal(answer.result.structuredContent.error.type, "validation");
  assert.equal(
    answer.result.structuredContent.error.message,
    "Invalid arguments: nested more than 32 levels deep",
  );
});
