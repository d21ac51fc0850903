/**
 * Joins the parts of a data frame: Lark splits a large event into `sum` frames sharing a
 * `message_id`, numbered by `seq`. Everything about the parts comes from the network, so it is
 * bounded: the number of parts, the joined size, how many events may be half-received at once
 * and for how long (on the injected clock).
 *
 * @module
 */

import { type Frame, headerOf } from "./frame.ts";

/** The most parts one event may come in. */
export const MAX_PARTS = 64;
/** The largest joined event, in bytes. */
export const MAX_EVENT_BYTES = 4 * 1024 * 1024;
/** The most events half-received at once; the oldest is dropped past it. */
export const MAX_OPEN = 32;
/** How long the parts of one event may take to arrive, in ms (the SDKs keep them 5–10 s). */
export const PART_TIMEOUT_MS = 10_000;

/** Parts that cannot be joined: dropped with a warning, never written. */
export class PartError extends Error {
  override name = "PartError";
}

interface Open {
  parts: (Uint8Array | undefined)[];
  bytes: number;
  started: number;
}

/** Joins parts by message id. */
export class Assembler {
  readonly #open = new Map<string, Open>();

  /**
   * Adds a data frame's payload.
   *
   * @param frame the frame
   * @param now the clock, ms
   * @returns the whole event's bytes when this frame completed it, else `undefined`
   * @throws {PartError} for a part count or number out of range, a part that disagrees with the
   *   others, or an event over {@link MAX_EVENT_BYTES}; the event's parts are forgotten
   */
  add(frame: Frame, now: number): Uint8Array | undefined {
    const payload = frame.payload ?? new Uint8Array(0);
    const sumText = headerOf(frame, "sum") ?? "1";
    const seqText = headerOf(frame, "seq") ?? "0";
    const id = headerOf(frame, "message_id") ?? "";
    const sum = /^\d{1,6}$/.test(sumText) ? Number(sumText) : NaN;
    const seq = /^\d{1,6}$/.test(seqText) ? Number(seqText) : NaN;
    if (!(sum >= 1 && sum <= MAX_PARTS)) {
      this.#open.delete(id);
      throw new PartError(`a part count of "${sumText.slice(0, 20)}" (at most ${MAX_PARTS})`);
    }
    if (!(seq >= 0 && seq < sum)) {
      this.#open.delete(id);
      throw new PartError(`part number "${seqText.slice(0, 20)}" of ${sum}`);
    }
    if (payload.length > MAX_EVENT_BYTES) {
      this.#open.delete(id);
      throw new PartError(`a part of ${payload.length} bytes (at most ${MAX_EVENT_BYTES})`);
    }
    if (sum === 1) return payload;
    if (id === "") throw new PartError("a part without a message_id");
    let open = this.#open.get(id);
    if (!open) {
      open = { parts: new Array(sum).fill(undefined), bytes: 0, started: now };
      this.#open.set(id, open);
    }
    if (open.parts.length !== sum) {
      this.#open.delete(id);
      throw new PartError(`a part saying ${sum} parts where the first said ${open.parts.length}`);
    }
    if (open.parts[seq] !== undefined) return undefined; // a repeated part: the first stands
    open.parts[seq] = payload;
    open.bytes += payload.length;
    if (open.bytes > MAX_EVENT_BYTES) {
      this.#open.delete(id);
      throw new PartError(`an event of over ${MAX_EVENT_BYTES} bytes`);
    }
    if (open.parts.some((p) => p === undefined)) return undefined;
    this.#open.delete(id);
    const whole = new Uint8Array(open.bytes);
    let at = 0;
    for (const part of open.parts) {
      if (!part) continue;
      whole.set(part, at);
      at += part.length;
    }
    return whole;
  }

  /**
   * Forgets events whose parts are late or too many at once.
   *
   * @param now the clock, ms
   * @returns the message ids forgotten, for a warning each
   */
  expire(now: number): string[] {
    const gone: string[] = [];
    for (const [id, open] of this.#open) {
      if (now - open.started >= PART_TIMEOUT_MS) gone.push(id);
    }
    const overflow = this.#open.size - gone.length - MAX_OPEN;
    if (overflow > 0) {
      gone.push(...[...this.#open.keys()].filter((id) => !gone.includes(id)).slice(0, overflow));
    }
    for (const id of gone) this.#open.delete(id);
    return gone;
  }

  /** How many events are half-received. */
  get size(): number {
    return this.#open.size;
  }
}
