/**
 * A fixed number of slots handed out strictly by position: a holder gets a slot only once no
 * earlier position can still ask for one, so that the piece a listing writes next is never kept
 * waiting behind later ones (which would then hold their rows until it is done).
 *
 * @module
 */

/** Slots given in order of position, among the positions that may still ask for one. */
export class OrderedSlots {
  #free: number;
  /** Positions that may still ask for a slot ({@link OrderedSlots.expect}). */
  #undecided = new Set<number>();
  #waiting: { position: number; grant: () => void }[] = [];

  /** @param size how many holders at once (at least 1) */
  constructor(size: number) {
    this.#free = Math.max(1, Math.floor(size));
  }

  /**
   * Says that `position` may ask for a slot: later positions wait for it to ask
   * ({@link OrderedSlots.take}) or to say it will not ({@link OrderedSlots.pass}).
   *
   * @param position the holder's position
   */
  expect(position: number): void {
    this.#undecided.add(position);
  }

  /**
   * Says that `position` will not ask for a slot (again).
   *
   * @param position the holder's position
   */
  pass(position: number): void {
    if (this.#undecided.delete(position)) this.#grant();
  }

  /**
   * Waits for a slot: one is free, and no earlier position is waiting or may still ask.
   *
   * @param position the holder's position
   * @returns a function that frees the slot; calling it more than once frees it once
   */
  async take(position: number): Promise<() => void> {
    this.#undecided.delete(position);
    await new Promise<void>((grant) => {
      const at = this.#waiting.findIndex((w) => w.position > position);
      this.#waiting.splice(at === -1 ? this.#waiting.length : at, 0, { position, grant });
      this.#grant();
    });
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.#free++;
      this.#grant();
    };
  }

  /** How many holders are waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length;
  }

  #grant(): void {
    while (this.#free > 0 && this.#waiting.length > 0) {
      const next = this.#waiting[0];
      for (const position of this.#undecided) if (position < next.position) return;
      this.#waiting.shift();
      this.#free--;
      next.grant();
    }
  }
}
