/**
 * Issue 21, low, end to end: `/open-apis/..\..\x` passed the path guard of `hark api` and of the
 * MCP server's `api` tool, and the URL parser, which reads `\` as `/`, sent the token to `/x`.
 * Against a server on 127.0.0.1 that records what it receives: backslashes and percent-encoded
 * slashes or backslashes in the path are refused (exit 2, a validation error naming the path)
 * by both front ends, before anything is sent.
 *
 * `hark api` runs in process ({@link runInProcess}: the same command code and network as a hark
 * process, no Deno start-up): the refusal is the command's, which the process adds nothing to.
 * The MCP server stays a real `hark mcp` process, as the wiring.
 */

import assert from "node:assert/strict";
import { createHarkEnv } from "../support/hark_env.ts";
import { runInProcess } from "../support/world.ts";
import { connectHarkMcp } from "../mcp/_mcp_client.ts";
import { assertEnvelope } from "./_envelope.ts";
import { larkOk, startHostileServer } from "./_hostile_server.ts";

/** Paths that leave /open-apis/ once a parser or a server reads them; each names a real route. */
const ESCAPES = [
  "/open-apis/..\\..\\authen/v1/user_info",
  "/open-apis/calendar\\..\\..\\authen/v1/user_info",
  "calendar/v4\\..\\..\\..\\authen/v1/user_info",
  "/open-apis/calendar/..%2f..%2fauthen/v1/user_info",
  "/open-apis/calendar/..%5C..%5Cauthen/v1/user_info",
  "/open-apis/x/%2E%2E%2F%2E%2E%2Fauthen/v1/user_info",
];

const TOKEN = "u-path-guard-token-000001";

Deno.test("hark api and the MCP api tool refuse a path that would leave /open-apis/, sending nothing", async () => {
  // What the URL parser makes of the first: the token would go to /authen/v1/user_info.
  assert.equal(
    new URL(`http://127.0.0.1${ESCAPES[0]}`).pathname,
    "/authen/v1/user_info",
  );
  const server = startHostileServer(() => larkOk({ open_id: "ou_stolen" }));
  const home = await createHarkEnv({ HARK_USER_ACCESS_TOKEN: TOKEN, HARK_BASE_URL: server.url });
  try {
    for (const path of ESCAPES) {
      const run = await runInProcess(home, ["api", "GET", path, "--json"]);
      assert.equal(run.code, 2, `hark api GET ${path}: ${run.stderr}`);
      const error = assertEnvelope(run, `hark api GET ${path}`);
      assert.equal(error.type, "validation");
      assert.match(error.message, /^Invalid path /);
    }
    const mcp = await connectHarkMcp(home.env, ["--allow-raw-api"]);
    try {
      for (const path of ESCAPES) {
        const result = await mcp.client.callTool({
          name: "api",
          arguments: { method: "GET", path },
        });
        assert.equal(result.isError, true, `api tool ${path}: ${JSON.stringify(result)}`);
        const { error } = result.structuredContent as { error: { code: number; message: string } };
        assert.equal(error.code, 2, path);
        assert.match(error.message, /^Invalid path /, path);
      }
    } finally {
      await mcp.close();
    }
    assert.equal(server.received.length, 0, server.transcript());
  } finally {
    await home.cleanup();
    await server.close();
  }
});
