/**
 * The event ids already written (or filtered out), so an event Lark delivers again (its answer
 * lost in a reconnect, or late) is answered but not written twice. Memory is bounded: past
 * `capacity` ids the oldest are forgotten (Lark redelivers within minutes, not thousands of
 * events later).
 *
 * @module
 */

/** A bounded set of ids, oldest forgotten first. */
export class SeenIds {
  readonly #ids = new Set<string>();
  readonly #capacity: number;

  /** @param capacity how many ids to remember; default 10 000 */
  constructor(capacity = 10_000) {
    this.#capacity = capacity;
  }

  /** Whether `id` was added and not yet forgotten. */
  has(id: string): boolean {
    return this.#ids.has(id);
  }

  /** Remembers `id`, forgetting the oldest past the capacity. */
  add(id: string): void {
    this.#ids.delete(id);
    this.#ids.add(id);
    if (this.#ids.size > this.#capacity) {
      const oldest = this.#ids.values().next();
      if (!oldest.done) this.#ids.delete(oldest.value);
    }
  }

  /** How many ids are remembered. */
  get size(): number {
    return this.#ids.size;
  }
}
