/**
 * The flags `hark mcp` declares on the command line and the flag values the server reads are one
 * set: `src/mcp` cannot import `src/cli`, so this test, which sees both, holds them together.
 */

import assert from "node:assert/strict";
import { flagList, type FlagValuesOf } from "../../src/cli/command_spec.ts";
import { MCP_FLAGS, MCP_TOOL_PRESETS, mcpCommand } from "../../src/cli/mcp/mcp.ts";
import { presetList } from "../../src/catalogue/tool_name.ts";
import { type McpFlagValues, readMcpFlags } from "../../src/mcp/run_mcp.ts";

/**
 * `true` when `A` and `B` are the same type, else `false`; stricter than mutual assignability,
 * which an optional field on one side only would pass.
 */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;

Deno.test("hark mcp's declared flags have exactly the value types the server reads", () => {
  // A flag renamed, added or retyped on one side only fails to compile here.
  const same: Same<FlagValuesOf<typeof MCP_FLAGS>, McpFlagValues> = true;
  assert.equal(same, true);
  const values: McpFlagValues = { tools: ["a,b"], "read-only": true };
  assert.deepEqual(readMcpFlags(values).tools, ["a", "b"]);
  assert.deepEqual(flagList(MCP_FLAGS).map((f) => f.name), [
    "read-only",
    "tools",
    "services",
    "allow-raw-api",
    "files",
  ]);
});

Deno.test("hark mcp --help names the presets --tools takes, as defined", () => {
  assert.equal(MCP_TOOL_PRESETS, presetList());
  assert.ok(mcpCommand.notes?.includes(`presets: ${presetList()}.`));
  assert.ok(mcpCommand.examples?.includes("hark mcp --tools docs,tasks"));
});
