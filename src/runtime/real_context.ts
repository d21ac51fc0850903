/**
 * The real {@link Context}: the one place, besides `main.ts`, that touches `Deno.*`, global
 * `fetch` and the system clock. Everything expensive (the HTTP client, the keychain backend and
 * its code) is created on first use, so `--help` and `--version` stay fast. Nothing here imports
 * a `node:` module: the first one starts Deno's Node compatibility layer, about 10 ms of every
 * start-up (measured: an empty script 16.9 ms, one importing `node:path` 27 ms); see
 * `src/path.ts`.
 *
 * @module
 */

import type {
  Context,
  Env,
  FileInfo,
  FileSystem,
  OsName,
  RunOptions,
  RunResult,
} from "../context.ts";
import { ValidationError } from "../errors/mod.ts";
import { keychainBackendName } from "../keychain/backend_name.ts";
import type { Keychain } from "../keychain/keychain.ts";
import { terminalSafe } from "../output/terminal_safe.ts";
import { parentFolder } from "../path.ts";

/** The operating system, as hark tells them apart. */
const SYSTEM_OS: OsName = Deno.build.os === "darwin"
  ? "darwin"
  : Deno.build.os === "windows"
  ? "windows"
  : "linux";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Options of {@link createRealContext}. */
export interface RealContextOptions {
  /** Aborted on Ctrl-C; `main.ts` owns the signal listener. */
  signal: AbortSignal;
}

/**
 * Builds the real context of this process.
 *
 * @param options the cancellation signal
 */
export function createRealContext(options: RealContextOptions): Context {
  const env: Env = {
    get: (name) => Deno.env.get(name),
    toObject: () => Deno.env.toObject(),
  };
  const os = SYSTEM_OS;
  let client: Deno.HttpClient | undefined;
  const sharedFetch: typeof fetch = (input, init) => {
    client ??= Deno.createHttpClient({ poolMaxIdlePerHost: 100, poolIdleTimeout: 90_000 });
    return fetch(input, { ...init, client });
  };
  const stderr = stream(Deno.stderr);
  const debugOn = ["1", "true"].includes(env.get("HARK_DEBUG") ?? "");
  const started = Date.now();
  let timeZone: string | undefined;
  let keychain: Keychain | undefined;
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
      if (debugOn) stderr.write(`[debug] ${terminalSafe(line, { breaks: "escape" })}\n`);
    },
    status: statusLine(stderr, () => Date.now() - started),
    get timeZone(): string {
      return timeZone ??= systemTimeZone();
    },
    reclaim: reclaimer(() => Date.now(), (globalThis as { gc?: () => void }).gc),
    run,
    fs: realFileSystem,
    os,
    homeDir: env.get(os === "windows" ? "USERPROFILE" : "HOME"),
    signal: options.signal,
    get keychain(): Keychain {
      return (keychain ??= lazyKeychain(context));
    },
    randomUUID: () => crypto.randomUUID(),
    randomBytes: (length) => crypto.getRandomValues(new Uint8Array(length)),
    pid: Deno.pid,
  };
  return context;
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

/** The least time between two full collections {@link reclaimer} starts, in ms. */
export const RECLAIM_INTERVAL_MS = 100;

/**
 * {@link Context.reclaim}: a full garbage collection, at most once per
 * {@link RECLAIM_INTERVAL_MS} (one takes a few milliseconds on hark's small heap, so streams
 * spend at most a few percent on it). V8 otherwise frees the garbage of finished requests only
 * under heap pressure, and that garbage holds native buffers the heap does not count: without
 * it, a 1,000-page listing grows the process by tens of megabytes. `gc` exists when V8 runs with
 * `--expose-gc`, which the compiled binary and the tasks pass (`scripts/permissions.ts`);
 * without it this does nothing.
 *
 * @param now the clock, in ms
 * @param gc V8's collector, when exposed
 */
export function reclaimer(now: () => number, gc: (() => void) | undefined): () => void {
  if (typeof gc !== "function") return () => {};
  let last = now();
  return () => {
    if (now() - last < RECLAIM_INTERVAL_MS) return;
    gc();
    last = now();
  };
}

/** How long a command runs before a status line appears, in ms. */
export const STATUS_DELAY_MS = 1_000;

/**
 * Runs `fn` once after `ms` milliseconds; returns what cancels it. The real one is a timer that
 * does not keep the process alive.
 */
export type Schedule = (fn: () => void, ms: number) => () => void;

const unrefTimer: Schedule = (fn, ms) => {
  const id = setTimeout(fn, ms);
  Deno.unrefTimer(id);
  return () => clearTimeout(id);
};

/**
 * The status line of {@link Context.status} on `stderr`: drawn in place with `\r` and erase,
 * cut to the terminal's width, shown only on a terminal and only once the command has run for
 * {@link STATUS_DELAY_MS} (a quick command never flickers one). A line sent earlier is kept and
 * drawn when that time comes, unless another replaced it (the latest is drawn) or it was cleared.
 *
 * @param stderr where the line goes
 * @param elapsed how long the command has run, in ms
 * @param schedule the timer that draws a line sent before the delay
 */
export function statusLine(
  stderr: Context["stderr"],
  elapsed: () => number,
  schedule: Schedule = unrefTimer,
): (line: string | undefined) => void {
  let shown = false;
  let pending: string | undefined;
  let cancel: (() => void) | undefined;
  const draw = (line: string) => {
    const width = Math.max(20, (stderr.columns ?? 80) - 1);
    stderr.write(`\r\x1b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
    shown = true;
  };
  return (line) => {
    if (!stderr.isTerminal) return;
    pending = line;
    if (line === undefined) {
      cancel?.();
      cancel = undefined;
      if (shown) stderr.write("\r\x1b[2K");
      shown = false;
      return;
    }
    const wait = STATUS_DELAY_MS - elapsed();
    if (wait <= 0) {
      cancel?.();
      cancel = undefined;
      draw(line);
      return;
    }
    cancel ??= schedule(() => {
      cancel = undefined;
      if (pending !== undefined) draw(pending);
    }, wait);
  };
}

/**
 * The keychain `HARK_KEYCHAIN` chooses, its backend's code imported on the first call (the
 * backends and their helpers are most of the keychain code, and `--help` never needs them).
 * Its `backend` name is known at once.
 */
function lazyKeychain(ctx: Context): Keychain {
  let loading: Promise<Keychain> | undefined;
  const load = () =>
    loading ??= import("../keychain/select_keychain.ts").then((m) => m.selectKeychain(ctx));
  return {
    get backend() {
      return keychainBackendName(ctx);
    },
    get: async (path) => (await load()).get(path),
    set: async (path, secret) => (await load()).set(path, secret),
    delete: async (path) => (await load()).delete(path),
    list: async () => (await load()).list(),
  };
}

/**
 * The IANA zone of this process (Deno reads `TZ`), or UTC when the system names none or one
 * that is not a zone. Read through Temporal, which hark's time code uses anyway:
 * `Intl.DateTimeFormat()` would load ICU's locale data, about 15 ms, for nothing else.
 */
export function systemTimeZone(): string {
  try {
    const zone = Temporal.Now.timeZoneId();
    Temporal.Now.zonedDateTimeISO(zone);
    return zone;
  } catch {
    return "UTC";
  }
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
      reject(signal!.reason);
    }
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

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

async function run(cmd: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
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

/** The file operations of {@link FileSystem} on the real disk. */
export const realFileSystem: FileSystem = {
  readTextFile: (path) => Deno.readTextFile(path),
  readFile: (path) => Deno.readFile(path),
  async writeFileAtomic(path, data, mode, options = {}) {
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    const { file, tmp } = await createTempFile(path, mode);
    try {
      try {
        await secureFolder(parentFolder(SYSTEM_OS, path), file, {
          privateFolder: options.privateFolder === true,
        });
        await ensureMode(file, tmp, mode);
        let offset = 0;
        while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
        await file.sync();
      } finally {
        file.close();
      }
      await Deno.rename(tmp, path);
    } catch (error) {
      await Deno.remove(tmp).catch(() => {});
      throw error;
    }
  },
  async mkdir(path, mode) {
    await Deno.mkdir(path, { recursive: true, mode });
  },
  rename: (from, to) => Deno.rename(from, to),
  async remove(path) {
    try {
      await Deno.remove(path);
      return true;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw error;
    }
  },
  async exists(path) {
    try {
      await Deno.lstat(path);
      return true;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw error;
    }
  },
  async readDir(path) {
    const names: string[] = [];
    try {
      for await (const entry of Deno.readDir(path)) names.push(entry.name);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
    return names.sort();
  },
  async createExclusive(path, data) {
    // The content is written to a temporary file first and linked into place, so the file
    // appears whole or not at all: a writer killed mid-way leaves no empty lock behind.
    const { file, tmp } = await createTempFile(path, 0o600);
    try {
      try {
        await secureFolder(parentFolder(SYSTEM_OS, path), file, {});
        const bytes = encoder.encode(data);
        let offset = 0;
        while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
      } finally {
        file.close();
      }
      await Deno.link(tmp, path);
    } finally {
      await Deno.remove(tmp).catch(() => {});
    }
  },
  async mtime(path) {
    try {
      return (await Deno.stat(path)).mtime?.getTime();
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
  },
  async stat(path): Promise<FileInfo | undefined> {
    try {
      const info = await Deno.stat(path);
      return { isFile: info.isFile, isDirectory: info.isDirectory, size: info.size };
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
  },
  async realPath(path) {
    const absent = (error: unknown) =>
      error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory;
    try {
      return await Deno.realPath(path);
    } catch (error) {
      if (!absent(error)) throw error;
      try {
        await Deno.lstat(path);
      } catch (missing) {
        if (absent(missing)) return undefined;
        throw missing;
      }
      throw error; // a link whose target is missing
    }
  },
  async openRead(path) {
    const file = await Deno.open(path, { read: true });
    try {
      const info = await file.stat();
      if (info.isDirectory) throw new Deno.errors.IsADirectory(`"${path}" is a folder`);
      return { size: info.size, stream: file.readable };
    } catch (error) {
      file.close();
      throw error;
    }
  },
  async writeStreamAtomic(path, data, mode, options = {}) {
    let tmp: string | undefined;
    let written: number;
    try {
      const created = await createTempFile(path, mode);
      tmp = created.tmp;
      const { file } = created;
      try {
        await secureFolder(parentFolder(SYSTEM_OS, path), file, { allowSticky: true });
        await ensureMode(file, tmp, mode);
        // Piped, Deno moves the bytes of its own streams (an HTTP body) without JavaScript. The
        // pipe closes the file at the end, which flushes what its writable buffers (kept open,
        // a small file would stay empty).
        await data.pipeTo(file.writable, { preventAbort: true });
      } catch (error) {
        try {
          file.close();
        } catch {
          // Already closed by the pipe.
        }
        throw error;
      }
      const again = await Deno.open(tmp, { write: true });
      try {
        await again.sync();
        written = (await again.stat()).size;
      } finally {
        again.close();
      }
      options.check?.(written);
      if (options.overwrite) await Deno.rename(tmp, path);
      else await Deno.link(tmp, path);
    } catch (error) {
      // Whatever failed, the source is released (a download's connection, say).
      await data.cancel(error).catch(() => {});
      if (tmp !== undefined) await Deno.remove(tmp).catch(() => {});
      throw error;
    }
    if (!options.overwrite) await Deno.remove(tmp).catch(() => {});
    return written;
  },
};

/** How many random temporary names {@link createTempFile} tries before giving up. */
const TEMP_ATTEMPTS = 8;

/**
 * Creates `<path>.<16 hex digits>.tmp` exclusively: `createNew` fails on anything already at
 * that name, a link (dangling or not) included, so a planted link is never followed.
 */
async function createTempFile(
  path: string,
  mode: number,
): Promise<{ file: Deno.FsFile; tmp: string }> {
  for (let attempt = 1;; attempt++) {
    const suffix = [...crypto.getRandomValues(new Uint8Array(8))]
      .map((b) => b.toString(16).padStart(2, "0"))
      .join("");
    const tmp = `${path}.${suffix}.tmp`;
    try {
      return { file: await Deno.open(tmp, { write: true, createNew: true, mode }), tmp };
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists) || attempt >= TEMP_ATTEMPTS) throw error;
    }
  }
}

/**
 * Checks the folder a file was just created in (`created`, still open), as
 * {@link FileSystem.writeFileAtomic} documents: refuses a folder every user may write to, or one
 * other users may write to that belongs to someone else; tightens a private folder of the user's
 * to 0700. The user is the owner of `created`, which needs no extra permission to learn.
 *
 * @throws {ValidationError} naming the folder and the fix when it is not safe
 */
async function secureFolder(
  folder: string,
  created: Deno.FsFile,
  options: { privateFolder?: boolean; allowSticky?: boolean },
): Promise<void> {
  const info = await Deno.stat(folder);
  const user = (await created.stat()).uid;
  if (info.mode === null || info.uid === null || user === null) return; // Windows
  const ours = info.uid === user;
  if (ours && options.privateFolder) {
    if ((info.mode & 0o077) !== 0) await Deno.chmod(folder, 0o700);
    return;
  }
  // In a sticky folder (like /tmp) no one can rename or remove another user's file.
  if (options.allowSticky && (info.mode & 0o1000) !== 0) return;
  const everyone = (info.mode & 0o002) !== 0;
  const group = (info.mode & 0o020) !== 0;
  if (!everyone && !(group && !ours)) return;
  const who = ours ? "every user can write to it" : "other users can write to it and it " +
    `belongs to someone else (uid ${info.uid})`;
  throw new ValidationError(`Cannot write in the folder "${folder}": ${who}`, {
    param: folder,
    suggestion: ours
      ? `Make it private with: chmod 700 "${folder}", or use a folder only you can write to`
      : "Use a folder of your own that only you can write to (set HARK_CONFIG or " +
        `HARK_DATA_DIR), or have its owner run: chmod go-w "${folder}"`,
  });
}

/**
 * Gives the new file exactly `mode` when the umask took bits away. The path is changed only
 * while it still names the open file, so a link swapped in meanwhile is not followed.
 */
async function ensureMode(file: Deno.FsFile, path: string, mode: number): Promise<void> {
  const opened = await file.stat();
  if (opened.mode === null || (opened.mode & 0o777) === mode) return;
  const named = await Deno.lstat(path);
  if (!named.isFile || named.ino !== opened.ino || named.dev !== opened.dev) {
    throw new Deno.errors.PermissionDenied(`"${path}" was replaced while being written`);
  }
  await Deno.chmod(path, mode);
}
