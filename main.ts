/**
 * The entry point of hark: builds the real context, runs the command line, prints the error if
 * there is one, and exits with its code. The only place that exits.
 *
 * @module
 */

import { createRealContext } from "./src/runtime/real_context.ts";
import { errorStyle, runCli } from "./src/cli/run_cli.ts";
import { InternalError } from "./src/errors/hark_error.ts";

async function main(): Promise<number> {
  const controller = new AbortController();
  let interrupts = 0;
  // Ctrl-C: the first cancels the command (which undoes half-done work), the second exits.
  Deno.addSignalListener("SIGINT", () => {
    interrupts += 1;
    if (interrupts > 1) Deno.exit(130);
    controller.abort(new DOMException("Cancelled by Ctrl-C", "AbortError"));
  });
  const ctx = createRealContext({ signal: controller.signal });
  try {
    const outcome = await runCli(ctx, Deno.args);
    if (outcome.error) {
      const [{ renderError }, { paint }, style] = await Promise.all([
        import("./src/cli/render_error.ts"),
        import("./src/output/color.ts"),
        errorStyle(ctx, outcome),
      ]);
      ctx.stderr.write(
        renderError(outcome.error, { ...outcome, json: style.json, paint: paint(style.color) }),
      );
    }
    return outcome.code;
  } catch (error) {
    // Only reached if error reporting itself failed.
    const internal = new InternalError("Unexpected error while reporting an error", error);
    console.error(internal.message);
    return internal.code;
  }
}

Deno.exit(await main());
