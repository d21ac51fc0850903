/**
 * The Linux keychain: the Secret Service (GNOME Keyring, KWallet, KeePassXC). Items carry the
 * attributes `service hark` and `account <path after hark/>`.
 *
 * Two ways to it, the same items either way. Where the session bus is a Unix socket (named by
 * `DBUS_SESSION_BUS_ADDRESS`, or `$XDG_RUNTIME_DIR/bus`), hark speaks D-Bus itself
 * (`_secret_service.ts`): one connection and one encrypted session per
 * command, about 1 ms a call instead of a `secret-tool` process (about 22 ms each, measured).
 * Otherwise (a TCP or `autolaunch:` bus, a context that cannot connect) it runs `secret-tool`
 * from libsecret, the secret on stdin, never in argv. secret-tool stays for those cases, which
 * libsecret's transports cover and hark's client does not.
 *
 * @module
 */

import type { Context, RunResult } from "../context.ts";
import { sessionBus } from "./_dbus_address.ts";
import {
  LINUX_BACKEND as BACKEND,
  lockedError,
  noCollectionError,
  noServiceError,
  otherError,
  where,
} from "./_linux_errors.ts";
// Imported with this module, not on demand: nearly every Linux session bus is a Unix socket, and
// one import wave fewer is about 0.5 ms of every command that reads a secret.
import { SecretServiceKeychain } from "./_secret_service.ts";
import {
  checkKeychainPath,
  firstLine,
  type Keychain,
  KeychainError,
  ReadsAhead,
} from "./keychain.ts";

const TOOL = "secret-tool";
const INSTALL = 'the "libsecret-tools" package (and a Secret Service such as gnome-keyring)';

/**
 * The largest secret, in UTF-8 bytes, either way: well under what the in-process client reads
 * back in one D-Bus message (`MAX_MESSAGE_BYTES`, 4 MiB), so that nothing is stored that hark
 * cannot read. hark's secrets are tokens and application secrets of a few hundred bytes.
 */
export const LINUX_MAX_SECRET_BYTES = 1024 * 1024;

/** Options of {@link LinuxKeychain}. */
export interface LinuxKeychainOptions {
  /**
   * Environment for `secret-tool` (it finds the session bus through `DBUS_SESSION_BUS_ADDRESS`);
   * default the current one.
   */
  env?: Record<string, string>;
  /** Milliseconds before a `secret-tool` call is abandoned; default 5 000. */
  timeoutMs?: number;
}

/**
 * A {@link Keychain} on the Secret Service, in process or through `secret-tool` (module doc).
 *
 * @example
 * ```ts
 * const keychain = new LinuxKeychain(ctx);
 * await keychain.set("hark/default/app_secret", "s3cret");
 * ```
 */
export class LinuxKeychain implements Keychain {
  /** The backend's name. */
  readonly backend = BACKEND;
  readonly #ctx: Context;
  readonly #env: Record<string, string> | undefined;
  readonly #timeoutMs: number;
  #client: Promise<SecretServiceKeychain | undefined> | undefined;
  /** Reads started by {@link prepare}, each for the first `get` of its path. */
  readonly #ahead: ReadsAhead;

  /**
   * Creates the keychain; nothing runs until the first call.
   *
   * @param ctx the context whose `run` starts `secret-tool`
   * @param options environment and timeout
   */
  constructor(ctx: Context, options: LinuxKeychainOptions = {}) {
    this.#ctx = ctx;
    this.#env = options.env;
    this.#timeoutMs = options.timeoutMs ?? 5_000;
    this.#ahead = new ReadsAhead(() => ctx.now());
  }

  /** {@inheritDoc Keychain.get} */
  get(path: string): Promise<string | undefined> {
    return this.#ahead.take(path) ?? this.#read(path);
  }

  async #read(path: string): Promise<string | undefined> {
    const account = accountOf(path);
    const client = await this.#inProcess();
    if (client) return client.get(path);
    const result = await this.#run(["lookup", "service", "hark", "account", account]);
    if (result.code === 0) return result.stdout;
    if (result.stderr.trim() !== "") throw failure("read", path, result);
    // `lookup` says nothing both when the item is absent and when it is locked.
    if (await this.#exists(account)) throw lockedError("read", path);
    return undefined;
  }

  /** {@inheritDoc Keychain.set} */
  async set(path: string, secret: string): Promise<void> {
    this.#ahead.drop(path);
    const account = accountOf(path);
    const size = new TextEncoder().encode(secret).length;
    if (size > LINUX_MAX_SECRET_BYTES) {
      throw new KeychainError(
        BACKEND,
        `${where("write", path)}: the value has ${size} bytes, more than the ` +
          `${LINUX_MAX_SECRET_BYTES} hark stores`,
        { suggestion: "Store a shorter value" },
      );
    }
    const client = await this.#inProcess();
    if (client) return client.set(path, secret);
    const result = await this.#run(
      ["store", `--label=${path}`, "service", "hark", "account", account],
      secret,
    );
    if (result.code !== 0) throw failure("write", path, result);
  }

  /** {@inheritDoc Keychain.delete} */
  async delete(path: string): Promise<boolean> {
    this.#ahead.drop(path);
    const account = accountOf(path);
    const client = await this.#inProcess();
    if (client) return client.delete(path);
    const result = await this.#run(["clear", "service", "hark", "account", account]);
    if (result.code === 0) return true;
    if (result.stderr.trim() !== "") throw failure("delete", path, result);
    // `clear` says nothing both when nothing matched and when the item is locked.
    if (await this.#exists(account)) throw lockedError("delete", path);
    return false;
  }

  /** {@inheritDoc Keychain.list} */
  async list(): Promise<string[]> {
    const client = await this.#inProcess();
    if (client) {
      const paths = (await client.list()).map((account) => `hark/${account}`);
      return [...new Set(paths.filter(isKeychainPath))].sort();
    }
    const result = await this.#run(["search", "--all", "service", "hark"]);
    if (result.code !== 0) throw failure("list", "hark/", result);
    return parseSearchAccounts(result);
  }

  /**
   * {@inheritDoc Keychain.prepare} The in-process client connects and opens its session (secret-tool
   * has nothing to start), and the reads at `paths` are registered at once, before anything is
   * awaited: a `get` made after this call always finds them (see `ReadsAhead`).
   *
   * @returns settled once the warm-up and the reads ahead have (for tests; callers need not wait)
   */
  async prepare(paths: readonly string[] = []): Promise<void> {
    // The warm-up first: the reads below then go through the session it opens.
    const warming = this.#inProcess().then((client) => client?.prepare(paths), () => {});
    const reads = paths.map((path) => {
      const read = this.#read(path);
      this.#ahead.start(path, read);
      return read;
    });
    await Promise.allSettled([warming, ...reads]);
  }

  /** Closes the in-process client's connection, if one is open. */
  async close(): Promise<void> {
    this.#ahead.drop();
    await (await this.#client?.catch(() => undefined))?.close();
  }

  /** The in-process client, or `undefined` where secret-tool is the way (see the module doc). */
  #inProcess(): Promise<SecretServiceKeychain | undefined> {
    return this.#client ??= this.#loadClient();
  }

  async #loadClient(): Promise<SecretServiceKeychain | undefined> {
    const env = this.#env;
    const variable = (name: string) => env ? env[name] : this.#ctx.env.get(name);
    const bus = sessionBus(variable("DBUS_SESSION_BUS_ADDRESS"), variable("XDG_RUNTIME_DIR"));
    const uid = this.#ctx.fs.userId();
    if (bus === undefined || uid === undefined || this.#ctx.connectUnix === undefined) {
      return undefined;
    }
    // A guessed bus that is not there: secret-tool may still autolaunch one.
    if (bus.guessed && (await this.#ctx.fs.stat(bus.sockets[0])) === undefined) return undefined;
    return new SecretServiceKeychain(this.#ctx, {
      sockets: bus.sockets,
      uid,
      timeoutMs: this.#timeoutMs,
    });
  }

  /** Whether an item with this account exists, without reading its secret. */
  async #exists(account: string): Promise<boolean> {
    const result = await this.#run(["search", "service", "hark", "account", account]);
    return /^\[\//m.test(result.stdout);
  }

  async #run(args: string[], stdin?: string): Promise<RunResult> {
    // Only where the bus is not a Unix socket: the D-Bus path never loads the subprocess code.
    const { runTool } = await import("./_run_tool.ts");
    return await runTool(this.#ctx, TOOL, args, {
      backend: BACKEND,
      stdin,
      timeoutMs: this.#timeoutMs,
      env: this.#env,
      install: INSTALL,
    });
  }
}

/**
 * The keychain paths in the output of `secret-tool search --all service hark`. `secret-tool`
 * prints the `attribute.account = …` lines on stderr and the secrets on stdout, so stderr is
 * read first (a secret can then never pose as an entry); stdout only when stderr has none,
 * for versions that print everything on stdout.
 *
 * @param result the finished `secret-tool search`
 * @returns the sorted, distinct paths
 */
export function parseSearchAccounts(result: Pick<RunResult, "stdout" | "stderr">): string[] {
  const pattern = /^attribute\.account = (.*)$/gm;
  let matches = [...result.stderr.matchAll(pattern)];
  if (matches.length === 0) matches = [...result.stdout.matchAll(pattern)];
  const paths = new Set<string>();
  for (const match of matches) {
    const path = `hark/${match[1]}`;
    if (isKeychainPath(path)) paths.add(path);
  }
  return [...paths].sort();
}

function accountOf(path: string): string {
  return checkKeychainPath(path).slice("hark/".length);
}

function isKeychainPath(path: string): boolean {
  try {
    checkKeychainPath(path);
    return true;
  } catch {
    return false;
  }
}

function failure(action: string, path: string, result: RunResult): Error {
  const detail = firstLine(result.stderr, `exit code ${result.code}`);
  if (/locked/i.test(result.stderr)) return lockedError(action, path);
  if (
    /autolaunch|dbus-launch|could not connect|failed to connect|not provided by any|org\.freedesktop\.secrets|ServiceUnknown|DBUS_SESSION_BUS_ADDRESS/i
      .test(result.stderr)
  ) {
    return noServiceError(action, path, detail);
  }
  if (/does not exist at path|no such object|collection/i.test(result.stderr)) {
    return noCollectionError(action, path, detail);
  }
  return otherError(action, path, `secret-tool exited with code ${result.code}: ${detail}`);
}
