/**
 * A fixed number of slots handed out by position: when every slot is taken, the waiter with the
 * lowest position gets the next one freed, so that the piece a listing writes next is not kept
 * waiting behind later ones.
 *
 * @module
 */

/** Slots given first to the lowest position waiting. */
export class OrderedSlots {
  #free: number;
  #waiting: { position: number; grant: () => void }[] = [];

  /** @param size how many holders at once (at least 1) */
  constructor(size: number) {
    this.#free = Math.max(1, Math.floor(size));
  }

  /**
   * Waits for a slot.
   *
   * @param position the holder's position (lower goes first)
   * @returns a function that frees the slot; calling it more than once frees it once
   */
  async take(position: number): Promise<() => void> {
    if (this.#free > 0) this.#free--;
    else {
      await new Promise<void>((grant) => {
        const at = this.#waiting.findIndex((w) => w.position > position);
        this.#waiting.splice(at === -1 ? this.#waiting.length : at, 0, { position, grant });
      });
    }
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const next = this.#waiting.shift();
      if (next) next.grant();
      else this.#free++;
    };
  }

  /** How many holders are waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length;
  }
}
