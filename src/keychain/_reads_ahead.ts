/**
 * The reads a keychain started ahead of a command's first `get` (`Keychain.prepare`), shared by
 * the Secret Service client and the file keychain. Private to `src/keychain/`.
 *
 * A read ahead is for the command that asked for it, taken by the first `get` of its path
 * within {@link READ_AHEAD_MS} of its start: a long-running `hark mcp`, whose keychain outlives
 * each call, never answers a later call with a secret read long before (a token refreshed or
 * replaced since). A new read of the same path replaces an older one, and a write or a delete of
 * the path drops it. A keychain registers its reads before it awaits anything, so that a `get`
 * made after `prepare` takes the read instead of racing it: a read registered after a `get` would
 * otherwise answer the next one, such as the re-read of a token under the refresh lock, with a
 * record older than that `get`.
 *
 * @module
 */

/**
 * How long a read ahead may wait for its `get`, in ms: a command's start-up, with room. Within
 * it, a sign-out made elsewhere after the read is seen one call late (the call's token was read
 * before it; the next call sees the changed sign-in and stops).
 */
export const READ_AHEAD_MS = 2_000;

/** The reads ahead of one keychain, by path. */
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
