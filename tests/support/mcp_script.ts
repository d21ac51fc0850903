/**
 * A whole MCP session as a host would write it to a server's stdin, for tests that pipe one in.
 *
 * @module
 */

/**
 * The lines of a session: `initialize` (id 1), `notifications/initialized`, then `messages`, one
 * JSON-RPC message per line, as `printf … | hark mcp` would send them.
 *
 * @param client the client's name
 * @param messages the messages after the handshake
 */
export function mcpScript(client: string, messages: Record<string, unknown>[]): string {
  return [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: client, version: "1" },
      },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    ...messages,
  ].map((message) => JSON.stringify(message) + "\n").join("");
}
