/**
 * The macOS keychain through `/usr/bin/security`: generic passwords with service `hark` and
 * account = the path after `hark/` (`default/app_secret`).
 *
 * Writes go through `security -i`, with the commands on stdin, so the secret never appears in
 * any process's argv; `add-generic-password -U` updates an item in place. How values are stored:
 *
 * - printable ASCII that does not start with `hark-` is stored as is, so other tools read it;
 * - anything else (newlines, unicode, …) as `hark-base64:<base64 of the UTF-8 bytes>`, because
 *   `security find-generic-password -w` prints such values in hex, which is ambiguous;
 * - a value too long for one `security -i` line (4 096 bytes) is split: the item holds
 *   `hark-parts:<n>:<first piece>` and the items `<account>#2` … `<account>#<n>` hold the other
 *   pieces of its base64. `list` hides these part items.
 *
 * @module
 */

import type { Context, RunResult } from "../context.ts";
import { runTool } from "./_run_tool.ts";
import {
  checkKeychainPath,
  firstLine,
  type Keychain,
  KeychainError,
  WAYS_OUT,
} from "./keychain.ts";

const BACKEND = "macos";
const SECURITY = "/usr/bin/security";
const INSTALL = "the Xcode command line tools (xcode-select --install)";
const SERVICE = "hark";
const BASE64_PREFIX = "hark-base64:";
const PARTS_PATTERN = /^hark-parts:(\d+):/;
/** Longest value written in one `add-generic-password` line, leaving room for the command. */
const MAX_LINE_VALUE = 3_600;
/** Length of one base64 piece of a split value. */
const PIECE = 3_000;
/** The largest secret, in UTF-8 bytes. */
export const MACOS_MAX_SECRET_BYTES = 64 * 1024;
/** `errSecItemNotFound` (-25300) as `security` exits with it. */
const EXIT_NOT_FOUND = 44;

/** Options of {@link MacosKeychain}. */
export interface MacosKeychainOptions {
  /** Milliseconds before a `security` call is abandoned; default 10 000. */
  timeoutMs?: number;
}

/**
 * A {@link Keychain} on the macOS login keychain through `/usr/bin/security`.
 *
 * @example
 * ```ts
 * const keychain = new MacosKeychain(ctx);
 * await keychain.set("hark/default/app_secret", "s3cret");
 * ```
 */
export class MacosKeychain implements Keychain {
  /** The backend's name. */
  readonly backend = BACKEND;
  readonly #ctx: Context;
  readonly #timeoutMs: number;

  /**
   * Creates the keychain; nothing runs until the first call.
   *
   * @param ctx the context whose `run` starts `security`
   * @param options timeout
   */
  constructor(ctx: Context, options: MacosKeychainOptions = {}) {
    this.#ctx = ctx;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** {@inheritDoc Keychain.get} */
  async get(path: string): Promise<string | undefined> {
    const account = accountOf(path);
    const stored = await this.#find(path, account);
    if (stored === undefined) return undefined;
    const parts = PARTS_PATTERN.exec(stored);
    if (!parts) return decodeValue(stored);
    const count = Number(parts[1]);
    const accounts = partAccounts(account, count);
    const result = await this.#interactive(
      accounts.map((a) => command("find-generic-password", "-s", SERVICE, "-a", a, "-w")),
    );
    const pieces = result.stdout.split("\n").slice(0, accounts.length);
    if (result.code !== 0 || result.stderr.trim() !== "" || pieces.length !== accounts.length) {
      throw failure("read", path, result);
    }
    return decodeBase64(stored.slice(parts[0].length) + pieces.join(""), path);
  }

  /** {@inheritDoc Keychain.set} */
  async set(path: string, secret: string): Promise<void> {
    const account = accountOf(path);
    const bytes = new TextEncoder().encode(secret);
    if (bytes.length > MACOS_MAX_SECRET_BYTES) {
      throw new KeychainError(
        BACKEND,
        `Cannot write "${path}" to the macos keychain: the value has ${bytes.length} bytes, ` +
          `more than the ${MACOS_MAX_SECRET_BYTES} hark stores`,
        { suggestion: "Store a shorter value" },
      );
    }
    const before = await this.#find(path, account);
    const oldCount = before === undefined ? 1 : partCount(before);
    const values = encodeValues(secret, bytes);
    const accounts = [account, ...partAccounts(account, values.length)];
    // Parts first, the main item last: a reader never sees a count whose parts are missing.
    const lines = accounts.map((a, i) =>
      command(
        "add-generic-password",
        "-U",
        "-s",
        SERVICE,
        "-a",
        a,
        "-l",
        `hark/${a}`,
        "-w",
        values[i],
      )
    ).reverse();
    const result = await this.#interactive(lines);
    if (result.code !== 0 || result.stderr.trim() !== "") throw failure("write", path, result);
    if (oldCount > values.length) {
      const stale = partAccounts(account, oldCount).slice(values.length - 1);
      await this.#interactive(
        stale.map((a) => command("delete-generic-password", "-s", SERVICE, "-a", a)),
      );
    }
  }

  /** {@inheritDoc Keychain.delete} */
  async delete(path: string): Promise<boolean> {
    const account = accountOf(path);
    const stored = await this.#find(path, account);
    if (stored === undefined) return false;
    const accounts = [...partAccounts(account, partCount(stored)), account];
    // The main item goes last, so the exit code is its own.
    const result = await this.#interactive(
      accounts.map((a) => command("delete-generic-password", "-s", SERVICE, "-a", a)),
    );
    if (result.code === EXIT_NOT_FOUND) return false;
    if (result.code !== 0) throw failure("delete", path, result);
    return true;
  }

  /** {@inheritDoc Keychain.list} */
  async list(): Promise<string[]> {
    const result = await this.#run(["dump-keychain"]);
    if (result.code !== 0) throw failure("list", "hark/", result);
    return parseDumpKeychain(result.stdout);
  }

  /** The stored value of an item, or `undefined` when there is none. */
  async #find(path: string, account: string): Promise<string | undefined> {
    const result = await this.#run(["find-generic-password", "-s", SERVICE, "-a", account, "-w"]);
    if (result.code === 0) {
      return result.stdout.endsWith("\n") ? result.stdout.slice(0, -1) : result.stdout;
    }
    if (
      result.code === EXIT_NOT_FOUND || /specified item could not be found/i.test(result.stderr)
    ) {
      return undefined;
    }
    throw failure("read", path, result);
  }

  #interactive(lines: string[]): Promise<RunResult> {
    return this.#run(["-i"], lines.join(""));
  }

  #run(args: string[], stdin?: string): Promise<RunResult> {
    return runTool(this.#ctx, SECURITY, args, {
      backend: BACKEND,
      stdin,
      timeoutMs: this.#timeoutMs,
      install: INSTALL,
    });
  }
}

/**
 * The keychain paths in the output of `security dump-keychain`: the generic passwords whose
 * service is `hark`, without the part items of split values.
 *
 * @param text the standard output of `security dump-keychain`
 * @returns the sorted, distinct paths
 */
export function parseDumpKeychain(text: string): string[] {
  const paths = new Set<string>();
  for (const block of text.split(/^(?=keychain: )/m)) {
    if (!/^class: "genp"$/m.test(block)) continue;
    const service = /^\s*"svce"<blob>="(.*)"$/m.exec(block)?.[1];
    const account = /^\s*"acct"<blob>="(.*)"$/m.exec(block)?.[1];
    if (service !== SERVICE || account === undefined) continue;
    const path = `hark/${account}`;
    if (isKeychainPath(path)) paths.add(path);
  }
  return [...paths].sort();
}

/**
 * One `security -i` command line: each argument double-quoted, with `\` and `"` escaped, as
 * the interactive parser of `security` expects.
 */
function command(...args: string[]): string {
  return args.map((a) => `"${a.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(" ") +
    "\n";
}

/** The values to store: one, or the pieces of a split value, main item first. */
function encodeValues(secret: string, bytes: Uint8Array): string[] {
  const plain = /^[\x20-\x7e]*$/.test(secret) && !secret.startsWith("hark-");
  const single = plain ? secret : BASE64_PREFIX + bytes.toBase64();
  if (command(single).length <= MAX_LINE_VALUE) return [single];
  const base64 = bytes.toBase64();
  const pieces: string[] = [];
  for (let i = 0; i < base64.length; i += PIECE) pieces.push(base64.slice(i, i + PIECE));
  pieces[0] = `hark-parts:${pieces.length}:${pieces[0]}`;
  return pieces;
}

function decodeValue(stored: string): string {
  if (!stored.startsWith(BASE64_PREFIX)) return stored;
  return decodeBase64(stored.slice(BASE64_PREFIX.length), undefined);
}

function decodeBase64(text: string, path: string | undefined): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.fromBase64(text));
  } catch (error) {
    throw new KeychainError(
      BACKEND,
      `Cannot read ${path ? `"${path}"` : "a value"} from the macos keychain: the stored value ` +
        "is damaged",
      { suggestion: "Store the secret again", cause: error },
    );
  }
}

function partCount(stored: string): number {
  const match = PARTS_PATTERN.exec(stored);
  return match ? Number(match[1]) : 1;
}

/** The accounts of parts 2 … count. */
function partAccounts(account: string, count: number): string[] {
  const accounts: string[] = [];
  for (let i = 2; i <= count; i++) accounts.push(`${account}#${i}`);
  return accounts;
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

function failure(action: string, path: string, result: RunResult): KeychainError {
  const detail = firstLine(result.stderr, `exit code ${result.code}`);
  const where = `Cannot ${action} "${path}" in the macos keychain`;
  if (/user interaction is not allowed|locked/i.test(result.stderr) || result.code === 36) {
    return new KeychainError(
      BACKEND,
      `${where}: the keychain is locked and cannot prompt here (${detail})`,
      {
        suggestion: `Unlock it (security unlock-keychain login.keychain), ${WAYS_OUT}`,
        command: "security unlock-keychain login.keychain",
      },
    );
  }
  if (/passphrase you entered is not correct|denied|not authorized|cancel/i.test(result.stderr)) {
    return new KeychainError(BACKEND, `${where}: access was denied (${detail})`, {
      suggestion: `Allow hark access in the keychain prompt, ${WAYS_OUT}`,
    });
  }
  if (
    /keychain could not be found|no default keychain|keychain cannot be found/i.test(result.stderr)
  ) {
    return new KeychainError(BACKEND, `${where}: there is no default keychain (${detail})`, {
      suggestion: `Create or select a default keychain (security default-keychain), ${WAYS_OUT}`,
    });
  }
  return new KeychainError(
    BACKEND,
    `${where}: security exited with code ${result.code}: ${detail}`,
  );
}
