/**
 * Running a command under `--jq`: jq is loaded and the expression checked before the command
 * runs, the command writes its JSON into a buffer, and what jq makes of it goes to stdout.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { CancelledError, ValidationError } from "../errors/mod.ts";

/** Commands whose stdout is not JSON data: a protocol (`hark mcp`), a shell script. */
const NOT_JSON = new Set(["hark mcp", "hark completion"]);

/**
 * Runs `command` with its stdout captured, then prints the captured JSON through `filter`. When
 * the command fails after writing part of its output (a listing cut by an error), that part is
 * filtered and printed before the error is thrown on, unless that error is a Ctrl-C (which asks
 * for a stop, not for jq). When jq fails part way, the results it made first are printed before
 * its error, as jq itself does.
 *
 * @param ctx the context
 * @param filter the `--jq` expression
 * @param command runs the command with the context it is given
 * @param name the command's name, `hark calendar +agenda`
 * @throws {ValidationError} when the command prints no JSON, or the expression does not compile
 *   (both before the command runs), or jq fails on the output; whatever the command throws
 */
export async function runWithJq(
  ctx: Context,
  filter: string,
  command: (ctx: Context) => Promise<void>,
  name: string,
): Promise<void> {
  const top = name.split(" ").slice(0, 2).join(" ");
  if (NOT_JSON.has(top)) {
    throw new ValidationError(`--jq does not apply to ${top}: it prints no JSON data`, {
      param: "--jq",
      suggestion: `Run ${top} without --jq`,
    });
  }
  const { checkJqFilter, loadJq, printJq } = await import("../output/jq.ts");
  const engine = await loadJq();
  checkJqFilter(engine, filter);
  const chunks: string[] = [];
  // Not a terminal: the command writes compact JSON, which is what jq reads.
  const captured: Context = { ...ctx, stdout: { isTerminal: false, write: (t) => chunks.push(t) } };
  const sinks = {
    stdout: (text: string) => ctx.stdout.write(text),
    stderr: (text: string) => ctx.stderr.write(text),
  };
  // jq runs synchronously: a Ctrl-C that came before is honoured here, one during it ends hark.
  const filtered = async () => {
    // One turn of the event loop first: a signal that came during the command's last synchronous
    // stretch reaches its listener only then.
    await ctx.sleep(0);
    if (ctx.signal.aborted) {
      throw new CancelledError("Cancelled before --jq ran", { cause: ctx.signal.reason });
    }
    const block = ctx.blocking ?? ((work) => work());
    block(() => printJq(engine, filter, chunks.join(""), sinks));
  };
  try {
    await command(captured);
  } catch (error) {
    // The command's error is the one to report; jq's own failure on a cut listing is not.
    try {
      await filtered();
    } catch {
      // Nothing more to print.
    }
    throw error;
  }
  await filtered();
}
