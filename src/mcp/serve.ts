/**
 * The MCP server: the official SDK's `Server` answering `tools/list` with the exposed tools and
 * `tools/call` through the {@link ToolRunner}, over the stdio transport. Loaded only by
 * `hark mcp`.
 *
 * @module
 */

import { Server } from "@modelcontextprotocol/sdk/server";
// The SDK's wildcard export maps "./*" to "*.d.ts", which misses "types.js": name the types.
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { OutputStream } from "../context.ts";
import { ValidationError } from "../errors/mod.ts";
import { VERSION } from "../version.ts";
import { StreamTransport } from "./stream_transport.ts";
import { errorResult } from "./tool_result.ts";
import type { ToolRunner } from "./tool_runner.ts";
import type { ToolSet } from "./tool_set.ts";
import { progressGate, type ProgressSink } from "./progress.ts";

/** What the server says about itself to the host, which may show it to the model. */
export const SERVER_INSTRUCTIONS =
  "hark works with Lark / Feishu: calendars, people and chats, as the signed-in user or the " +
  "app's bot. Each tool is one hark command; its result is the command's JSON output, with " +
  "times in RFC 3339 with an offset. Tools that change data take dry_run: true to preview the " +
  "requests; tools that delete or overwrite data (in Lark, or a file on this machine) run only " +
  "with yes: true. Identical calls of a tool that creates something, within 10 minutes, are " +
  "applied once. Nothing ever prompts: when a tool answers with an auth or permission error, " +
  "ask the person to run the command it names in a terminal, then try again. Files on this " +
  "machine (uploads, downloads) are reachable only inside the one folder the person gave " +
  "hark, which each such argument names, never a hidden one (a name starting with a dot), and " +
  "not at all when none was given.";

/** What {@link serveMcp} serves. */
export interface ServeOptions {
  /** The tools. */
  tools: ToolSet;
  /** Runs the calls. */
  runner: ToolRunner;
  /** The protocol's input (stdin). */
  input: ReadableStream<Uint8Array>;
  /** The protocol's output (stdout); nothing else writes to it. */
  output: OutputStream;
  /** Stops the server (Ctrl-C). */
  signal: AbortSignal;
  /** Writes a log line (to stderr). */
  log(line: string): void;
}

/**
 * Serves MCP until the input ends (the calls still running are answered first), the client
 * closes the connection, or `signal` is aborted.
 *
 * @param options the tools, the runner and the streams
 */
export async function serveMcp(options: ServeOptions): Promise<void> {
  const { tools, runner } = options;
  const server = new Server(
    { name: "hark", title: "hark (Lark / Feishu)", version: VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: SERVER_INSTRUCTIONS },
  );
  const listed = [...tools.exposed.values()].map((entry) => entry.tool);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  const answer = async (
    params: { name: string; arguments?: Record<string, unknown> },
    signal: AbortSignal,
    progress?: ProgressSink,
  ) => {
    const { name, arguments: args } = params;
    const entry = tools.exposed.get(name);
    if (entry) return await runner.call(entry, args, signal, progress);
    const reason = tools.hidden.get(name);
    if (reason !== undefined) {
      return errorResult(
        new ValidationError(`Cannot call ${name}: ${reason}`, {
          suggestion: "Use the tools this server lists, or ask the person running hark to " +
            "change the flags of hark mcp",
        }),
        { helpCommand: "hark mcp --help" },
      );
    }
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown tool "${name}": the tools are ${[...tools.exposed.keys()].join(", ")}`,
    );
  };
  // The calls being answered, so that the end of the input waits for them.
  const calls = new Set<Promise<unknown>>();
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    // Progress only for a client that asked for it, with the token it gave.
    const token = request.params._meta?.progressToken;
    const gate = token === undefined ? undefined : progressGate((p) =>
      void extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, ...p },
      }).catch(() => undefined)
    );
    const call = answer(request.params, extra.signal, gate?.sink);
    calls.add(call);
    // Registered before the SDK's own: the gate closes before the answer is written.
    const done = () => {
      gate?.close();
      calls.delete(call);
    };
    call.then(done, done);
    return call;
  });
  server.onerror = (error) => options.log(`mcp: ${error.message}`);

  if (options.signal.aborted) return;
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  const stop = () => void server.close();
  options.signal.addEventListener("abort", stop, { once: true });
  try {
    // At the end of the input the transport closes, and the SDK drops the calls still running:
    // the end is passed on once they are answered (each is bounded by its own time limits).
    const input = holdEnd(options.input, async () => {
      await nextTurn(); // the calls of the last messages start
      if (calls.size > 0) {
        options.log(
          `the input ended; answering ${calls.size} call${calls.size === 1 ? "" : "s"} in ` +
            "flight first",
        );
      }
      while (calls.size > 0) await Promise.allSettled([...calls]);
      await nextTurn(); // their answers are written
    });
    await server.connect(new StreamTransport(input, options.output));
    await closed;
  } finally {
    options.signal.removeEventListener("abort", stop);
  }
}

/**
 * `input`, with its end passed on only once `settled` resolves; cancelling it cancels `input`.
 *
 * @param input the byte stream
 * @param settled what must finish before the end is reported
 */
function holdEnd(
  input: ReadableStream<Uint8Array>,
  settled: () => Promise<void>,
): ReadableStream<Uint8Array> {
  const reader = input.getReader();
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (!done) return controller.enqueue(value);
      await settled();
      if (!cancelled) controller.close();
    },
    cancel(reason) {
      cancelled = true;
      return reader.cancel(reason);
    },
  });
}

/** Resolves after everything already queued (promise reactions included) has run. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
