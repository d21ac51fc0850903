/**
 * A {@link Context} for unit tests: a fake clock whose `sleep` advances time at once and records
 * every wait, captured output streams, a given environment and stdin, an in-memory keychain,
 * and strict stubs for `fetch` and subprocesses (an unexpected call fails the test).
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import type { Context, DebugLine, OsName, RunOptions, RunResult } from "../../src/context.ts";
import { MemoryKeychain } from "../../src/keychain/memory_keychain.ts";
import { realFileSystem } from "../../src/runtime/real_file_system.ts";

/** A captured output stream. */
export interface CapturedStream {
  readonly isTerminal: boolean;
  readonly columns?: number;
  write(text: string): void;
  /** Everything written so far. */
  text(): string;
}

/** A recorded subprocess call. */
export interface RecordedRun {
  cmd: string;
  args: string[];
  options: RunOptions;
}

/** Options of {@link createTestContext}. */
export interface TestContextOptions {
  /** Start of the fake clock, epoch ms; default 2026-11-21T09:00:00Z. */
  now?: number;
  /** Environment variables; default none. */
  env?: Record<string, string>;
  /** Text on stdin; default empty. */
  stdin?: string;
  /** Whether stdin is a terminal; default false. */
  stdinIsTerminal?: boolean;
  /** Whether stdout is a terminal; default false. */
  stdoutIsTerminal?: boolean;
  /** Whether stderr is a terminal; default false. */
  stderrIsTerminal?: boolean;
  /** Terminal width; default 80 when stdout is a terminal. */
  columns?: number;
  /** The fetch implementation; default one that fails on any call. */
  fetch?: typeof fetch;
  /** The subprocess runner; default one that fails on any call. Calls are recorded either way. */
  run?: (cmd: string, args: string[], options: RunOptions) => Promise<RunResult>;
  /** The keychain; default an empty {@link MemoryKeychain}. */
  keychain?: MemoryKeychain;
  /** The operating system; default "linux". */
  os?: OsName;
  /** The home folder; default undefined. */
  homeDir?: string;
  /** Whether `debug` lines are written to stderr (as `[debug] …`); default false. */
  debug?: boolean;
  /**
   * How `timeout` signals are made; default on the fake clock. Tests against a real server pass
   * `AbortSignal.timeout`.
   */
  timeout?: (ms: number) => AbortSignal;
  /** The user's time zone; default `UTC`. */
  timeZone?: string;
  /** The API catalogue's folder; default the generated one of this checkout. */
  catalogueDir?: string;
}

/** The API catalogue the test task generates, `gen/catalogue/` of this checkout. */
export const GENERATED_CATALOGUE_DIR: string = fileURLToPath(
  new URL("../../gen/catalogue", import.meta.url),
);

/** A test context with its recordings. */
export interface TestContext extends Context {
  stdout: CapturedStream;
  stderr: CapturedStream;
  keychain: MemoryKeychain;
  /** Every `sleep` call's duration, in order. */
  sleeps: number[];
  /** Every subprocess call, in order. */
  runs: RecordedRun[];
  /** Every status line shown (`undefined` for a clear), in order. */
  statuses: (string | undefined)[];
  /** How often `reclaim` was called. */
  reclaims: { count: number };
  /** Moves the fake clock forward, firing the timeouts that fall due. */
  advance(ms: number): void;
  /** Aborts `signal`, as Ctrl-C would. */
  abort(): void;
}

/**
 * Builds a test context.
 *
 * @param options what to fake; everything has a default
 * @example
 * ```ts
 * const ctx = createTestContext({ env: { HARK_PROFILE: "work" } });
 * await ctx.sleep(5000); // returns at once
 * assertEquals(ctx.sleeps, [5000]);
 * ```
 */
export function createTestContext(options: TestContextOptions = {}): TestContext {
  let clock = options.now ?? Date.UTC(2026, 10, 21, 9, 0, 0);
  const sleeps: number[] = [];
  const statuses: (string | undefined)[] = [];
  const reclaims = { count: 0 };
  const runs: RecordedRun[] = [];
  const controller = new AbortController();
  const env = { ...(options.env ?? {}) };
  const stdin = new TextEncoder().encode(options.stdin ?? "");
  const runner = options.run ??
    ((cmd: string, args: string[]) => {
      throw new Error(`Unexpected subprocess: ${cmd} ${args.join(" ")}`);
    });
  let uuid = 0;
  const timers: { due: number; controller: AbortController }[] = [];
  const tick = (ms: number) => {
    clock += ms;
    for (const timer of timers.filter((t) => t.due <= clock)) {
      timers.splice(timers.indexOf(timer), 1);
      timer.controller.abort(new DOMException("Signal timed out.", "TimeoutError"));
    }
  };
  const stdout = captured(options.stdoutIsTerminal ?? false, options.columns);
  const stderr = captured(options.stderrIsTerminal ?? false, options.columns);
  return {
    now: () => clock,
    sleep(ms: number, signal?: AbortSignal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      sleeps.push(ms);
      tick(ms);
      return Promise.resolve();
    },
    timeout(ms: number) {
      if (options.timeout) return options.timeout(ms);
      const controller = new AbortController();
      timers.push({ due: clock + ms, controller });
      return controller.signal;
    },
    fetch: options.fetch ??
      ((input) => {
        throw new Error(`Unexpected fetch: ${input instanceof Request ? input.url : input}`);
      }),
    env: { get: (name) => env[name], toObject: () => ({ ...env }) },
    stdin: {
      isTerminal: options.stdinIsTerminal ?? false,
      readAll: () => Promise.resolve(stdin),
      stream: () => new Blob([stdin]).stream(),
    },
    stdout,
    stderr,
    debug(line: DebugLine) {
      if (options.debug) stderr.write(`[debug] ${typeof line === "string" ? line : line()}\n`);
    },
    status(line: string | undefined) {
      statuses.push(line);
    },
    timeZone: options.timeZone ?? "UTC",
    reclaim() {
      reclaims.count++;
    },
    run(cmd, args, runOptions = {}) {
      runs.push({ cmd, args, options: runOptions });
      return runner(cmd, args, runOptions);
    },
    fs: realFileSystem,
    os: options.os ?? "linux",
    homeDir: options.homeDir,
    signal: controller.signal,
    keychain: options.keychain ?? new MemoryKeychain(),
    randomUUID: () => `00000000-0000-4000-8000-${String(++uuid).padStart(12, "0")}`,
    randomBytes: (length) => new Uint8Array(length).map((_, i) => (i * 37 + 11) & 0xff),
    pid: 4242,
    catalogueDir: options.catalogueDir ?? GENERATED_CATALOGUE_DIR,
    sleeps,
    runs,
    statuses,
    reclaims,
    advance(ms: number) {
      tick(ms);
    },
    abort() {
      controller.abort(new DOMException("Cancelled", "AbortError"));
    },
  };
}

function captured(isTerminal: boolean, columns?: number): CapturedStream {
  let text = "";
  return {
    isTerminal,
    columns: isTerminal ? (columns ?? 80) : columns,
    write(chunk: string) {
      text += chunk;
    },
    text: () => text,
  };
}

/** One expected HTTP exchange of a {@link FetchStub}. */
export interface ExpectedRequest {
  /** HTTP method. */
  method: string;
  /** The URL, or a predicate on it. */
  url: string | RegExp;
  /** Builds the answer; may inspect the request. */
  respond: (request: Request) => Response | Promise<Response>;
}

/**
 * A strict fetch stub: requests must arrive in the given order and match; an unexpected request
 * throws, and {@link FetchStub.verify} fails when an expected one never came.
 */
export class FetchStub {
  /** Every request received, in order. */
  readonly requests: Request[] = [];
  readonly #expected: ExpectedRequest[];

  /** @param expected the exchanges, in order */
  constructor(expected: ExpectedRequest[]) {
    this.#expected = [...expected];
  }

  /** The `fetch` function to put in the context. */
  readonly fetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    this.requests.push(request.clone());
    const next = this.#expected.shift();
    if (!next) throw new Error(`Unexpected fetch: ${request.method} ${request.url}`);
    const urlMatches = typeof next.url === "string"
      ? request.url === next.url
      : next.url.test(request.url);
    if (next.method !== request.method || !urlMatches) {
      throw new Error(
        `Unexpected fetch: ${request.method} ${request.url}, expected ${next.method} ${next.url}`,
      );
    }
    return await next.respond(request);
  };

  /** Throws when some expected request never arrived. */
  verify(): void {
    if (this.#expected.length > 0) {
      const left = this.#expected.map((e) => `${e.method} ${e.url}`).join(", ");
      throw new Error(`Expected requests never made: ${left}`);
    }
  }
}

/**
 * A JSON response.
 *
 * @param body the JSON body
 * @param status the HTTP status; default 200
 * @param headers extra headers
 */
export function jsonResponse(
  body: unknown,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/**
 * Runs `body` on a test context whose `fetch` is a strict {@link FetchStub}: a request that is
 * not the next expected one fails the test, and so does an expected one that never came (checked
 * after `body` returns).
 *
 * @param expected the exchanges, in order
 * @param body the test, given the context and the stub (its `requests` are the ones received)
 * @param options the rest of the context, as for {@link createTestContext}
 * @example
 * ```ts
 * await withFetchStub([{ method: "GET", url: URL, respond: () => jsonResponse({}) }], (ctx) =>
 *   fetchSomething(ctx));
 * ```
 */
export async function withFetchStub<T>(
  expected: ExpectedRequest[],
  body: (ctx: TestContext, stub: FetchStub) => Promise<T>,
  options: Omit<TestContextOptions, "fetch"> = {},
): Promise<T> {
  const stub = new FetchStub(expected);
  const result = await body(createTestContext({ ...options, fetch: stub.fetch }), stub);
  stub.verify();
  return result;
}
