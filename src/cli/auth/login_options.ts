/**
 * The flags of `auth login` checked into its options (no I/O), and how long a sign-in waits for
 * approval given them.
 *
 * @module
 */

import { parseScopes } from "../../auth/mod.ts";
import type { Context } from "../../context.ts";
import { ValidationError } from "../../errors/mod.ts";
import type { FlagValuesOf } from "../command_spec.ts";
import type { LOGIN_FLAGS } from "./auth.ts";

/** The parsed flags of `auth login`. */
export type LoginFlags = FlagValuesOf<typeof LOGIN_FLAGS>;

/** The checked flags of `auth login`. */
export interface LoginOptions {
  /** `--scope`, split and checked; empty when none was given. */
  scopes: string[];
  /** False with `--no-wait`. */
  wait: boolean;
  /** `--wait <duration>` in ms: how long to keep polling after the first poll. */
  waitMs?: number;
  /** `--device-code`, trimmed. */
  deviceCode?: string;
  /** `--force`: replace a keychain entry this config does not refer to. */
  force: boolean;
}

/**
 * Checks the flags of `auth login` (no I/O).
 *
 * @param flags the parsed flags
 * @throws {ValidationError} for a bad scope, conflicting flags or an empty device code
 */
export function loginOptions(flags: LoginFlags): LoginOptions {
  const scopes = parseScopes(flags.scope ?? []);
  // `--no-wait` and `--wait <duration>` share the name: false for the one, the text for the other.
  const wait = flags.wait !== false;
  const waitMs = typeof flags.wait === "string" ? parseWait(flags.wait) : undefined;
  const deviceCode = flags["device-code"];
  if (deviceCode !== undefined && !wait) {
    throw new ValidationError("Conflicting flags: --no-wait and --device-code", {
      param: "--device-code",
      suggestion: "Use --no-wait to start a sign-in, then --device-code to finish it",
      command: "hark auth login --help",
    });
  }
  if (deviceCode !== undefined && deviceCode.trim() === "") {
    throw new ValidationError("Invalid --device-code: empty", { param: "--device-code" });
  }
  return { scopes, wait, waitMs, deviceCode: deviceCode?.trim(), force: flags.force === true };
}

const WAIT = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

/**
 * Reads `--wait`: `0`, or hours, minutes and seconds such as `30s`, `2m`, `1m30s`, `1h`.
 *
 * @param text the value as typed
 * @returns milliseconds
 * @throws {ValidationError} naming `--wait` for anything else
 */
export function parseWait(text: string): number {
  const match = WAIT.exec(text.trim());
  if (text.trim() === "0") return 0;
  if (!match || match.slice(1).every((part) => part === undefined)) {
    throw new ValidationError(
      `Invalid --wait "${text}": expected a duration such as 30s, 2m, 1m30s or 0`,
      { param: "--wait", command: "hark auth login --help" },
    );
  }
  const [h, m, sec] = match.slice(1).map((part) => Number(part ?? 0));
  return ((h * 60 + m) * 60 + sec) * 1000;
}

/**
 * How long a sign-in waits for approval after its first poll, in ms, or `undefined` for as long
 * as the code lives: `--wait` when given; without it, a person at a terminal waits as long as
 * it takes, while `--device-code` without a terminal (or in CI) polls once, so that a script
 * never blocks for the code's ten minutes.
 *
 * @param ctx the context
 * @param options the checked flags
 */
export function waitBound(ctx: Context, options: LoginOptions): number | undefined {
  if (options.waitMs !== undefined) return options.waitMs;
  return options.deviceCode !== undefined && !attended(ctx) ? 0 : undefined;
}

/**
 * Whether a person may be there to approve a sign-in while hark waits: stdin is a terminal and
 * `CI` is not set. Otherwise nothing waits for a person (`auth login` starts the sign-in for
 * later, `--device-code` polls once).
 *
 * @param ctx the context
 */
export function attended(ctx: Context): boolean {
  return ctx.stdin.isTerminal && !ctx.env.get("CI");
}
