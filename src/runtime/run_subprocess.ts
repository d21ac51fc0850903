/**
 * `Context.run` of the real context: runs a program with its input on stdin, its output
 * captured, a timeout, and none of hark's secrets in its environment.
 *
 * @module
 */

import type { RunOptions, RunResult } from "../context.ts";
import { SYSTEM_OS } from "./system_os.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The variables holding hark's secrets: the file keychain's password, the app secret and the
 * tokens given in the environment. Programs hark starts (`credential_command`, `secret-tool`,
 * `kill -0`) have no use for them, so they never see them.
 */
export const SECRET_ENV_VARS: readonly string[] = [
  "HARK_KEYCHAIN_PASSWORD",
  "HARK_APP_SECRET",
  "HARK_USER_ACCESS_TOKEN",
  "HARK_TENANT_ACCESS_TOKEN",
];

/**
 * The environment of a child: the one given, else this process's, without
 * {@link SECRET_ENV_VARS} (everything else stays: PATH, HOME, the D-Bus address, CA settings…).
 *
 * @param env the child's environment, when the caller chose one
 */
export function childEnv(
  env: Record<string, string> = Deno.env.toObject(),
): Record<string, string> {
  const secrets = new Set(SECRET_ENV_VARS);
  const windows = SYSTEM_OS === "windows";
  return Object.fromEntries(
    Object.entries(env).filter(([name]) => !secrets.has(windows ? name.toUpperCase() : name)),
  );
}

/**
 * Runs a program to its end (`Context.run`): `stdin` written and closed (else none),
 * stdout and stderr captured as text, the child killed after `timeoutMs` (default 10 s), its
 * environment {@link childEnv}.
 *
 * @param cmd the program
 * @param args its arguments
 * @param options its input, timeout and environment
 * @throws {Deno.errors.TimedOut} when it did not finish in time
 * @throws {Deno.errors.NotFound} when there is no such program
 */
export async function runSubprocess(
  cmd: string,
  args: string[],
  options: RunOptions = {},
): Promise<RunResult> {
  const child = new Deno.Command(cmd, {
    args,
    env: childEnv(options.env),
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timeoutMs = options.timeoutMs ?? 10_000;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }, timeoutMs);
  try {
    if (options.stdin !== undefined) {
      const writer = child.stdin.getWriter();
      const data = typeof options.stdin === "string"
        ? encoder.encode(options.stdin)
        : options.stdin;
      try {
        await writer.write(data);
        await writer.close();
      } catch {
        // The child may exit without reading its input; its exit code tells the story.
      }
    }
    const output = await child.output();
    if (timedOut) {
      throw new Deno.errors.TimedOut(`"${cmd}" did not finish within ${timeoutMs} ms`);
    }
    return {
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
    };
  } finally {
    clearTimeout(timer);
  }
}
