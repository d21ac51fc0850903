/**
 * The context a tool call runs a command in: its output captured, no stdin, its status lines
 * passed on (as progress), cancellable with the call.
 *
 * @module
 */

import type { Context, InputStream, OutputStream } from "../context.ts";
import { CONTINUE_NOTE } from "../shortcuts/paging.ts";

/** Stdin for anything that runs inside the server: empty and not a terminal (never a prompt). */
export const EMPTY_STDIN: InputStream = {
  isTerminal: false,
  readAll: () => Promise.resolve(new Uint8Array()),
  stream: () => new Blob([]).stream(),
};

/**
 * The context one call runs in: the server's, with stdout and stderr captured (the output is the
 * result, the warnings go with it), no stdin (it carries the protocol), the status line passed
 * to `status` (progress notifications, or nowhere), and a signal that the call's cancellation
 * aborts too.
 *
 * @param ctx the server's context
 * @param signal aborted when the call is cancelled
 * @param status where the command's status lines go; default nowhere
 */
export function callContext(
  ctx: Context,
  signal: AbortSignal,
  status: (line: string | undefined) => void = () => undefined,
): {
  ctx: Context;
  data(): unknown;
  warnings(): string[];
} {
  const stdout = capture();
  const stderr = capture();
  const call: Context = Object.create(ctx, {
    stdout: { value: stdout },
    stderr: { value: stderr },
    stdin: { value: EMPTY_STDIN },
    status: { value: status },
    signal: { value: AbortSignal.any([ctx.signal, signal]) },
  });
  return {
    ctx: call,
    data: () => {
      const text = stdout.text().trim();
      return text === "" ? null : JSON.parse(text);
    },
    warnings: () =>
      stderr.text().split("\n").map((line) => line.replace(/^warning: /, "").trim())
        // The CLI's --page-token is not the tool's page_token: the result carries that one.
        .filter((line) => line !== "" && !line.startsWith(CONTINUE_NOTE)),
  };
}

function capture(): OutputStream & { text(): string } {
  const parts: string[] = [];
  return {
    isTerminal: false,
    write: (text) => void parts.push(text),
    text: () => parts.join(""),
  };
}
