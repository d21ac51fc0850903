/**
 * The entry point of hark: builds the real context, runs the command line, prints the error if
 * there is one, and exits with its code. The only place that exits.
 *
 * @module
 */

import { createRealContext } from "./src/runtime/real_context.ts";
import { runCli, withConfigPreference } from "./src/cli/run_cli.ts";
import { renderError } from "./src/cli/render_error.ts";
import { colorEnabled, paint } from "./src/output/color.ts";
import { InternalError } from "./src/errors/mod.ts";

async function main(): Promise<number> {
  const controller = new AbortController();
  let interrupts = 0;
  const onInterrupt = () => {
    interrupts += 1;
    if (interrupts > 1) Deno.exit(130);
    controller.abort(new DOMException("Cancelled by Ctrl-C", "AbortError"));
  };
  if (Deno.build.os !== "windows") Deno.addSignalListener("SIGINT", onInterrupt);
  const ctx = createRealContext({ signal: controller.signal });
  try {
    const outcome = await withConfigPreference(ctx, await runCli(ctx, Deno.args));
    if (outcome.error) {
      const color = colorEnabled(ctx, ctx.stderr, { color: !Deno.args.includes("--no-color") });
      ctx.stderr.write(renderError(outcome.error, { ...outcome, paint: paint(color) }));
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
