/**
 * The official MCP SDK's client connected to `hark mcp` started as a subprocess (the way an MCP
 * host starts it), with the server's stderr collected.
 *
 * @module
 */

import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's wildcard export maps "./*" to "*.d.ts", which misses "stdio.js": name the types.
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { HARK_RUN_FLAGS, MAIN_TS, REPO_ROOT } from "../support/hark_env.ts";

/** A client connected to a running `hark mcp`. */
export interface HarkMcp {
  /** The SDK's client. */
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Transport errors the client saw (a line on stdout that is not JSON-RPC is one). */
  errors: Error[];
  /** Closes the connection; the server exits. */
  close(): Promise<void>;
}

/**
 * Starts `hark mcp <args>` with exactly `env` (plus what the SDK passes on: HOME, PATH and the
 * like, which `env` overrides) and connects the SDK's client to it.
 *
 * @param env the server's environment (a hark test home's)
 * @param args the flags after `hark mcp`
 */
export async function connectHarkMcp(
  env: Record<string, string>,
  args: string[] = [],
): Promise<HarkMcp> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "--quiet", "--no-check", ...HARK_RUN_FLAGS, MAIN_TS, "mcp", ...args],
    env,
    cwd: REPO_ROOT,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => {
    stderr += new TextDecoder().decode(chunk);
  });
  const errors: Error[] = [];
  const client = new Client({ name: "hark-tests", version: "1.0.0" });
  client.onerror = (error) => void errors.push(error);
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`Cannot connect to hark mcp: ${error}; stderr: ${stderr}`);
  }
  return {
    client,
    stderr: () => stderr,
    errors,
    close: () => client.close(),
  };
}
