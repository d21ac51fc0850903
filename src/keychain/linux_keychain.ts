/**
 * The Linux keychain: the Secret Service (GNOME Keyring, KWallet, KeePassXC) through
 * `secret-tool` from libsecret. Items carry the attributes `service hark` and
 * `account <path after hark/>`; the secret travels on stdin, never in argv.
 *
 * @module
 */

import type { Context, RunResult } from "../context.ts";
import { firstLine, runTool, WAYS_OUT } from "./_run_tool.ts";
import { checkKeychainPath, type Keychain, KeychainError } from "./keychain.ts";

const BACKEND = "linux";
const TOOL = "secret-tool";
const INSTALL = 'the "libsecret-tools" package (and a Secret Service such as gnome-keyring)';

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
 * A {@link Keychain} on the Secret Service through `secret-tool`.
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
  }

  /** {@inheritDoc Keychain.get} */
  async get(path: string): Promise<string | undefined> {
    const account = accountOf(path);
    const result = await this.#run(["lookup", "service", "hark", "account", account]);
    if (result.code === 0) return result.stdout;
    if (result.stderr.trim() !== "") throw failure("read", path, result);
    // `lookup` says nothing both when the item is absent and when it is locked.
    if (await this.#exists(account)) throw lockedError("read", path);
    return undefined;
  }

  /** {@inheritDoc Keychain.set} */
  async set(path: string, secret: string): Promise<void> {
    const account = accountOf(path);
    const result = await this.#run(
      ["store", `--label=${path}`, "service", "hark", "account", account],
      secret,
    );
    if (result.code !== 0) throw failure("write", path, result);
  }

  /** {@inheritDoc Keychain.delete} */
  async delete(path: string): Promise<boolean> {
    const account = accountOf(path);
    const result = await this.#run(["clear", "service", "hark", "account", account]);
    if (result.code === 0) return true;
    if (result.stderr.trim() !== "") throw failure("delete", path, result);
    // `clear` says nothing both when nothing matched and when the item is locked.
    if (await this.#exists(account)) throw lockedError("delete", path);
    return false;
  }

  /** {@inheritDoc Keychain.list} */
  async list(): Promise<string[]> {
    const result = await this.#run(["search", "--all", "service", "hark"]);
    if (result.code !== 0) throw failure("list", "hark/", result);
    return parseSearchAccounts(result);
  }

  /** Whether an item with this account exists, without reading its secret. */
  async #exists(account: string): Promise<boolean> {
    const result = await this.#run(["search", "service", "hark", "account", account]);
    return /^\[\//m.test(result.stdout);
  }

  #run(args: string[], stdin?: string): Promise<RunResult> {
    return runTool(this.#ctx, TOOL, args, {
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

function lockedError(action: string, path: string): KeychainError {
  return new KeychainError(
    BACKEND,
    `Cannot ${action} "${path}" in the linux keychain (Secret Service): the keyring is locked`,
    { suggestion: `Unlock the login keyring (sign in to the desktop session), ${WAYS_OUT}` },
  );
}

function failure(action: string, path: string, result: RunResult): KeychainError {
  const detail = firstLine(result.stderr, `exit code ${result.code}`);
  const where = `Cannot ${action} "${path}" in the linux keychain (Secret Service)`;
  if (/locked/i.test(result.stderr)) return lockedError(action, path);
  if (
    /autolaunch|dbus-launch|could not connect|failed to connect|not provided by any|org\.freedesktop\.secrets|ServiceUnknown|DBUS_SESSION_BUS_ADDRESS/i
      .test(result.stderr)
  ) {
    return new KeychainError(
      BACKEND,
      `${where}: no Secret Service is reachable on the D-Bus session bus (${detail})`,
      {
        suggestion: `Start a desktop session or gnome-keyring-daemon with a D-Bus session bus, ` +
          WAYS_OUT,
      },
    );
  }
  if (/does not exist at path|no such object|collection/i.test(result.stderr)) {
    return new KeychainError(
      BACKEND,
      `${where}: the keyring has no default collection (${detail})`,
      {
        suggestion: `Create a default ("login") keyring, for example with Seahorse, ${WAYS_OUT}`,
      },
    );
  }
  return new KeychainError(
    BACKEND,
    `${where}: secret-tool exited with code ${result.code}: ${detail}`,
  );
}
