/**
 * A small spinner on stderr, shown only when stderr is a terminal.
 *
 * @module
 */

import type { Context } from "../context.ts";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** A spinner line. */
export interface Spinner {
  /** Redraws the line with `text` and the next frame. */
  update(text: string): void;
  /** Clears the line. */
  stop(): void;
}

/**
 * Creates a spinner on `ctx.stderr`; every call is a no-op when stderr is not a terminal.
 *
 * @param ctx the context
 */
export function createSpinner(ctx: Context): Spinner {
  const on = ctx.stderr.isTerminal;
  let frame = 0;
  let drawn = false;
  return {
    update(text: string) {
      if (!on) return;
      ctx.stderr.write(`\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${text}`);
      drawn = true;
    },
    stop() {
      if (on && drawn) ctx.stderr.write("\r\x1b[2K");
      drawn = false;
    },
  };
}

/**
 * Formats a duration as `m:ss`.
 *
 * @param ms milliseconds
 */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}
