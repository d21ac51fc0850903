/**
 * `hark auth token`: print the current access token, for piping into other tools.
 *
 * @module
 */

import type { CommandCall } from "../command_spec.ts";
import { openSession } from "../../session/session.ts";

/**
 * Prints the access token of `--as` (default user), refreshed first when needed: the bare token
 * and a newline, or with `--json` (or `--format json`) `{"access_token", "expires_at",
 * "identity"}`, `expires_at` in RFC 3339 (`null` when the source does not say, as for a token
 * from the environment).
 *
 * @param call the parsed command line
 * @throws {ValidationError} before `hark config init` (and without an environment token)
 * @throws {AuthError} when no usable token can be found
 */
export async function runToken(call: CommandCall): Promise<void> {
  const session = await openSession(call.ctx, call.globals);
  const { ctx } = session;
  const token = await session.tokens().getToken();
  // Only an explicit request gives JSON: piped, the bare token is what `$(hark auth token)` needs.
  if (session.globals.format === "json") {
    const { formatRfc3339InZone } = await import("../../time/mod.ts");
    const expiresAt = token.expiresAt === undefined
      ? null
      : formatRfc3339InZone(token.expiresAt, ctx.timeZone);
    ctx.stdout.write(
      JSON.stringify({
        access_token: token.token,
        expires_at: expiresAt,
        identity: token.identity,
      }) + "\n",
    );
    return;
  }
  ctx.stdout.write(`${token.token}\n`);
}
