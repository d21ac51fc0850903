/**
 * The one object through which hark reaches the outside world: clock, sleep, HTTP, environment,
 * standard streams, subprocesses, files and the keychain. `main.ts` builds the real one
 * ({@link createRealContext} in `src/runtime/real_context.ts`); tests build fakes with
 * `createTestContext` from `tests/support/test_context.ts`. No other module calls `Deno.*`,
 * global `fetch` or `Date.now` directly.
 *
 * @module
 */

/** Read-only view of the process environment. */
export interface Env {
  /** The value of `name`, or `undefined` when unset. */
  get(name: string): string | undefined;
  /** Every variable, for passing on to subprocesses. */
  toObject(): Record<string, string>;
}

/** A writable standard stream. */
export interface OutputStream {
  /** Whether the stream is a terminal (decides colours, spinners, pretty JSON). */
  readonly isTerminal: boolean;
  /** The terminal width in columns, when known. */
  readonly columns?: number;
  /** Writes text as is (no newline added). */
  write(text: string): void;
}

/** The standard input stream. */
export interface InputStream {
  /** Whether stdin is a terminal; prompts only ever happen when it is. */
  readonly isTerminal: boolean;
  /** Reads all of stdin as bytes. */
  readAll(): Promise<Uint8Array>;
  /** Stdin as a stream of bytes, as it arrives (`hark mcp` reads the protocol from it). */
  stream(): ReadableStream<Uint8Array>;
}

/** Options of {@link Context.run}. */
export interface RunOptions {
  /** Bytes or text written to the child's stdin, which is then closed. */
  stdin?: string | Uint8Array;
  /**
   * Milliseconds before the child (and whatever it started) is killed and the call rejects;
   * default 10 000.
   */
  timeoutMs?: number;
  /** Environment for the child; default the current one. */
  env?: Record<string, string>;
  /**
   * The most bytes the child may print on stdout, and on stderr; past it the child is killed
   * and the call rejects. Default 1 MiB.
   */
  maxOutputBytes?: number;
  /** Kills the child and rejects when aborted. */
  signal?: AbortSignal;
}

/** The result of a finished subprocess. */
export interface RunResult {
  /** Exit code. */
  code: number;
  /** Captured stdout, decoded as UTF-8. */
  stdout: string;
  /** Captured stderr, decoded as UTF-8. */
  stderr: string;
}

/** The subset of file operations hark needs. Paths are absolute. */
export interface FileSystem {
  /** Reads a text file; rejects with `Deno.errors.NotFound` when absent. */
  readTextFile(path: string): Promise<string>;
  /** Reads a file as bytes. */
  readFile(path: string): Promise<Uint8Array>;
  /**
   * Writes `data` to `path` atomically: a new temporary file `<path>.<random>.tmp` in the same
   * folder, created exclusively with `mode` (a file or link already at that name is never
   * followed or reused), written, flushed to disk, then renamed over `path`. A reader sees the
   * old or the new content, never a partial one; on failure the temporary file is removed.
   *
   * The folder must exist (else `Deno.errors.NotFound`) and be safe: the write is refused with a
   * `ValidationError` naming the folder and the fix when every user may write to it, or when
   * other users may write to it and it belongs to someone else. With `privateFolder` the folder
   * is hark's own: when it belongs to the user and its mode lets others in, it is tightened to
   * 0700 instead. (POSIX only; Windows has no such modes.)
   */
  writeFileAtomic(
    path: string,
    data: string | Uint8Array,
    mode: number,
    options?: { privateFolder?: boolean },
  ): Promise<void>;
  /** Creates a folder and its parents with `mode`. */
  mkdir(path: string, mode: number): Promise<void>;
  /** Renames a file, replacing the target; rejects with `Deno.errors.NotFound` when absent. */
  rename(from: string, to: string): Promise<void>;
  /** Removes a file; resolves `false` when it did not exist. */
  remove(path: string): Promise<boolean>;
  /** Whether the path exists. */
  exists(path: string): Promise<boolean>;
  /** Lists the names in a folder; empty when the folder does not exist. */
  readDir(path: string): Promise<string[]>;
  /**
   * Takes an exclusive advisory lock (`flock`; `LockFileEx` on Windows) on the lock file `path`,
   * without waiting. The file is created (mode 0600) when absent; a link or anything else than
   * a regular file at `path` is never followed. The lock belongs to the open file, so it cannot
   * be taken by anyone else while held and the system releases it when the holder dies: there
   * is never a stale lock to break. Release removes the file (POSIX) and then lets go, and a
   * taker checks that the file it locked is still the one at `path`, so a file removed
   * meanwhile is never held by two. Refuses a folder other users may write to, as
   * {@link writeFileAtomic} does.
   *
   * @returns the function that releases the lock, or `undefined` when another holder has it
   * @throws {Deno.errors.AlreadyExists} when something other than a regular file is at `path`
   */
  tryLock(path: string): Promise<(() => Promise<void>) | undefined>;
  /** Modification time in epoch milliseconds, or `undefined` when absent. */
  mtime(path: string): Promise<number | undefined>;
  /** What is at `path` (links followed), or `undefined` when nothing is. */
  stat(path: string): Promise<FileInfo | undefined>;
  /**
   * The user id this process runs as, which owns the files it creates; `undefined` where files
   * have no such owner (Windows) or it cannot be learnt.
   */
  userId(): number | undefined;
  /**
   * The real path of `path`: absolute, every link followed (on Windows the canonical long
   * name), or `undefined` when nothing is there. A link whose target is missing rejects with
   * `Deno.errors.NotFound`, as does any other failure than absence.
   */
  realPath(path: string): Promise<string | undefined>;
  /**
   * Opens a regular file for reading as a stream: its size is the opened file's own, so the two
   * belong together. The stream closes the file when read to its end or cancelled. Rejects with
   * `Deno.errors.NotFound` when absent and `Deno.errors.IsADirectory` for a folder. Files a user
   * names (uploads, `file` parameters) are read through it.
   *
   * @param options `confine`: the opened file's real path is checked, and the file is refused
   *   (closed unread) when `confine` throws or when the path no longer leads to the file opened
   *   (a link swapped in meanwhile)
   */
  openRead(
    path: string,
    options?: { confine?: Confine },
  ): Promise<{ size: number; stream: ReadableStream<Uint8Array> }>;
  /**
   * Writes a stream to `path` the way {@link writeFileAtomic} writes bytes (a new temporary file
   * beside it, flushed, renamed into place), chunk by chunk so memory does not grow with its
   * length (a byte stream, such as an HTTP body, is read into one reused buffer), counting the
   * bytes as they are written. When the stream fails or is cancelled, or `admit` or `check`
   * throws, the temporary file is removed, so no partial file is ever left. Without `overwrite`
   * the file is linked into place, which fails with `Deno.errors.AlreadyExists` when `path`
   * exists (even if it appeared meanwhile).
   *
   * The folder may be one other users can write to only when it is sticky (like `/tmp`: no one
   * can replace another's file there); otherwise the write is refused as
   * {@link writeFileAtomic} refuses it.
   *
   * @param options `overwrite` an existing file; `admit` the count the file would reach with the
   *   next chunk, before it is written (a throw stops the write there: a size cap); `check` the
   *   number of bytes written before the file is put in place (a throw stops it); `confine`: the
   *   file is written into its folder's real path, which `confine` checks (with the file's
   *   name), and the temporary file is checked to be where it was made, once made and again
   *   before it is put in place, so a folder swapped for a link writes nothing elsewhere
   * @returns the number of bytes written
   * @throws the stream's own error when reading it fails (as it is), what `admit` or `check`
   *   throws, the file system's otherwise
   */
  writeStreamAtomic(
    path: string,
    data: ReadableStream<Uint8Array>,
    mode: number,
    options?: {
      overwrite?: boolean;
      admit?: (bytes: number) => void;
      check?: (bytes: number) => void;
      confine?: Confine;
    },
  ): Promise<number>;
}

/**
 * Checks the real path (absolute, no links) of a file opened, or about to be written, by
 * {@link FileSystem.openRead} or {@link FileSystem.writeStreamAtomic}; throws to refuse it.
 */
export type Confine = (realPath: string) => void;

/** What {@link FileSystem.stat} tells about a path. */
export interface FileInfo {
  /** A regular file. */
  isFile: boolean;
  /** A folder. */
  isDirectory: boolean;
  /** The size in bytes. */
  size: number;
  /** The permission bits with the set-id and sticky bits (`0o1777` at most); POSIX only. */
  mode?: number;
  /** The owner's user id; POSIX only. */
  uid?: number;
}

/** See {@link Context.configureKeychain}; each field given replaces the earlier one. */
export interface KeychainSettings {
  /** `preferences.keychain`: `auto`, `macos`, `linux`, `windows` or `file`. */
  preference?: string;
  /**
   * Asks a person for the file keychain's password; `creating` when nothing is stored yet (the
   * password is then asked twice and must be long enough).
   */
  askPassword?: (creating: boolean) => Promise<string>;
}

/** A store of secrets by path; the backends are in `src/keychain/`. */
export interface Keychain {
  /** The backend's name; for a lazily chosen keychain, the name once chosen. */
  readonly backend: string;
  /** The secret at `path` (such as `hark/default/app_secret`), or `undefined` when absent. */
  get(path: string): Promise<string | undefined>;
  /** Stores `secret` at `path`, replacing any previous value. */
  set(path: string, secret: string): Promise<void>;
  /** Deletes the secret at `path`; resolves `false` when there was none. */
  delete(path: string): Promise<boolean>;
  /** Every path stored under `hark/`, sorted. */
  list(): Promise<string[]>;
  /**
   * Starts in the background what the first calls will need (the Secret Service's connection
   * and session) and reads the secrets at `paths`, which the command is about to read, writing
   * nothing and never prompting; a failure is not reported here but by the call it was for, as
   * without it. A read ahead is taken by the first `get` of its path, and dropped by a `set` or
   * `delete` of it. Absent where there is nothing to start.
   */
  prepare?(paths?: readonly string[]): void;
}

/** An open WebSocket carrying binary messages (the event long connection). */
export interface WebSocketPort {
  /** The next binary message, or `undefined` once the socket has closed. */
  receive(): Promise<Uint8Array | undefined>;
  /** Sends a binary message; does nothing once the socket is closing. */
  send(data: Uint8Array): void;
  /** Closes the socket. */
  close(): void;
}

/** A connected stream socket (the D-Bus session bus of the Linux keychain). */
export interface SocketPort {
  /** Reads into `buffer`; resolves the number of bytes read, or `null` at the end. */
  read(buffer: Uint8Array): Promise<number | null>;
  /** Writes all of `data`. */
  write(data: Uint8Array): Promise<void>;
  /** Closes the socket (again is harmless); a pending read then fails. */
  close(): void;
}

/** Operating systems hark distinguishes. */
export type OsName = "linux" | "darwin" | "windows";

/** A debug line, or a function that builds it, called only when debug lines are on. */
export type DebugLine = string | (() => string);

/** Everything hark needs from the outside world. */
export interface Context {
  /** Current time in epoch milliseconds. */
  now(): number;
  /** Resolves after `ms` milliseconds; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * A signal aborted with a `TimeoutError` once `ms` milliseconds of this context's clock have
   * passed (tests drive it with their fake clock).
   */
  timeout(ms: number): AbortSignal;
  /** `fetch` bound to the shared keep-alive HTTP client. */
  fetch: typeof fetch;
  /** The environment. */
  env: Env;
  /** Standard input. */
  stdin: InputStream;
  /** Standard output: data only. */
  stdout: OutputStream;
  /** Standard error: everything for people. */
  stderr: OutputStream;
  /**
   * Writes a diagnostic line to stderr when `--debug` or `HARK_DEBUG=1` asked for them (secrets
   * must already be masked); does nothing otherwise. A line that costs something to build (a
   * masked URL, an answer's JSON) is given as a function, called only when the line is written.
   */
  debug(line: DebugLine): void;
  /**
   * Shows how long work is going (pieces done, pages read, a rate-limit wait) on one line of
   * stderr, redrawn in place, once the command has run for about a second; `undefined` clears it.
   * Does nothing when stderr is not a terminal. The text must already be terminal-safe.
   */
  status(line: string | undefined): void;
  /** The user's IANA time zone (`TZ`, else the system's): local times are read and shown in it. */
  timeZone: string;
  /**
   * Says that a batch of a long stream is done with, so what it used may be freed now rather
   * than when the runtime gets round to it (garbage that holds network buffers grows the process
   * by megabytes per thousand requests otherwise). Cheap to call often: the runtime decides
   * whether to act.
   */
  reclaim(): void;
  /** Runs a subprocess to completion. Secrets go through `options.stdin`, never `args`. */
  run(cmd: string, args: string[], options?: RunOptions): Promise<RunResult>;
  /**
   * Shows `text` through a pager on the terminal (`command`, a shell command line such as
   * `less -FRX`, its stdin the text, its output the terminal's) and waits until the person
   * leaves it. Resolves false, having shown nothing, when the pager cannot be started (not
   * installed): the caller then writes the text itself. Absent where there is no terminal to
   * page on (tests, MCP).
   */
  page?(command: string, text: string): Promise<boolean>;
  /** File operations. */
  fs: FileSystem;
  /** The operating system. */
  os: OsName;
  /** The user's home folder, when known. */
  homeDir: string | undefined;
  /** Aborted when the user presses Ctrl-C. */
  signal: AbortSignal;
  /**
   * Runs synchronous work that nothing can interrupt (jq over a long output): while it runs,
   * Ctrl-C and SIGTERM end the process at once, as they do in a program without handlers, since
   * no handler could run before the work returns; and what it prints on the console (another
   * program's runtime, such as jq's) is dropped. The work must be synchronous. Absent where no
   * signal arrives (tests): the work just runs.
   */
  blocking?<T>(work: () => T): T;
  /** The keychain; the backend is chosen lazily, on first use. */
  keychain: Keychain;
  /**
   * Settles what the keychain is before its first use: the config's backend preference (which
   * `HARK_KEYCHAIN` overrides) and, at a terminal, how the encrypted-file keychain asks for its
   * password when `HARK_KEYCHAIN_PASSWORD` is not set. Absent where the keychain is fixed (tests).
   */
  configureKeychain?(settings: KeychainSettings): void;
  /** A random UUID (idempotency keys). */
  randomUUID(): string;
  /** Random bytes (nonces, salts). */
  randomBytes(length: number): Uint8Array;
  /**
   * Opens a WebSocket (`hark event +subscribe`); resolves once it is open, rejects when the
   * handshake fails or `signal` aborts first. Absent where nothing may connect (unit tests).
   */
  openWebSocket?(url: string, signal: AbortSignal): Promise<WebSocketPort>;
  /**
   * Connects to a Unix socket at `path` (on Linux a leading NUL names an abstract socket);
   * rejects as `Deno.connect` does (`NotFound`, `ConnectionRefused`). Absent where nothing may
   * connect (unit tests).
   */
  connectUnix?(path: string): Promise<SocketPort>;
  /** This process's id (lock files). */
  pid: number;
  /**
   * The folder of the generated API catalogue's files (`gen/catalogue/` beside `main.ts`; in the
   * binary, embedded beside its entry), read only by the commands that need it.
   */
  catalogueDir: string;
}
