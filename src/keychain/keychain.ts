/**
 * The keychain's error and the rules for keychain paths; the interface every backend implements
 * is the `Keychain` port of `src/context.ts`.
 *
 * A secret lives at a path `hark/<name>` or `hark/<profile>/<name>`, such as
 * `hark/default/app_secret`. The config file holds only the reference
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

const PATH_PATTERN = /^hark\/[A-Za-z0-9_.@-]+(\/[A-Za-z0-9_.@-]+)?$/;

/**
 * Checks a keychain path: `hark/<name>` or `hark/<profile>/<name>`, where each part is made of
 * letters, digits and `_ . @ -`.
 *
 * @param path the path to check
 * @returns the path
 * @throws {ValidationError} when the path has another shape
 */
export function checkKeychainPath(path: string): string {
  if (!PATH_PATTERN.test(path)) {
    throw new ValidationError(
      `Invalid keychain path "${path}": expected "hark/<name>" or "hark/<profile>/<name>"`,
      { param: "keychain path" },
    );
  }
  return path;
}

/**
 * The keychain path of a profile's secret.
 *
 * @param profile the profile name
 * @param name the secret's name, such as `app_secret` or `user_token`
 */
export function keychainPath(profile: string, name: string): string {
  return checkKeychainPath(`hark/${profile}/${name}`);
}
