/**
 * The entry point of hark: builds the real context, runs the command line, prints the error if
 * there is one, and exits with its code. The only place that exits.
 *
 * @module
 */

import { createRealContext } from "./src/runtime/real_context.ts";
import { errorStyle, runCli } from "./src/cli/run_cli.ts";
import { InternalError } from "./src/errors/hark_error.ts";

/**
 * The variable `deno task hark` sets to the folder it was started in (`INIT_CWD`): a task runs
 * in the repository, and relative paths (`--output ./a.png`, `HARK_CONFIG`) are the user's.
 */
const TASK_CWD = "HARK_TASK_CWD";

async function main(): Promise<number> {
  const taskCwd = Deno.env.get(TASK_CWD);
  if (taskCwd !== undefined) {
    // Read once: the programs hark starts (keychain tools, a credential command) never see it.
    Deno.env.delete(TASK_CWD);
    try {
      if (taskCwd !== "") Deno.chdir(taskCwd);
    } catch (error) {
      console.error(`Cannot run in "${taskCwd}", where deno task was started: ${error}`);
      return 1;
    }
  }
  const controller = new AbortController();
  let interrupts = 0;
  // Ctrl-C: the first cancels the command (which undoes half-done work), the second exits.
  const listeners: [Deno.Signal, () => void][] = [["SIGINT", () => {
    interrupts += 1;
    if (interrupts > 1) Deno.exit(130);
    controller.abort(new DOMException("Cancelled by Ctrl-C", "AbortError"));
  }]];
  // SIGTERM asks what Ctrl-C asks (a subscriber finishes what it received); a second one exits.
  if (Deno.build.os !== "windows") {
    let terms = 0;
    listeners.push(["SIGTERM", () => {
      terms += 1;
      if (terms > 1) Deno.exit(143);
      controller.abort(new DOMException("Terminated", "AbortError"));
    }]);
  }
  for (const [signal, listener] of listeners) Deno.addSignalListener(signal, listener);
  // While synchronous work runs no listener can: without them, a signal ends the process at once.
  // The work must be synchronous (a promise would get the listeners back before it settles); a
  // call inside another leaves them aside until the outer one returns. The work is another
  // program's (jq's WebAssembly runtime), and hark writes only through its context: what that
  // runtime prints on the console (`Aborted()` when jq runs out of memory) is dropped, so that
  // stderr holds hark's error alone.
  let blockingDepth = 0;
  const consoleMethods = ["log", "info", "warn", "error", "debug"] as const;
  const saved = consoleMethods.map((name) => console[name]);
  const blocking = <T>(work: () => T): T => {
    if (blockingDepth++ === 0) {
      for (const [signal, listener] of listeners) Deno.removeSignalListener(signal, listener);
      for (const name of consoleMethods) console[name] = () => {};
    }
    try {
      return work();
    } finally {
      if (--blockingDepth === 0) {
        for (const [signal, listener] of listeners) Deno.addSignalListener(signal, listener);
        consoleMethods.forEach((name, i) => console[name] = saved[i]);
      }
    }
  };
  // The generated API catalogue sits beside this file: gen/catalogue/ from source, and in the
  // bundle (and the binary compiled from it) beside its entry.
  const catalogueDir = `${import.meta.dirname ?? "."}/gen/catalogue`;
  const ctx = createRealContext({ signal: controller.signal, catalogueDir, blocking });
  try {
    const outcome = await runCli(ctx, Deno.args);
    if (outcome.error) {
      const [{ renderError }, { paint }, style] = await Promise.all([
        import("./src/cli/render_error.ts"),
        import("./src/output/color.ts"),
        errorStyle(ctx, outcome),
      ]);
      ctx.stderr.write(
        renderError(outcome.error, {
          ...outcome,
          json: style.json,
          paint: paint(style.color),
          width: style.width,
        }),
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
