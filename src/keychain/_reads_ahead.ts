/**
 * The reads a keychain started ahead of a command's first `get` (`Keychain.prepare`), shared by
 * the Secret Service client and the file keychain. Private to `src/keychain/`.
 *
 * A read ahead is for the command that asked for it, taken by the first `get` of its path
 * within {@link READ_AHEAD_MS} of its start: a long-running `hark mcp`, whose keychain outlives
 * each call, never answers a later call with a secret read long before (a token refreshed or
 * replaced since). A new read of the same path replaces an older one, and a write or a delete of
 * the path drops it.
 *
 * @module
 */

/** How long a read ahead may wait for its `get`, in ms: a command's start-up, with room. */
export const READ_AHEAD_MS = 10_000;

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
    return ahead !== undefined && this.#now() - ahead.at <= READ_AHEAD_MS ? ahead.read : undefined;
  }

  /** Forgets the read ahead of `path` (it is written or deleted), or of every path. */
  drop(path?: string): void {
    if (path === undefined) this.#reads.clear();
    else this.#reads.delete(path);
  }
}
