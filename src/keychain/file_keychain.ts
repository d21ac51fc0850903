/**
 * The encrypted-file keychain, for containers and CI machines with no OS keychain: opt in with
 * `HARK_KEYCHAIN=file` and set `HARK_KEYCHAIN_PASSWORD`. Each secret is one file under
 * `<data folder>/keychain/` (folder mode 0700, tightened when looser; file mode 0600), written
 * atomically through a fresh temporary file that a planted link cannot redirect, holding
 * `{v, kdf, iterations, salt, iv, ciphertext}` as JSON: AES-256-GCM with a key derived by
 * PBKDF2-SHA256 from the password, and the keychain path as additional data, so a file moved to
 * another path does not decrypt.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { HarkError } from "../errors/mod.ts";
import { numberField, stringField } from "../json/fields.ts";
import { joinPath } from "../path.ts";
import { checkKeychainPath, type Keychain, KeychainError, ReadsAhead } from "./keychain.ts";

const BACKEND = "file";
const KDF = "PBKDF2-SHA256";
const SUFFIX = ".json";
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** Bytes WebCrypto accepts. */
type Bytes = Uint8Array<ArrayBuffer>;

/**
 * PBKDF2-SHA256 iterations for new files: OWASP's current advice (600,000). Files keep the count
 * they were written with, so older ones (200,000) still open. It costs one derivation per file
 * salt a command reads (each process writes with one salt); see the commit that chose it for
 * the measured cost.
 */
export const FILE_KEYCHAIN_ITERATIONS = 600_000;

/**
 * The most PBKDF2 iterations a file may ask for: ten million (several seconds per read). A file
 * asking for more is refused rather than left to hang every command.
 */
export const MAX_FILE_KEYCHAIN_ITERATIONS = 10_000_000;

/** The shortest `HARK_KEYCHAIN_PASSWORD` that new secrets are stored with. */
export const MIN_KEYCHAIN_PASSWORD_LENGTH = 8;

/** The content of one keychain file. */
export interface FileKeychainRecord {
  /** Format version: 1. */
  v: 1;
  /** The key derivation: `PBKDF2-SHA256`. */
  kdf: typeof KDF;
  /** PBKDF2 iterations. */
  iterations: number;
  /** PBKDF2 salt, base64. */
  salt: string;
  /** AES-GCM nonce (12 bytes), base64. */
  iv: string;
  /** AES-GCM ciphertext with its tag, base64. */
  ciphertext: string;
}

/** Options of {@link FileKeychain}. */
export interface FileKeychainOptions {
  /** The folder that holds the files; default `<data folder>/keychain` ({@link fileKeychainDir}). */
  dir?: string;
  /** PBKDF2 iterations for new files; default {@link FILE_KEYCHAIN_ITERATIONS}. */
  iterations?: number;
  /**
   * Asks a person for the password when `HARK_KEYCHAIN_PASSWORD` is not set (`creating`: no
   * secret is stored yet); `undefined` (or no function) when nobody can be asked.
   */
  askPassword?: (creating: boolean) => Promise<string> | undefined;
}

/**
 * The folder of the encrypted-file keychain: `$HARK_DATA_DIR/keychain`, else
 * `$XDG_DATA_HOME/hark/keychain`, else per OS `~/.local/share/hark/keychain`,
 * `~/Library/Application Support/hark/keychain` (macOS) or `%LOCALAPPDATA%\hark\keychain`.
 *
 * @throws {KeychainError} when no folder can be worked out (no home folder)
 */
export function fileKeychainDir(ctx: Context): string {
  const explicit = ctx.env.get("HARK_DATA_DIR");
  if (explicit) return joinPath(ctx.os, explicit, "keychain");
  const xdg = ctx.env.get("XDG_DATA_HOME");
  if (xdg) return joinPath(ctx.os, xdg, "hark", "keychain");
  if (ctx.os === "windows") {
    const local = ctx.env.get("LOCALAPPDATA");
    if (local) return joinPath(ctx.os, local, "hark", "keychain");
  }
  if (!ctx.homeDir) {
    throw new KeychainError(
      BACKEND,
      "Cannot locate the file keychain: no home folder and no HARK_DATA_DIR",
      { suggestion: "Set HARK_DATA_DIR to a folder for hark's data" },
    );
  }
  if (ctx.os === "darwin") {
    return joinPath(ctx.os, ctx.homeDir, "Library", "Application Support", "hark", "keychain");
  }
  if (ctx.os === "windows") {
    return joinPath(ctx.os, ctx.homeDir, "AppData", "Local", "hark", "keychain");
  }
  return joinPath(ctx.os, ctx.homeDir, ".local", "share", "hark", "keychain");
}

/**
 * A {@link Keychain} of AES-GCM encrypted files, keyed by `HARK_KEYCHAIN_PASSWORD` (or, at a
 * terminal, a password asked for once per command: `askPassword`). Derived keys
 * are cached per salt for the life of the object, and new files reuse the salt of the first key
 * derived (read or written) with the current iteration count, so a command that reads and
 * writes several secrets derives one key. Each file has its own random nonce.
 *
 * @example
 * ```ts
 * const keychain = new FileKeychain(ctx); // HARK_KEYCHAIN_PASSWORD must be set
 * await keychain.set("hark/default/app_secret", "s3cret");
 * ```
 */
export class FileKeychain implements Keychain {
  /** The backend's name. */
  readonly backend = BACKEND;
  readonly #ctx: Context;
  readonly #dirOption: string | undefined;
  readonly #iterations: number;
  readonly #keys = new Map<string, Promise<CryptoKey>>();
  readonly #askPassword: FileKeychainOptions["askPassword"];
  #asked: Promise<string> | undefined;
  #writeSalt: Bytes | undefined;
  /** Reads started by {@link prepare}, each for the first `get` of its path. */
  readonly #ahead: ReadsAhead;

  /**
   * Creates the keychain; nothing is read until the first call.
   *
   * @param ctx the context: environment, files and random bytes
   * @param options folder and PBKDF2 iterations
   */
  constructor(ctx: Context, options: FileKeychainOptions = {}) {
    this.#ctx = ctx;
    this.#dirOption = options.dir;
    this.#iterations = options.iterations ?? FILE_KEYCHAIN_ITERATIONS;
    this.#askPassword = options.askPassword;
    this.#ahead = new ReadsAhead(() => ctx.now());
  }

  /** The folder holding the files. */
  get dir(): string {
    return this.#dirOption ?? fileKeychainDir(this.#ctx);
  }

  /**
   * {@inheritDoc Keychain.prepare}: reads the files at `paths`, the key derivation (a fraction of
   * a second, off the main thread) then overlapping with the rest of the command's start-up.
   * Only with `HARK_KEYCHAIN_PASSWORD`: a password a person types is asked for when a secret is
   * read, never ahead. See `ReadsAhead` (`keychain.ts`) for which `get` takes a read.
   */
  prepare(paths: readonly string[] = []): void {
    if (!this.#ctx.env.get("HARK_KEYCHAIN_PASSWORD")) return;
    for (const path of paths) this.#ahead.start(path, this.#read(path));
  }

  /** {@inheritDoc Keychain.get} */
  get(path: string): Promise<string | undefined> {
    return this.#ahead.take(path) ?? this.#read(path);
  }

  async #read(path: string): Promise<string | undefined> {
    const file = this.#file(path);
    let text: string;
    try {
      text = await this.#ctx.fs.readTextFile(file);
    } catch (error) {
      if (error instanceof Error && error.name === "NotFound") return undefined;
      throw new KeychainError(BACKEND, `Cannot read "${path}" from the file keychain: ${error}`, {
        cause: error,
      });
    }
    const record = parseRecord(text, path, file);
    const password = await this.#password(path, false);
    const key = await this.#key(password, record.salt, record.iterations);
    let plain: ArrayBuffer;
    try {
      plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: record.iv, additionalData: aad(path) },
        key,
        record.ciphertext,
      );
    } catch (error) {
      throw new KeychainError(
        BACKEND,
        `Cannot decrypt "${path}" from the file keychain: wrong HARK_KEYCHAIN_PASSWORD?`,
        {
          suggestion: "Set HARK_KEYCHAIN_PASSWORD to the password the secret was stored with, " +
            `or store the secret again (file "${file}")`,
          cause: error,
        },
      );
    }
    // New files reuse the salt of a file that opened with today's count: a command that reads a
    // secret and writes one (a refresh) derives one key, not two.
    if (record.iterations === this.#iterations) this.#writeSalt ??= record.salt;
    return decoder.decode(plain);
  }

  /** {@inheritDoc Keychain.set} */
  async set(path: string, secret: string): Promise<void> {
    this.#ahead.drop(path);
    const file = this.#file(path);
    const password = await this.#password(path, true);
    if ([...password].length < MIN_KEYCHAIN_PASSWORD_LENGTH) {
      throw new KeychainError(
        BACKEND,
        `Cannot store "${path}" in the file keychain: HARK_KEYCHAIN_PASSWORD is shorter than ` +
          `${MIN_KEYCHAIN_PASSWORD_LENGTH} characters`,
        {
          suggestion: `Set HARK_KEYCHAIN_PASSWORD to a long random password (at least ` +
            `${MIN_KEYCHAIN_PASSWORD_LENGTH} characters; keep it in your CI's secret store)`,
        },
      );
    }
    this.#writeSalt ??= new Uint8Array(this.#ctx.randomBytes(16));
    const salt = this.#writeSalt;
    const key = await this.#key(password, salt, this.#iterations);
    const iv = new Uint8Array(this.#ctx.randomBytes(12));
    const ciphertext = new Uint8Array(
      await crypto.subtle.encrypt(
        { name: "AES-GCM", iv, additionalData: aad(path) },
        key,
        encoder.encode(secret),
      ),
    );
    const record: FileKeychainRecord = {
      v: 1,
      kdf: KDF,
      iterations: this.#iterations,
      salt: salt.toBase64(),
      iv: iv.toBase64(),
      ciphertext: ciphertext.toBase64(),
    };
    try {
      await this.#ctx.fs.mkdir(this.dir, 0o700);
      await this.#ctx.fs.writeFileAtomic(file, JSON.stringify(record) + "\n", 0o600, {
        privateFolder: true,
      });
    } catch (error) {
      if (error instanceof HarkError) throw error; // an unsafe folder, already explained
      throw new KeychainError(BACKEND, `Cannot write "${path}" to the file keychain: ${error}`, {
        suggestion: `Check that "${this.dir}" is writable, or set HARK_DATA_DIR`,
        cause: error,
      });
    }
  }

  /** {@inheritDoc Keychain.delete} */
  async delete(path: string): Promise<boolean> {
    this.#ahead.drop(path);
    const file = this.#file(path);
    try {
      return await this.#ctx.fs.remove(file);
    } catch (error) {
      throw new KeychainError(BACKEND, `Cannot delete "${path}" from the file keychain: ${error}`, {
        cause: error,
      });
    }
  }

  /** {@inheritDoc Keychain.list} */
  async list(): Promise<string[]> {
    let names: string[];
    try {
      names = await this.#ctx.fs.readDir(this.dir);
    } catch (error) {
      throw new KeychainError(BACKEND, `Cannot list the file keychain: ${error}`, { cause: error });
    }
    const paths: string[] = [];
    for (const name of names) {
      const path = pathOfFileName(name);
      if (path !== undefined) paths.push(path);
    }
    return paths.sort();
  }

  #file(path: string): string {
    return joinPath(this.#ctx.os, this.dir, fileNameOfPath(checkKeychainPath(path)));
  }

  /**
   * `HARK_KEYCHAIN_PASSWORD`, else the password a person gives once for the object's life
   * (asked as a new one when storing into an empty keychain).
   */
  async #password(path: string, storing: boolean): Promise<string> {
    const fromEnv = this.#ctx.env.get("HARK_KEYCHAIN_PASSWORD");
    if (fromEnv) return fromEnv;
    const creating = storing && (await this.list().catch(() => [])).length === 0;
    this.#asked ??= this.#askPassword?.(creating);
    const password = await this.#asked;
    if (!password) {
      throw new KeychainError(
        BACKEND,
        `Cannot use the file keychain for "${path}": HARK_KEYCHAIN_PASSWORD is not set`,
        {
          suggestion: "Set HARK_KEYCHAIN_PASSWORD to the password that encrypts hark's " +
            "secrets (keep it in your CI's secret store), or run the command at a terminal, " +
            "which asks for it",
        },
      );
    }
    return password;
  }

  #key(password: string, salt: Bytes, iterations: number): Promise<CryptoKey> {
    const id = `${iterations}:${salt.toBase64()}:${password}`;
    let key = this.#keys.get(id);
    if (!key) {
      key = deriveKey(password, salt, iterations);
      this.#keys.set(id, key);
    }
    return key;
  }
}

/**
 * The file name of a keychain path: the path percent-encoded plus `.json`
 * (`hark%2Fdefault%2Fapp_secret.json`), safe on every file system and reversible.
 */
export function fileNameOfPath(path: string): string {
  return encodeURIComponent(path) + SUFFIX;
}

/** The keychain path of a file name, or `undefined` when the file is not a keychain entry. */
export function pathOfFileName(name: string): string | undefined {
  if (!name.endsWith(SUFFIX)) return undefined;
  try {
    return checkKeychainPath(decodeURIComponent(name.slice(0, -SUFFIX.length)));
  } catch {
    return undefined;
  }
}

async function deriveKey(
  password: string,
  salt: Bytes,
  iterations: number,
): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey(
    "raw",
    encoder.encode(password),
    "PBKDF2",
    false,
    ["deriveKey"],
  );
  return await crypto.subtle.deriveKey(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

function aad(path: string): Bytes {
  return encoder.encode(path);
}

interface DecodedRecord {
  iterations: number;
  salt: Bytes;
  iv: Bytes;
  ciphertext: Bytes;
}

function parseRecord(text: string, path: string, file: string): DecodedRecord {
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch (error) {
    throw unreadable(path, file, error);
  }
  const iterations = numberField(record, "iterations");
  const salt = stringField(record, "salt");
  const iv = stringField(record, "iv");
  const ciphertext = stringField(record, "ciphertext");
  if (
    numberField(record, "v") !== 1 || stringField(record, "kdf") !== KDF ||
    iterations === undefined || salt === undefined || iv === undefined || ciphertext === undefined
  ) {
    throw unreadable(path, file);
  }
  if (
    !Number.isInteger(iterations) || iterations <= 0 || iterations > MAX_FILE_KEYCHAIN_ITERATIONS
  ) {
    throw new KeychainError(
      BACKEND,
      `Cannot read "${path}" from the file keychain: "${file}" asks for ${iterations} PBKDF2 ` +
        `iterations, expected a whole number from 1 to ${MAX_FILE_KEYCHAIN_ITERATIONS}`,
      { suggestion: "Delete the file and store the secret again" },
    );
  }
  try {
    return {
      iterations,
      salt: Uint8Array.fromBase64(salt),
      iv: Uint8Array.fromBase64(iv),
      ciphertext: Uint8Array.fromBase64(ciphertext),
    };
  } catch (error) {
    throw unreadable(path, file, error);
  }
}

function unreadable(path: string, file: string, cause?: unknown): KeychainError {
  return new KeychainError(
    BACKEND,
    `Cannot read "${path}" from the file keychain: "${file}" is not a hark keychain file`,
    { suggestion: "Delete the file and store the secret again", cause },
  );
}
