/**
 * The real {@link Context}: with the other files of `src/runtime/` (its file system, subprocess
 * runner, status line and collector), the one place besides `main.ts` that touches `Deno.*`,
 * global `fetch` and the system clock. Everything expensive (the HTTP client, the keychain
 * backend and its code, the subprocess runner, the pager, the WebSocket) is created or imported
 * on first use, so `--help` and `--version` stay fast. Nothing in `src/runtime/` imports a
 * `node:` module: the first one starts Deno's Node compatibility layer, about 10 ms of every
 * start-up (measured: an empty script 16.9 ms, one importing `node:path` 27 ms); see
 * `src/path.ts`.
 *
 * @module
 */

import type { Context, Env, KeychainSettings } from "../context.ts";
import { ValidationError } from "../errors/hark_error.ts";
import { keychainBackendName } from "../keychain/backend_name.ts";
import type { Keychain } from "../keychain/keychain.ts";
import { selectKeychain } from "../keychain/select_keychain.ts";
import { terminalSafe } from "../output/terminal_safe.ts";
import { realFileSystem } from "./real_file_system.ts";
import { reclaimer } from "./reclaimer.ts";
import { statusLine } from "./status_line.ts";
import { SYSTEM_OS } from "./system_os.ts";
import { connectUnix } from "./unix_socket.ts";

const encoder = new TextEncoder();

/** Options of {@link createRealContext}. */
export interface RealContextOptions {
  /** Aborted on Ctrl-C; `main.ts` owns the signal listener. */
  signal: AbortSignal;
  /** The folder of the generated API catalogue; default none (API commands then fail). */
  catalogueDir?: string;
  /** Sets `main.ts`'s signal listeners aside while synchronous work runs (see Context). */
  blocking?<T>(work: () => T): T;
}

/**
 * Builds the real context of this process.
 *
 * @param options the cancellation signal
 */
export function createRealContext(options: RealContextOptions): Context {
  const env: Env = { get: readVariable, toObject: () => Deno.env.toObject() };
  const os = SYSTEM_OS;
  let client: Deno.HttpClient | undefined;
  const sharedFetch: typeof fetch = (input, init) => {
    client ??= Deno.createHttpClient({ poolMaxIdlePerHost: 100, poolIdleTimeout: 90_000 });
    return fetch(input, { ...init, client });
  };
  const stderr = stream(Deno.stderr);
  let debugOn = false;
  try {
    debugOn = ["1", "true"].includes(env.get("HARK_DEBUG") ?? "");
  } catch {
    // A HARK_DEBUG that is not text asks for nothing; the command reports it if it reads it.
  }
  const started = Date.now();
  let timeZone: string | undefined;
  let keychain: Keychain | undefined;
  const keychainSettings: KeychainSettings = {};
  const context: Context = {
    now: () => Date.now(),
    sleep,
    timeout: (ms) => AbortSignal.timeout(ms),
    fetch: sharedFetch,
    env,
    stdin: {
      isTerminal: Deno.stdin.isTerminal(),
      readAll: () => new Response(Deno.stdin.readable).bytes(),
      stream: () => Deno.stdin.readable,
    },
    stdout: stream(Deno.stdout),
    stderr,
    debug: (line) => {
      // Debug lines quote the network (service messages, names): every caller is covered here.
      if (!debugOn) return;
      const text = typeof line === "string" ? line : line();
      stderr.write(`[debug] ${terminalSafe(text, { breaks: "escape" })}\n`);
    },
    status: statusLine(stderr, () => Date.now() - started),
    get timeZone(): string {
      return timeZone ??= systemTimeZone();
    },
    reclaim: reclaimer(() => Date.now(), exposedGc()),
    // Ctrl-C stops a child (and what it started) as it stops everything else.
    run: async (cmd, args, runOptions) =>
      (await import("./run_subprocess.ts")).runSubprocess(cmd, args, {
        signal: options.signal,
        ...runOptions,
      }),
    page: async (command, text) => (await import("./run_pager.ts")).runPager(command, text, os),
    fs: realFileSystem,
    os,
    homeDir: env.get(os === "windows" ? "USERPROFILE" : "HOME"),
    signal: options.signal,
    blocking: options.blocking,
    get keychain(): Keychain {
      return (keychain ??= lazyKeychain(context, keychainSettings));
    },
    configureKeychain(settings) {
      Object.assign(keychainSettings, settings);
    },
    randomUUID: () => crypto.randomUUID(),
    randomBytes: (length) => crypto.getRandomValues(new Uint8Array(length)),
    openWebSocket: async (url, signal) =>
      (await import("./web_socket.ts")).openWebSocket(url, signal),
    connectUnix,
    pid: Deno.pid,
    catalogueDir: options.catalogueDir ?? "",
  };
  return context;
}

/**
 * `Env.get` of the real environment. A variable whose value is not valid UTF-8 is an error that
 * names the variable and never quotes the value (Deno's own message does, and it may be a
 * token).
 *
 * @throws {ValidationError} naming the variable
 */
function readVariable(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch (error) {
    if (!(error instanceof Deno.errors.InvalidData)) throw error;
    throw new ValidationError(`The environment variable ${name} is not valid UTF-8 text`, {
      param: name,
      suggestion: `Set ${name} to UTF-8 text (a token is plain ASCII), or unset it`,
    });
  }
}

function stream(file: typeof Deno.stdout): Context["stdout"] {
  const isTerminal = file.isTerminal();
  let columns: number | undefined;
  if (isTerminal) {
    try {
      columns = Deno.consoleSize().columns;
    } catch {
      columns = undefined;
    }
  }
  return {
    isTerminal,
    columns,
    write(text: string) {
      const bytes = encoder.encode(text);
      let offset = 0;
      try {
        while (offset < bytes.length) offset += file.writeSync(bytes.subarray(offset));
      } catch (error) {
        // A closed pipe (`hark ... | head`) is not an error worth reporting.
        if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
      }
    },
  };
}

/**
 * The keychain `HARK_KEYCHAIN` chooses, its backend's code imported on the first call (the
 * backends and their helpers are most of the keychain code, and `--help` never needs them).
 * Its `backend` name is known at once. `settings` may change until the first call.
 */
function lazyKeychain(ctx: Context, settings: KeychainSettings): Keychain {
  let loading: Promise<Keychain> | undefined;
  let loadedFor: string | undefined;
  const load = () => {
    // A preference settled after a first call (config init switching to the file keychain)
    // chooses the backend again.
    if (loading !== undefined && loadedFor !== settings.preference) loading = undefined;
    loadedFor = settings.preference;
    return loading ??= selectKeychain(ctx, settings);
  };
  return {
    get backend() {
      return keychainBackendName(ctx, settings.preference);
    },
    get: async (path) => (await load()).get(path),
    set: async (path, secret) => (await load()).set(path, secret),
    delete: async (path) => (await load()).delete(path),
    list: async () => (await load()).list(),
    prepare: (paths) => {
      load().then((keychain) => keychain.prepare?.(paths), () => {});
    },
  };
}

/**
 * The IANA zone of this process (on Linux and macOS Deno reads `TZ`, then `/etc/localtime`; on
 * Windows it ignores `TZ`), or UTC when the system names none or one that is not a zone. UTC,
 * the zone of most servers, containers and CI jobs, is known without Temporal outside Windows:
 * `TZ` set to `UTC` or `Etc/UTC` (after a `:` or not), or unset with `/etc/localtime` linking to
 * `zoneinfo/UTC` or `zoneinfo/Etc/UTC`; `format_time.ts` then writes times without it too (its
 * first use costs about 3.7 M instructions). Any other zone is read through Temporal:
 * `Intl.DateTimeFormat()` would load ICU's locale data, about 15 ms, for nothing else.
 *
 * @param tz the value of `TZ`; `undefined` when it is not set
 * @param localTime reads where `/etc/localtime` links; `undefined` when it is no link
 * @param os the operating system
 */
export function systemTimeZone(
  tz: string | undefined = variable("TZ"),
  localTime: () => string | undefined = linkedLocalTime,
  os: string = SYSTEM_OS,
): string {
  const utc = tz === undefined ? UTC_LINK.test(localTime() ?? "") : UTC_TZ.test(tz);
  if (utc && os !== "windows") return "UTC";
  try {
    const zone = Temporal.Now.timeZoneId();
    Temporal.Now.zonedDateTimeISO(zone);
    return zone;
  } catch {
    return "UTC";
  }
}

/** The `TZ` values that name UTC as Temporal reads them (checked in Deno 2.9). */
const UTC_TZ = /^:?(Etc\/)?UTC$/;
/** Where an `/etc/localtime` of UTC links. */
const UTC_LINK = /\/zoneinfo\/(Etc\/)?UTC$/;

/** A variable of the real environment; `""` when its value is not UTF-8 (it names no zone). */
function variable(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return "";
  }
}

function linkedLocalTime(): string | undefined {
  try {
    return Deno.readLinkSync("/etc/localtime");
  } catch {
    return undefined;
  }
}

/** V8's `gc()`, on `globalThis` when the task runs with `--expose-gc`; else `undefined`. */
function exposedGc(): (() => void) | undefined {
  const gc: unknown = Reflect.get(globalThis, "gc");
  return typeof gc === "function" ? () => void gc() : undefined;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    function onAbort() {
      clearTimeout(timer);
      // Only ever registered on a signal.
      reject(signal?.reason);
    }
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
