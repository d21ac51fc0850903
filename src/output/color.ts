/**
 * Colour: hark decides whether to colour ({@link colorEnabled}) and writes the two SGR styles it
 * uses, red and bold, itself.
 *
 * Why no colour library: those with their own switch (picocolors, tinyrainbow, ansis) read
 * `process.env` and `process.stdout` when imported, which loads Deno's Node `process` emulation,
 * about 16–22 ms on every start; `ansi-styles` builds its table of every style and 256-colour
 * helper when imported, about 1 ms of every command that prints (`contact +me --json` included)
 * for two pairs of codes. The switch is ours anyway: hark's rules decide, never a library's
 * detection.
 *
 * @module
 */

import type { Context, OutputStream } from "../context.ts";

/** Red foreground on, and back to the default foreground (SGR 31 and 39). */
const RED = { open: "\x1b[31m", close: "\x1b[39m" };
/** Bold on, and normal intensity (SGR 1 and 22). */
const BOLD = { open: "\x1b[1m", close: "\x1b[22m" };

/** Colour helpers; each is the identity when colours are off. */
export interface Paint {
  /** Whether colours are on. */
  enabled: boolean;
  /** Red: the `error:` label. */
  red(text: string): string;
  /** Bold: table headers, the command to run after an error. */
  bold(text: string): string;
}

/** Inputs of {@link colorEnabled}. */
export interface ColorSettings {
  /** False when `--no-color` was given. */
  color: boolean;
  /** `preferences.color`. */
  preference?: boolean;
}

/**
 * Whether to colour what is written to `stream`: off with `--no-color`, a non-empty
 * `NO_COLOR`, `preferences.color = false`, `TERM=dumb`, or when the stream is not a terminal.
 *
 * @param ctx the context (env)
 * @param stream the stream written to
 * @param settings the flag and preference
 * @returns whether to colour
 */
export function colorEnabled(
  ctx: Pick<Context, "env">,
  stream: OutputStream,
  settings: ColorSettings,
): boolean {
  if (!settings.color) return false;
  if (ctx.env.get("NO_COLOR")) return false;
  if (settings.preference === false) return false;
  if (ctx.env.get("TERM") === "dumb") return false;
  return stream.isTerminal;
}

/**
 * Colour helpers, on or off.
 *
 * @param enabled whether colours are on
 * @returns the helpers; identities when `enabled` is false
 */
export function paint(enabled: boolean): Paint {
  const style = ({ open, close }: { open: string; close: string }) => (text: string) =>
    // Re-open after a nested close of the same kind, so the outer style goes on.
    enabled ? open + text.replaceAll(close, close + open) + close : text;
  return { enabled, red: style(RED), bold: style(BOLD) };
}
