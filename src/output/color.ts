/**
 * Colour rules: off with `--no-color`, `NO_COLOR`, `preferences.color = false`, or when the
 * stream is not a terminal.
 *
 * @module
 */

import type { Context, OutputStream } from "../context.ts";

/** Colour helpers; each is the identity when colours are off. */
export interface Paint {
  /** Whether colours are on. */
  enabled: boolean;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

/** Inputs of {@link colorEnabled}. */
export interface ColorSettings {
  /** False when `--no-color` was given. */
  color: boolean;
  /** `preferences.color`. */
  preference?: boolean;
}

/**
 * Whether to colour what is written to `stream`.
 *
 * @param ctx the context (env)
 * @param stream the stream written to
 * @param settings the flag and preference
 */
export function colorEnabled(
  ctx: Pick<Context, "env">,
  stream: OutputStream,
  settings: ColorSettings,
): boolean {
  if (!settings.color) return false;
  if (ctx.env.get("NO_COLOR")) return false;
  if (settings.preference === false) return false;
  return stream.isTerminal;
}

/**
 * Colour helpers, on or off.
 *
 * @param enabled whether colours are on
 */
export function paint(enabled: boolean): Paint {
  const wrap = (open: number, close: number) => (text: string) =>
    enabled ? `\x1b[${open}m${text}\x1b[${close}m` : text;
  return {
    enabled,
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
    bold: wrap(1, 22),
    dim: wrap(2, 22),
  };
}
