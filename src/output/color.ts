/**
 * Colour: hark decides whether to colour ({@link colorEnabled}); the escape codes come from
 * `ansi-styles`.
 *
 * Why `ansi-styles` and not a colour library with its own switch (picocolors, tinyrainbow,
 * ansis): those read `process.env` and `process.stdout` when imported, which loads Deno's Node
 * `process` emulation, about 16–22 ms on every start, `--version` included; `ansi-styles` is a
 * table of codes and costs nothing (figures in the commit that brought it in). The switch is
 * ours anyway: hark's rules decide, never the library's detection.
 *
 * @module
 */

import ansiStyles from "ansi-styles";
import type { Context, OutputStream } from "../context.ts";

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
  return { enabled, red: style(ansiStyles.red), bold: style(ansiStyles.bold) };
}
