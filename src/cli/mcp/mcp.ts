/**
 * `hark mcp`: every shortcut as a tool for AI agents, over the Model Context Protocol on stdio.
 * The MCP SDK is loaded only when this command runs.
 *
 * @module
 */

import { type CommandSpec, defineCommand, flag } from "../command_spec.ts";

/** The snippet that adds hark to an MCP host's config (Claude Desktop and most others). */
export const MCP_HOST_CONFIG = `{
  "mcpServers": {
    "hark": {
      "command": "hark",
      "args": ["mcp"]
    }
  }
}`;

/**
 * The presets of `hark mcp --tools`, as help shows them; `TOOL_PRESETS` in
 * `src/catalogue/tool_name.ts` defines them (a test holds the two together; the command tree
 * loads nothing of the catalogue).
 */
export const MCP_TOOL_PRESETS =
  "calendar (calendar), im (im), docs (docx, drive, wiki, sheets), tasks (task), base " +
  "(bitable, base)";

/** The flags of `hark mcp`; `runMcpCommand` takes their values as `McpFlagValues`. */
export const MCP_FLAGS = {
  "read-only": flag.bool({
    description: "expose only the tools that change nothing, in Lark or on this machine",
  }),
  tools: flag.list("<names>", {
    description: "expose only these tools, comma-separated (calendar_agenda,im_send); API " +
      "methods by id, glob or preset add tools (docx.*, docs,tasks)",
  }),
  services: flag.list("<names>", {
    description: "expose only the tools of these services, comma-separated (calendar,im)",
  }),
  "allow-raw-api": flag.bool({
    description: "also expose hark api as the tool api (any endpoint; GET only with " +
      "--read-only)",
  }),
  files: flag.string("<folder>", {
    description: "the one folder tools may read from and write to (uploads, downloads), " +
      "neither / nor your home; without it, none",
  }),
};

/** `hark mcp`. */
export const mcpCommand: CommandSpec = defineCommand({
  name: "mcp",
  description: "Serve every shortcut as a tool to AI agents (Model Context Protocol on stdio)",
  flags: MCP_FLAGS,
  examples: [
    "hark mcp",
    "hark mcp --read-only --services calendar,contact",
    "hark mcp --tools calendar_agenda,im_send --as bot --profile work",
    "hark mcp --files ~/hark-files",
    "hark mcp --tools docs,tasks",
    "hark mcp --read-only --tools calendar_agenda,docx.v1.document.rawContent,wiki.v2.space.*",
  ],
  notes: "Add hark to an MCP host: in Claude Desktop's claude_desktop_config.json, or the " +
    '"mcpServers" section most hosts read, put (with the full path of hark as "command" if ' +
    'the host does not find it on its PATH; add flags to "args"):\n' +
    MCP_HOST_CONFIG.split("\n").map((line) => `  ${line}`).join("\n") + "\n\n" +
    "Events do not fit a tool call: run hark event +subscribe --output-dir <dir> --quiet " +
    "beside the agent and let it read the folder (one JSON event per file).\n\n" +
    "Sign in first in a terminal (hark auth login): the server never prompts. A tool that " +
    "changes data takes dry_run: true to preview it, a tool that deletes or overwrites " +
    "(calendar_update, im_download with force) runs only with yes: true, and a failed call is " +
    "a tool error carrying hark's error envelope. A tool that creates (im_send, im_reply, " +
    "calendar_create, im_chat_create) applies identical calls within 10 minutes once: unless " +
    "given, its idempotency key is derived from the arguments, the profile and the identity. " +
    "Tools are named after their shortcut (calendar +agenda is calendar_agenda) and take its " +
    "parameters as arguments (--chat-id is chat_id). --as and --profile fix the identity and " +
    "profile of every call; --debug logs each call on stderr. stdout carries the protocol " +
    "only. Tools that read or write files on this machine (uploads, downloads) reach only the " +
    "--files folder (a leading ~ is your home, also in a host's config), links and .. " +
    "resolved, each file checked again once opened; never a hidden name in it (.git, .envrc, " +
    ".ssh), nor hark's own config and keychain folders; and no file at all without it: a " +
    "message an agent reads cannot make it upload your keys or overwrite .git/config or your " +
    "shell profile. --read-only leaves out the tools that write files too.\n\n" +
    "API methods as tools: --tools also takes method ids (docx.v1.document.create), globs " +
    "over ids (docx.*, task.v2.task.*) and presets: " + MCP_TOOL_PRESETS + ". With only " +
    "such entries every shortcut tool stays too. A method's tool is its id with underscores " +
    "(docx_v1_document_create; hark schema <method id> gives it as mcp_tool); it takes path, " +
    "params and data as the method types them, dry_run, as where both identities work, and " +
    "yes for DELETE, PUT, PATCH and removing POSTs; a write with an idempotency key gets one " +
    "derived from its arguments. --read-only keeps the GET methods and names the others on " +
    "stderr. Only the named API groups of the catalogue are loaded.",
  run: async (call) => (await import("../../mcp/run_mcp.ts")).runMcpCommand(call),
});
