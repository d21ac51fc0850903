/**
 * The keychain's error, the rules for keychain paths, and the reads ahead the backends share
 * ({@link ReadsAhead}); the interface every backend implements is the `Keychain` port of
 * `src/context.ts`. This module is part of every start-up: a backend's own code loads with it.
 *
 * A secret lives at a path `hark/<name>` or `hark/<profile>/<name>`, such as
 * `hark/default/app_secret`; a config file at another path than the default one keeps its
 * entries under its own namespace, `hark/<namespace>/<profile>/<name>`, so that two config files
 * never share secrets. The config file holds only the reference
 * `@keychain:hark/default/app_secret`.
 *
 * @module
 */

import { HarkError, ValidationError } from "../errors/mod.ts";
import { ExitCode } from "../errors/exit_code.ts";

/** Names of the keychain backends. */
export type KeychainBackendName = "macos" | "linux" | "windows" | "file" | "memory";

export type { Keychain } from "../context.ts";

/** The keychain could not be used: missing, locked, unreachable or a wrong password; exit 1. */
export class KeychainError extends HarkError {
  /** The backend that failed. */
  readonly backend: string;

  /**
   * @param backend the backend's name
   * @param message what failed, naming the backend and the cause
   * @param options recovery overrides and the cause
   */
  constructor(
    backend: string,
    message: string,
    options: { suggestion?: string; command?: string; cause?: unknown } = {},
  ) {
    super(
      ExitCode.General,
      "keychain",
      message,
      {
        suggestion: options.suggestion ??
          "Use the encrypted-file keychain (HARK_KEYCHAIN=file with HARK_KEYCHAIN_PASSWORD set), " +
            "or in CI pass a token in HARK_USER_ACCESS_TOKEN / HARK_TENANT_ACCESS_TOKEN",
        command: options.command ?? "",
      },
      options.cause,
    );
    this.name = "KeychainError";
    this.backend = backend;
  }
}

const SEGMENT = "[A-Za-z0-9_.@-]+";
const PATH_PATTERN = new RegExp(`^hark/${SEGMENT}(/${SEGMENT}){0,2}$`);
const NAMESPACE_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/**
 * Checks a keychain path: `hark/<name>`, `hark/<profile>/<name>` or
 * `hark/<namespace>/<profile>/<name>`, where each part is made of letters, digits and `_ . @ -`.
 *
 * @param path the path to check
 * @returns the path
 * @throws {ValidationError} when the path has another shape
 */
export function checkKeychainPath(path: string): string {
  if (!PATH_PATTERN.test(path)) {
    throw new ValidationError(
      `Invalid keychain path "${path}": expected "hark/<name>", "hark/<profile>/<name>" or ` +
        `"hark/<namespace>/<profile>/<name>"`,
      { param: "keychain path" },
    );
  }
  return path;
}

/**
 * Whether `namespace` is a valid keychain namespace: 1 to 32 lower-case letters, digits, `_` or
 * `-`, starting with a letter or digit.
 *
 * @param namespace the candidate
 */
export function isKeychainNamespace(namespace: unknown): namespace is string {
  return typeof namespace === "string" && NAMESPACE_PATTERN.test(namespace);
}

/**
 * The keychain path of a profile's secret: `hark/<profile>/<name>`, or
 * `hark/<namespace>/<profile>/<name>` for a config with a namespace.
 *
 * @param profile the profile name
 * @param name the secret's name, such as `app_secret` or `user_token`
 * @param namespace the config's keychain namespace, when it has one
 */
export function keychainPath(profile: string, name: string, namespace?: string): string {
  return checkKeychainPath(
    namespace === undefined ? `hark/${profile}/${name}` : `hark/${namespace}/${profile}/${name}`,
  );
}

/**
 * Whether `path` is one of a profile's own entries: exactly `hark/<profile>/<name>` without a
 * namespace, or `hark/<namespace>/<profile>/<name>` with one. A namespace never matches a profile
 * of another config: the depth tells them apart.
 *
 * @param path a keychain path
 * @param profile the profile
 * @param namespace the config's keychain namespace, when it has one
 */
export function isProfileEntry(path: string, profile: string, namespace?: string): boolean {
  const parts = path.split("/");
  if (namespace === undefined) return parts.length === 3 && parts[1] === profile;
  return parts.length === 4 && parts[1] === namespace && parts[2] === profile;
}

/** The ways out of an unusable OS keychain, as the end of a suggestion sentence. */
export const WAYS_OUT = "or use the encrypted-file keychain (hark config init at a terminal " +
  "offers it; or HARK_KEYCHAIN=file, kept with hark config set preferences.keychain file; its " +
  "password typed at a terminal or in HARK_KEYCHAIN_PASSWORD), or in CI pass a token in " +
  "HARK_USER_ACCESS_TOKEN / HARK_TENANT_ACCESS_TOKEN";

/** The first line of a tool's stderr, or a placeholder when it printed nothing. */
export function firstLine(text: string, fallback = "no error message"): string {
  const line = text.split("\n").map((l) => l.trim()).find((l) => l.length > 0);
  return line ?? fallback;
}

/*
 * The reads a keychain started ahead of a command's first `get` (`Keychain.prepare`), shared by
 * the Secret Service client and the file keychain. They live here, in code every start-up loads,
 * so that neither backend's chunk has to load the other's code or a file of its own for them.
 *
 * A read ahead is for the command that asked for it, taken by the first `get` of its path
 * within {@link READ_AHEAD_MS} of its start: a long-running `hark mcp`, whose keychain outlives
 * each call, never answers a later call with a secret read long before (a token refreshed or
 * replaced since). A new read of the same path replaces an older one, and a write or a delete of
 * the path drops it. A keychain registers its reads before it awaits anything, so that a `get`
 * made after `prepare` takes the read instead of racing it: a read registered after a `get` would
 * otherwise answer the next one, such as the re-read of a token under the refresh lock, with a
 * record older than that `get`.
 */

/**
 * How long a read ahead may wait for its `get`, in ms: a command's start-up, with room. Within
 * it, a sign-out made elsewhere after the read is seen one call late (the call's token was read
 * before it; the next call sees the changed sign-in and stops).
 */
export const READ_AHEAD_MS = 2_000;

/** The reads ahead of one keychain, by path (for the backends; `mod.ts` does not export it). */
export class ReadsAhead {
  readonly #now: () => number;
  readonly #reads = new Map<string, { read: Promise<string | undefined>; at: number }>();

  /** @param now the clock (the context's) */
  constructor(now: () => number) {
    this.#now = now;
  }

  /** Keeps `read` for `path`, replacing an earlier one; its failure waits for its `get`. */
  start(path: string, read: Promise<string | undefined>): void {
    read.catch(() => {});
    this.#reads.set(path, { read, at: this.#now() });
  }

  /** The read ahead of `path`, once, or `undefined` when there is none or it is too old. */
  take(path: string): Promise<string | undefined> | undefined {
    const ahead = this.#reads.get(path);
    this.#reads.delete(path);
    if (ahead === undefined) return undefined;
    // A clock set back makes an old read look new: it counts as too old.
    const age = this.#now() - ahead.at;
    return age >= 0 && age <= READ_AHEAD_MS ? ahead.read : undefined;
  }

  /** Forgets the read ahead of `path` (it is written or deleted), or of every path. */
  drop(path?: string): void {
    if (path === undefined) this.#reads.clear();
    else this.#reads.delete(path);
  }
}
