/**
 * `hark auth token`: print the current access token, for piping into other tools.
 *
 * @module
 */

import type { CommandCall } from "../command_spec.ts";
import { openSession } from "../session.ts";

/**
 * Prints the access token of `--as` (default user), refreshed first when needed, and a newline.
 *
 * @param call the parsed command line
 * @throws {AuthError} when no usable token can be found
 */
export async function runToken(call: CommandCall): Promise<void> {
  const session = await openSession(call.ctx, call.globals);
  const { token } = await session.tokens().getToken();
  session.ctx.stdout.write(`${token}\n`);
}
