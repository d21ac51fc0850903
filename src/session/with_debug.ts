/**
 * `--debug`: the context with its debug lines on stderr.
 *
 * @module
 */

import type { Context, DebugLine } from "../context.ts";

/**
 * The context with `debug` writing to stderr, for `--debug`. Everything else is the context's
 * own (its lazy members stay lazy).
 *
 * @param ctx the context
 */
export function withDebug(ctx: Context): Context {
  const debug = (line: DebugLine) =>
    ctx.stderr.write(`[debug] ${typeof line === "string" ? line : line()}\n`);
  return Object.create(ctx, { debug: { value: debug, enumerable: true } });
}
