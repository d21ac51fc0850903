/**
 * Finds the `id` of a JSON-RPC message too long to parse, reading its text piece by piece
 * without keeping it: the transport answers such a message with an error carrying its id, so
 * the client's call fails at once instead of waiting for its own timeout. The SDK's client
 * writes `id` last, after `params`, so the whole text is scanned; only the top-level object's
 * keys are looked at, whatever the nesting inside.
 *
 * @module
 */

/** The longest `id` value kept while scanning, in characters (a number or a short string). */
const MAX_ID_TEXT = 256;

/** Scans a JSON text for the top-level `id` of an object. */
export class RequestIdScanner {
  #depth = 0;
  #inString = false;
  #escaped = false;
  /** At depth 1: whether the next string is a key. */
  #expectKey = false;
  /** The key being read, while it is short enough to matter. */
  #key: string | undefined;
  /** The last key read at depth 1. */
  #lastKey: string | undefined;
  /** The value of `id` being read, from its first character. */
  #value: string | undefined;
  #id: string | number | undefined;
  #malformed = false;

  /**
   * Reads the next piece of the text.
   *
   * @param text the piece
   */
  feed(text: string): void {
    for (let i = 0; i < text.length && !this.#malformed; i++) this.#step(text[i]);
  }

  /** The top-level `id` (a string or an integer), once read; `undefined` when there is none. */
  get id(): string | number | undefined {
    return this.#id;
  }

  #step(c: string): void {
    if (this.#value !== undefined) {
      // Reading the id's value: it ends at a comma or the object's end, outside a string.
      if (!this.#inString && this.#depth === 1 && (c === "," || c === "}")) {
        this.#endValue();
      } else if (this.#value.length < MAX_ID_TEXT) {
        this.#value += c;
      }
    } else if (this.#key !== undefined && this.#inString && !this.#escaped && c !== '"') {
      if (this.#key.length < 8) this.#key += c;
    }
    if (this.#inString) {
      if (this.#escaped) this.#escaped = false;
      else if (c === "\\") this.#escaped = true;
      else if (c === '"') {
        this.#inString = false;
        if (this.#key !== undefined) {
          this.#lastKey = this.#key;
          this.#key = undefined;
        }
      }
      return;
    }
    switch (c) {
      case '"':
        this.#inString = true;
        if (this.#depth === 1 && this.#expectKey && this.#value === undefined) {
          this.#key = "";
          this.#expectKey = false;
        }
        return;
      case "{":
      case "[":
        this.#depth++;
        if (this.#depth === 1) this.#expectKey = c === "{";
        if (this.#depth === 1 && c === "[") this.#malformed = true; // a batch: no one id
        return;
      case "}":
      case "]":
        this.#depth--;
        return;
      case ",":
        if (this.#depth === 1) this.#expectKey = true;
        return;
      case ":":
        if (this.#depth === 1 && this.#lastKey === "id" && this.#value === undefined) {
          this.#value = "";
        }
        return;
    }
  }

  #endValue(): void {
    const text = (this.#value ?? "").trim();
    this.#value = undefined;
    this.#lastKey = undefined;
    this.#expectKey = true;
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === "string" || (typeof value === "number" && Number.isInteger(value))) {
        this.#id = value;
      }
    } catch {
      // Not a JSON value: no id.
    }
  }
}
