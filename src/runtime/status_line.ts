/**
 * {@link Context.status} of the real context: a status line on a terminal's stderr, shown only
 * once a command has run for a while.
 *
 * @module
 */

import type { Context } from "../context.ts";

/** How long a command runs before a status line appears, in ms. */
export const STATUS_DELAY_MS = 1_000;

/**
 * Runs `fn` once after `ms` milliseconds; returns what cancels it. The real one is a timer that
 * does not keep the process alive.
 */
export type Schedule = (fn: () => void, ms: number) => () => void;

const unrefTimer: Schedule = (fn, ms) => {
  const id = setTimeout(fn, ms);
  Deno.unrefTimer(id);
  return () => clearTimeout(id);
};

/**
 * The status line of {@link Context.status} on `stderr`: drawn in place with `\r` and erase,
 * cut to the terminal's width, shown only on a terminal and only once the command has run for
 * {@link STATUS_DELAY_MS} (a quick command never flickers one). A line sent earlier is kept and
 * drawn when that time comes, unless another replaced it (the latest is drawn) or it was cleared.
 *
 * @param stderr where the line goes
 * @param elapsed how long the command has run, in ms
 * @param schedule the timer that draws a line sent before the delay
 */
export function statusLine(
  stderr: Context["stderr"],
  elapsed: () => number,
  schedule: Schedule = unrefTimer,
): (line: string | undefined) => void {
  let shown = false;
  let pending: string | undefined;
  let cancel: (() => void) | undefined;
  const draw = (line: string) => {
    const width = Math.max(20, (stderr.columns ?? 80) - 1);
    stderr.write(`\r\x1b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
    shown = true;
  };
  return (line) => {
    if (!stderr.isTerminal) return;
    pending = line;
    if (line === undefined) {
      cancel?.();
      cancel = undefined;
      if (shown) stderr.write("\r\x1b[2K");
      shown = false;
      return;
    }
    const wait = STATUS_DELAY_MS - elapsed();
    if (wait <= 0) {
      cancel?.();
      cancel = undefined;
      draw(line);
      return;
    }
    cancel ??= schedule(() => {
      cancel = undefined;
      if (pending !== undefined) draw(pending);
    }, wait);
  };
}
