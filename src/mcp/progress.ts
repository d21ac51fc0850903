/**
 * MCP progress notifications for a call that takes more than a second: the status lines a
 * command shows on a terminal (agenda pieces, `--page-all` pages, uploads) become
 * `notifications/progress`, sent only when the client gave a `progressToken`.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { singleLine } from "../errors/mod.ts";

/** How long a call runs before its progress is sent, in ms. */
export const PROGRESS_AFTER_MS = 1_000;

/** One progress notification's parameters, without the token. */
export interface Progress {
  /** Grows with every notification of the call. */
  progress: number;
  /** The number `progress` goes up to, when the status line says (`3 of 12`). */
  total?: number;
  /** The status line. */
  message: string;
}

/** Sends a progress notification of the call. */
export type ProgressSink = (progress: Progress) => void;

/**
 * A status-line handler that sends progress once the call has run {@link PROGRESS_AFTER_MS}:
 * `progress` counts the status lines (or is the `done` of `done of total`), always increasing.
 *
 * @param ctx the clock
 * @param send sends one notification
 * @example
 * ```ts
 * const status = progressReporter(ctx, (p) => notify(p));
 * status("Reading the agenda: 3 of 10 pieces done"); // after 1 s: {progress: 3, total: 10, …}
 * ```
 */
export function progressReporter(
  ctx: Pick<Context, "now">,
  send: ProgressSink,
): (line: string | undefined) => void {
  const started = ctx.now();
  let last = 0;
  return (line) => {
    if (line === undefined || ctx.now() - started < PROGRESS_AFTER_MS) return;
    const counted = /(\d+) of (\d+)/.exec(line);
    const done = counted ? Number(counted[1]) : last + 1;
    const progress = done > last ? done : last + 1;
    last = progress;
    const total = counted ? Number(counted[2]) : undefined;
    send({
      progress,
      ...(total !== undefined && total >= progress ? { total } : {}),
      message: singleLine(line),
    });
  };
}

/**
 * A sink that passes progress on to `send` until it is closed. MCP allows no progress
 * notification after a request's answer (a client rejects it: "unknown token"), while a command
 * may still report after its answer was made (the agenda's pieces in flight when a page was
 * full): the call's sink is closed as the call settles, before the answer is written.
 *
 * @param send sends one notification
 * @example
 * ```ts
 * const gate = progressGate((p) => notify(p));
 * gate.sink({ progress: 1, message: "1 of 2" }); // sent
 * gate.close();
 * gate.sink({ progress: 2, message: "2 of 2" }); // dropped
 * ```
 */
export function progressGate(send: ProgressSink): { sink: ProgressSink; close(): void } {
  let open = true;
  return {
    sink: (progress) => {
      if (open) send(progress);
    },
    close: () => void (open = false),
  };
}
