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

/** What a stream of a child may print by default: 1 MiB. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

/**
 * How long the pipes of a child that has exited may stay open (held by a process it left in the
 * background) before hark stops reading them: what the child itself wrote is already there.
 */
const EXITED_GRACE_MS = 500;

/**
 * Runs a program to its end (`Context.run`): `stdin` written and closed (else none), stdout and
 * stderr captured as text, its environment {@link childEnv}. On POSIX the child leads a process
 * group of its own, so that everything it started can be stopped with it.
 *
 * - After `timeoutMs` (default 10 s), or when `signal` aborts, the whole group is killed and
 *   reading stops at once, even when a process the child left in the background still holds
 *   its pipes.
 * - A stream longer than `maxOutputBytes` (default {@link DEFAULT_MAX_OUTPUT_BYTES}) kills the
 *   group too: nothing unbounded is kept in memory.
 * - Once the child has exited, its pipes are read for at most half a second more; a process
 *   it left behind that still holds them is killed then (a daemon that detaches properly,
 *   closing them and leaving the group, is not touched).
 *
 * @param cmd the program
 * @param args its arguments
 * @param options its input, timeout, output limit, cancellation and environment
 * @throws {Deno.errors.TimedOut} when it did not finish in time
 * @throws {RangeError} when it printed more than the limit
 * @throws {Deno.errors.NotFound} when there is no such program
 * @throws the signal's reason when cancelled
 */
export async function runSubprocess(
  cmd: string,
  args: string[],
  options: RunOptions = {},
): Promise<RunResult> {
  const posix = SYSTEM_OS !== "windows";
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  options.signal?.throwIfAborted();
  const child = new Deno.Command(cmd, {
    args,
    env: childEnv(options.env),
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    // Its own process group (setsid), so a timeout stops what it left in the background too.
    detached: posix,
  }).spawn();
  let failure: unknown;
  const readers = [child.stdout.getReader(), child.stderr.getReader()];
  const stopReading = () => {
    for (const reader of readers) reader.cancel().catch(() => {});
  };
  const stop = (reason: unknown) => {
    failure ??= reason;
    killGroup(child, posix);
    stopReading();
  };
  const timer = setTimeout(
    () => stop(new Deno.errors.TimedOut(`"${cmd}" did not finish within ${timeoutMs} ms`)),
    timeoutMs,
  );
  const onAbort = () => stop(options.signal?.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const tooLarge = (stream: string) =>
    stop(new RangeError(`"${cmd}" printed more than ${maxBytes} bytes on ${stream}`));
  const outputs = [
    readCapped(readers[0], maxBytes, () => tooLarge("stdout")),
    readCapped(readers[1], maxBytes, () => tooLarge("stderr")),
  ];
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
    const status = await child.status;
    const read = Promise.all(outputs);
    let grace: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => (grace = setTimeout(resolve, EXITED_GRACE_MS)));
    const closed = await Promise.race([read.then(() => true), late.then(() => false)]);
    clearTimeout(grace);
    // A process it left behind still holds the pipes: it belongs to this call, and goes too.
    if (!closed) killGroup(child, posix);
    stopReading();
    const [stdout, stderr] = await read;
    if (failure !== undefined) throw failure;
    return { code: status.code, stdout, stderr };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * Reads a stream as text until its end, a cancellation, or more than `maxBytes` (then
 * `onOverflow` is called and what was read so far is kept).
 */
async function readCapped(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes: number,
  onOverflow: () => void,
): Promise<string> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (length + value.length > maxBytes) {
        onOverflow();
        break;
      }
      chunks.push(value);
      length += value.length;
    }
  } catch {
    // Cancelled, or the pipe broke: what was read stays.
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return decoder.decode(bytes);
}

/** Kills the child's process group (POSIX), else the child alone. */
function killGroup(child: Deno.ChildProcess, posix: boolean): void {
  try {
    if (posix) Deno.kill(-child.pid, "SIGKILL");
    else child.kill("SIGKILL");
  } catch {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }
}
