/**
 * Running a command under `--jq`: jq is loaded and the expression checked before the command
 * runs, the command writes its JSON into a buffer, and what jq makes of it goes to stdout.
 *
 * @module
 */

import type { Context } from "../context.ts";

/**
 * Runs `command` with its stdout captured, then prints the captured JSON through `filter`. When
 * the command fails after writing part of its output (a listing cut by an error), that part is
 * filtered and printed before the error is thrown on.
 *
 * @param ctx the context
 * @param filter the `--jq` expression
 * @param command runs the command with the context it is given
 * @throws {ValidationError} when the expression does not compile (before the command runs) or
 *   fails on the output; whatever the command throws
 */
export async function runWithJq(
  ctx: Context,
  filter: string,
  command: (ctx: Context) => Promise<void>,
): Promise<void> {
  const { applyJq, checkJqFilter, loadJq } = await import("../output/jq.ts");
  const engine = await loadJq();
  await checkJqFilter(engine, filter);
  const chunks: string[] = [];
  // Not a terminal: the command writes compact JSON, which is what jq reads.
  const captured: Context = { ...ctx, stdout: { isTerminal: false, write: (t) => chunks.push(t) } };
  try {
    await command(captured);
  } catch (error) {
    const partial = await applyJq(engine, filter, chunks.join("")).catch(() => "");
    ctx.stdout.write(partial);
    throw error;
  }
  ctx.stdout.write(await applyJq(engine, filter, chunks.join("")));
}
