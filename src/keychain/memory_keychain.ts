/**
 * An in-memory keychain, for tests.
 *
 * @module
 */

import { checkKeychainPath, type Keychain } from "./keychain.ts";

/** A keychain backed by a `Map`; `entries` is exposed so tests can look inside. */
export class MemoryKeychain implements Keychain {
  /** The backend's name. */
  readonly backend = "memory";
  /** The stored secrets by path. */
  readonly entries: Map<string, string>;

  /** @param initial secrets to start with, by path */
  constructor(initial: Record<string, string> = {}) {
    this.entries = new Map(Object.entries(initial));
  }

  /** {@inheritDoc Keychain.get} */
  get(path: string): Promise<string | undefined> {
    return Promise.resolve(this.entries.get(checkKeychainPath(path)));
  }

  /** {@inheritDoc Keychain.set} */
  set(path: string, secret: string): Promise<void> {
    this.entries.set(checkKeychainPath(path), secret);
    return Promise.resolve();
  }

  /** {@inheritDoc Keychain.delete} */
  delete(path: string): Promise<boolean> {
    return Promise.resolve(this.entries.delete(checkKeychainPath(path)));
  }

  /** {@inheritDoc Keychain.list} */
  list(): Promise<string[]> {
    return Promise.resolve([...this.entries.keys()].sort());
  }
}
