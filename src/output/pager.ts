/**
 * Paging long output at a terminal, as `gh` does: stdout is collected while the command runs,
 * then shown through `HARK_PAGER`, else `PAGER`, else `less -FRX` (which prints output that fits
 * one screen as it is). Never when stdout is piped, and never in MCP (its output is captured).
 * What the command itself writes to stderr (a footer, warnings) follows the pager; prompts and
 * the status line, written through the unpaged context, stay live.
 *
 * @module
 */

import type { Context, OutputStream } from "../context.ts";

/** The pager used when neither `HARK_PAGER` nor `PAGER` names one. */
export const DEFAULT_PAGER = "less -FRX";

/**
 * The pager command for this run: none when stdout is not a terminal or the context cannot
 * page; else `HARK_PAGER`, else `PAGER`, else {@link DEFAULT_PAGER}. An empty value or `cat`
 * turns paging off.
 *
 * @param ctx the context
 * @returns the shell command line, or `undefined` for no pager
 */
export function pagerCommand(ctx: Pick<Context, "env" | "stdout" | "page">): string | undefined {
  if (!ctx.stdout.isTerminal || !ctx.page) return undefined;
  const chosen = (ctx.env.get("HARK_PAGER") ?? ctx.env.get("PAGER") ?? DEFAULT_PAGER).trim();
  return chosen === "" || chosen === "cat" ? undefined : chosen;
}

/** A context whose stdout is collected for the pager. */
export interface PagedOutput {
  /** The context to run the command in: the given one, its stdout collected when paging. */
  ctx: Context;
  /**
   * Shows what was collected through the pager (or writes it to stdout when the pager cannot
   * start), then what was written to stderr; call it once, when the command has ended, whether
   * or not it failed.
   */
  flush(): Promise<void>;
}

/**
 * Collects a command's stdout for the pager when one applies ({@link pagerCommand}); otherwise
 * the context is returned as it is and `flush` does nothing.
 *
 * @param ctx the context
 * @example
 * ```ts
 * const paged = openPager(ctx);
 * try {
 *   writeData(paged.ctx, options, rows, columns);
 * } finally {
 *   await paged.flush();
 * }
 * ```
 */
export function openPager(ctx: Context): PagedOutput {
  const command = pagerCommand(ctx);
  if (command === undefined || !ctx.page) return { ctx, flush: () => Promise.resolve() };
  const page = ctx.page.bind(ctx);
  const chunks: string[] = [];
  const notes: string[] = [];
  const stdout: OutputStream = {
    isTerminal: true,
    columns: ctx.stdout.columns,
    write: (text) => void chunks.push(text),
  };
  // What the command writes to stderr (a footer, its warnings) follows its output, as piped.
  const stderr: OutputStream = {
    isTerminal: ctx.stderr.isTerminal,
    columns: ctx.stderr.columns,
    write: (text) => void notes.push(text),
  };
  // The context's other members (lazy ones included) are reached through the prototype.
  const paged: Context = Object.assign(Object.create(ctx), { stdout, stderr });
  return {
    ctx: paged,
    async flush() {
      const text = chunks.splice(0).join("");
      if (text !== "" && !(await page(command, text))) ctx.stdout.write(text);
      for (const note of notes.splice(0)) ctx.stderr.write(note);
    },
  };
}
