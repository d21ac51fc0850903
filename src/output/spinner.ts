/**
 * A spinner line on stderr, drawn by `yocto-spinner` through the context's stderr, shown only
 * when stderr is a terminal.
 *
 * `yocto-spinner` imports Node built-ins (`node:process`, `node:tty`), about 25 ms of start-up,
 * so it is loaded with `import()` only when a spinner is actually shown, never on the path of
 * `--version` or `--help`. Why it and not `nanospinner`: it writes to any stream it is given and
 * takes that stream's terminal flag, and it can leave signals alone; `nanospinner` decides
 * "terminal" from file descriptor 1 (stdout), and exits the process on Ctrl-C, which would skip
 * hark's own clean-up.
 *
 * @module
 */

import type { Context, OutputStream } from "../context.ts";

/** A spinner line. */
export interface Spinner {
  /** Shows `text` beside the spinner (starting it on the first call). */
  update(text: string): void;
  /** Stops the spinner and clears its line. */
  stop(): void;
  /**
   * Resolves once the spinner library is loaded (at once when the spinner is off). Updates made
   * before are not lost: the latest text is drawn when it arrives.
   */
  readonly ready: Promise<void>;
}

/** Options of {@link createSpinner}. */
export interface SpinnerOptions {
  /** Colour the spinner's frame; default false. Decide with `colorEnabled(ctx, ctx.stderr, …)`. */
  color?: boolean;
}

/**
 * Whether a spinner is drawn: stderr is a terminal, `TERM` is not `dumb` and `CI` is unset (the
 * library's own rule for animating, made hark's so the two never disagree).
 *
 * @param ctx the context
 * @returns whether {@link createSpinner} draws anything
 */
export function spinnerEnabled(ctx: Pick<Context, "env" | "stderr">): boolean {
  return ctx.stderr.isTerminal && ctx.env.get("TERM") !== "dumb" &&
    ctx.env.get("CI") === undefined;
}

/**
 * Creates a spinner on `ctx.stderr`; every call is a no-op when {@link spinnerEnabled} is false.
 * Call `stop()` when done (in a `finally`): the animation runs on a timer until then.
 *
 * @param ctx the context
 * @param options whether the frame is coloured
 * @returns the spinner
 *
 * @example
 * ```ts
 * const spinner = createSpinner(ctx);
 * try {
 *   spinner.update("Waiting for approval");
 *   await work();
 * } finally {
 *   spinner.stop();
 * }
 * ```
 */
export function createSpinner(
  ctx: Pick<Context, "env" | "stderr">,
  options: SpinnerOptions = {},
): Spinner {
  if (!spinnerEnabled(ctx)) {
    return { update() {}, stop() {}, ready: Promise.resolve() };
  }
  type Library = typeof import("yocto-spinner");
  let text: string | undefined;
  let stopped = false;
  let spinner: ReturnType<Library["default"]> | undefined;
  let lib: Library | undefined;
  const start = () => {
    if (!lib || spinner || stopped || text === undefined) return;
    spinner = lib.default({
      text,
      // Why: the library types `stream` as a whole Node Writable, yet uses only what
      // terminalStream gives (isTTY, columns, write, cursorTo, moveCursor, clearLine).
      stream: terminalStream(ctx.stderr, options.color ?? false) as never,
      handleSignals: false,
    }).start();
  };
  const ready = import("yocto-spinner").then((loaded) => {
    lib = loaded;
    start();
  });
  return {
    update(next: string) {
      if (stopped) return;
      text = next;
      if (spinner) spinner.text = next;
      else start();
    },
    stop() {
      stopped = true;
      spinner?.stop();
    },
    ready,
  };
}

/** SGR sequences (colours and styles), removed from the spinner's output when colour is off. */
// deno-lint-ignore no-control-regex
const SGR = /\x1b\[[0-9;]*m/g;

/**
 * The part of a Node TTY write stream the spinner uses, writing through `out`.
 *
 * @param out the stream written to
 * @param color whether colour codes pass
 */
function terminalStream(out: OutputStream, color: boolean) {
  const write = (text: string) => {
    out.write(color ? text : text.replace(SGR, ""));
    return true;
  };
  return {
    isTTY: true,
    get columns() {
      return out.columns || 80;
    },
    write,
    cursorTo: (x: number) => write(`\x1b[${x + 1}G`),
    moveCursor: (dx: number, dy: number) =>
      write(
        (dx < 0 ? `\x1b[${-dx}D` : dx > 0 ? `\x1b[${dx}C` : "") +
          (dy < 0 ? `\x1b[${-dy}A` : dy > 0 ? `\x1b[${dy}B` : ""),
      ),
    clearLine: (dir: number) => write(dir < 0 ? "\x1b[1K" : dir > 0 ? "\x1b[0K" : "\x1b[2K"),
  };
}
