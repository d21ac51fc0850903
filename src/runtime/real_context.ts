/**
 * The real {@link Context}: the one place, besides `main.ts`, that touches `Deno.*`, global
 * `fetch` and the system clock. Everything expensive (the HTTP client, the keychain backend) is
 * created on first use, so `--help` and `--version` stay fast.
 *
 * @module
 */

import type { Context, Env, FileSystem, OsName, RunOptions, RunResult } from "../context.ts";
import type { Keychain } from "../keychain/keychain.ts";
import { selectKeychain } from "../keychain/select_keychain.ts";

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
  const os: OsName = Deno.build.os === "darwin"
    ? "darwin"
    : Deno.build.os === "windows"
    ? "windows"
    : "linux";
  let client: Deno.HttpClient | undefined;
  const sharedFetch: typeof fetch = (input, init) => {
    client ??= Deno.createHttpClient({ poolMaxIdlePerHost: 100, poolIdleTimeout: 90_000 });
    return fetch(input, { ...init, client });
  };
  let keychain: Keychain | undefined;
  const stderr = stream(Deno.stderr);
  const debugOn = ["1", "true"].includes(env.get("HARK_DEBUG") ?? "");
  const context: Context = {
    now: () => Date.now(),
    sleep,
    timeout: (ms) => AbortSignal.timeout(ms),
    fetch: sharedFetch,
    env,
    stdin: {
      isTerminal: Deno.stdin.isTerminal(),
      readAll: () => new Response(Deno.stdin.readable).bytes(),
    },
    stdout: stream(Deno.stdout),
    stderr,
    debug: (line) => {
      if (debugOn) stderr.write(`[debug] ${line}\n`);
    },
    run,
    fs: realFileSystem,
    os,
    homeDir: env.get(os === "windows" ? "USERPROFILE" : "HOME"),
    signal: options.signal,
    get keychain(): Keychain {
      return (keychain ??= selectKeychain(context));
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

async function run(cmd: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const child = new Deno.Command(cmd, {
    args,
    env: options.env,
    clearEnv: options.env !== undefined,
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
  async writeFileAtomic(path, data, mode) {
    const tmp = `${path}.tmp`;
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    const file = await Deno.open(tmp, { write: true, create: true, truncate: true, mode });
    try {
      if (Deno.build.os !== "windows") await Deno.chmod(tmp, mode);
      let offset = 0;
      while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
      await file.sync();
    } finally {
      file.close();
    }
    await Deno.rename(tmp, path);
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
    const file = await Deno.open(path, { write: true, createNew: true, mode: 0o600 });
    try {
      await file.write(encoder.encode(data));
    } finally {
      file.close();
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
};
