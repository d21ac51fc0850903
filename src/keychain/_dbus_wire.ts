/**
 * The D-Bus wire format, as far as the Secret Service needs it: values by signature (`y b n q i
 * u x t d h s o g a ( ) { } v`), written little-endian, read in either byte order, and whole
 * messages. Everything read is checked as the specification says (alignment padding of zeros,
 * NUL-terminated valid UTF-8 strings without NUL inside, booleans 0 or 1, nesting depth, lengths
 * within the message), since a bus answer is untrusted input. Private to `src/keychain/`.
 *
 * @module
 */

/** A value on the wire: structs, dict entries and arrays are arrays (`ay` is bytes). */
export type DBusData =
  | number
  | bigint
  | boolean
  | string
  | Uint8Array
  | readonly DBusData[]
  | DBusVariant;

/** A variant: a value with its own signature. */
export interface DBusVariant {
  /** One complete type. */
  readonly signature: string;
  /** The value. */
  readonly value: DBusData;
}

/** Message types. */
export const MessageType = { call: 1, reply: 2, error: 3, signal: 4 } as const;

/** The largest message hark reads (the specification allows 128 MiB; answers here are small). */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
const MAX_DEPTH = 32;

/** A D-Bus message. */
export interface DBusMessage {
  /** {@link MessageType}. */
  type: number;
  /** Flags (1: no reply expected, 2: no auto-start). */
  flags: number;
  /** The sender's serial. */
  serial: number;
  /** The serial this answers (replies and errors). */
  replySerial?: number;
  /** Object path. */
  path?: string;
  /** Interface. */
  interface?: string;
  /** Method or signal name. */
  member?: string;
  /** Error name (errors). */
  errorName?: string;
  /** Destination bus name. */
  destination?: string;
  /** Sender bus name. */
  sender?: string;
  /** The body's signature. */
  signature: string;
  /** The body: one value per complete type of the signature. */
  body: DBusData[];
}

/** A malformed value or message. */
export class DBusWireError extends Error {
  /** @param message what is wrong */
  constructor(message: string) {
    super(message);
    this.name = "DBusWireError";
  }
}

/**
 * Splits a signature into its complete types, checking it.
 *
 * @throws {DBusWireError} when the signature is malformed
 */
export function splitSignature(signature: string): string[] {
  if (signature.length > 255) throw new DBusWireError("a signature is longer than 255");
  const types: string[] = [];
  let at = 0;
  while (at < signature.length) {
    const end = completeTypeEnd(signature, at, 0);
    types.push(signature.slice(at, end));
    at = end;
  }
  return types;
}

function completeTypeEnd(sig: string, at: number, depth: number): number {
  if (depth > MAX_DEPTH) throw new DBusWireError("a signature nests too deeply");
  const c = sig[at];
  if (c !== undefined && "ybnqiuxtdhsogv".includes(c)) return at + 1;
  if (c === "a") {
    if (sig[at + 1] === "{") {
      const key = sig[at + 2];
      if (key === undefined || !"ybnqiuxtdhsog".includes(key)) {
        throw new DBusWireError(`a dict key in "${sig}" is not a basic type`);
      }
      const end = completeTypeEnd(sig, at + 3, depth + 1);
      if (sig[end] !== "}") throw new DBusWireError(`a dict entry in "${sig}" is not closed`);
      return end + 1;
    }
    return completeTypeEnd(sig, at + 1, depth + 1);
  }
  if (c === "(") {
    let end = at + 1;
    if (sig[end] === ")") throw new DBusWireError(`an empty struct in "${sig}"`);
    while (sig[end] !== ")") {
      if (end >= sig.length) throw new DBusWireError(`a struct in "${sig}" is not closed`);
      end = completeTypeEnd(sig, end, depth + 1);
    }
    return end + 1;
  }
  throw new DBusWireError(`"${sig}" is not a valid signature`);
}

function alignment(type: string): number {
  switch (type[0]) {
    case "y":
    case "g":
    case "v":
      return 1;
    case "n":
    case "q":
      return 2;
    case "x":
    case "t":
    case "d":
    case "(":
    case "{":
      return 8;
    default:
      return 4;
  }
}

/** Structs and dict entries: the complete types inside the brackets. */
function members(type: string): string[] {
  return splitSignature(type.slice(1, -1));
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** Writes values little-endian into a growing buffer. */
export class DBusWriter {
  #bytes = new Uint8Array(256);
  #view = new DataView(this.#bytes.buffer);
  #length = 0;

  /** The bytes written. */
  get bytes(): Uint8Array {
    return this.#bytes.slice(0, this.#length);
  }

  /** The number of bytes written. */
  get length(): number {
    return this.#length;
  }

  /** Pads with zeros to a multiple of `n`. */
  align(n: number): void {
    this.#reserve(n);
    while (this.#length % n !== 0) this.#bytes[this.#length++] = 0;
  }

  /**
   * Writes `value` as one complete type.
   *
   * @throws {DBusWireError} when the value does not fit the type
   */
  write(type: string, value: DBusData): void {
    const c = type[0];
    this.align(alignment(type));
    if (c === "y") return this.#fixed(1, (at) => this.#view.setUint8(at, uint(value, 0xff)));
    if (c === "b") {
      if (typeof value !== "boolean") throw mismatch(type, value);
      return this.#fixed(4, (at) => this.#view.setUint32(at, value ? 1 : 0, true));
    }
    if (c === "q") {
      return this.#fixed(2, (at) => this.#view.setUint16(at, uint(value, 0xffff), true));
    }
    if (c === "u" || c === "h") {
      return this.#fixed(4, (at) => this.#view.setUint32(at, uint(value, 0xffffffff), true));
    }
    if (c === "s" || c === "o") {
      if (typeof value !== "string") throw mismatch(type, value);
      if (c === "o") checkObjectPath(value);
      const bytes = encoder.encode(value);
      this.#fixed(4, (at) => this.#view.setUint32(at, bytes.length, true));
      return this.#raw(bytes, true);
    }
    if (c === "g") {
      if (typeof value !== "string") throw mismatch(type, value);
      splitSignature(value);
      this.#fixed(1, (at) => this.#view.setUint8(at, value.length));
      return this.#raw(encoder.encode(value), true);
    }
    if (c === "v") {
      if (!isVariant(value)) throw mismatch(type, value);
      if (splitSignature(value.signature).length !== 1) {
        throw new DBusWireError(`a variant holds "${value.signature}", not one type`);
      }
      this.write("g", value.signature);
      return this.write(value.signature, value.value);
    }
    if (c === "a") return this.#array(type.slice(1), value);
    if (c === "(" || c === "{") {
      const types = members(type);
      if (!Array.isArray(value) || value.length !== types.length) throw mismatch(type, value);
      types.forEach((t, i) => this.write(t, value[i]));
      return;
    }
    throw new DBusWireError(`hark does not write the D-Bus type "${type}"`);
  }

  #array(element: string, value: DBusData): void {
    const lengthAt = this.#length;
    this.#fixed(4, () => {});
    this.align(alignment(element));
    const start = this.#length;
    if (element === "y" && value instanceof Uint8Array) this.#raw(value, false);
    else if (Array.isArray(value)) { for (const item of value) this.write(element, item); }
    else throw mismatch(`a${element}`, value);
    this.#view.setUint32(lengthAt, this.#length - start, true);
  }

  #fixed(size: number, set: (at: number) => void): void {
    this.#reserve(size);
    set(this.#length);
    this.#length += size;
  }

  #raw(bytes: Uint8Array, nul: boolean): void {
    this.#reserve(bytes.length + 1);
    this.#bytes.set(bytes, this.#length);
    this.#length += bytes.length;
    if (nul) this.#bytes[this.#length++] = 0;
  }

  #reserve(more: number): void {
    if (this.#length + more <= this.#bytes.length) return;
    const grown = new Uint8Array(Math.max(this.#bytes.length * 2, this.#length + more));
    grown.set(this.#bytes.subarray(0, this.#length));
    this.#bytes = grown;
    this.#view = new DataView(grown.buffer);
  }
}

/** Reads values of either byte order, checking everything. */
export class DBusReader {
  readonly #bytes: Uint8Array;
  readonly #view: DataView;
  readonly #little: boolean;
  /** The offset of the next byte to read. */
  offset: number;

  /**
   * @param bytes the message (offsets and alignment count from its start)
   * @param littleEndian the message's byte order
   * @param offset where to start
   */
  constructor(bytes: Uint8Array, littleEndian: boolean, offset = 0) {
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#little = littleEndian;
    this.offset = offset;
  }

  /** Skips the zero padding up to a multiple of `n`. */
  align(n: number): void {
    while (this.offset % n !== 0) {
      if (this.#take(1) !== 0) throw new DBusWireError("a padding byte is not zero");
    }
  }

  /**
   * Reads one complete type.
   *
   * @throws {DBusWireError} when the bytes are malformed or run out
   */
  read(type: string, depth = 0): DBusData {
    if (depth > MAX_DEPTH * 2) throw new DBusWireError("a value nests too deeply");
    const c = type[0];
    this.align(alignment(type));
    const at = this.offset;
    switch (c) {
      case "y":
        return this.#take(1);
      case "b": {
        const v = (this.#take(4), this.#view.getUint32(at, this.#little));
        if (v > 1) throw new DBusWireError(`a boolean holds ${v}`);
        return v === 1;
      }
      case "n":
        return (this.#take(2), this.#view.getInt16(at, this.#little));
      case "q":
        return (this.#take(2), this.#view.getUint16(at, this.#little));
      case "i":
        return (this.#take(4), this.#view.getInt32(at, this.#little));
      case "u":
      case "h":
        return (this.#take(4), this.#view.getUint32(at, this.#little));
      case "x":
        return (this.#take(8), this.#view.getBigInt64(at, this.#little));
      case "t":
        return (this.#take(8), this.#view.getBigUint64(at, this.#little));
      case "d":
        return (this.#take(8), this.#view.getFloat64(at, this.#little));
      case "s":
      case "o": {
        const length = (this.#take(4), this.#view.getUint32(at, this.#little));
        const text = this.#text(length);
        if (c === "o") checkObjectPath(text);
        return text;
      }
      case "g": {
        const text = this.#text(this.#take(1));
        splitSignature(text);
        return text;
      }
      case "v": {
        const signature = this.#text(this.#take(1));
        if (splitSignature(signature).length !== 1) {
          throw new DBusWireError(`a variant holds "${signature}", not one type`);
        }
        return { signature, value: this.read(signature, depth + 1) };
      }
      case "a":
        return this.#array(type.slice(1), depth);
      case "(":
      case "{":
        return members(type).map((t) => this.read(t, depth + 1));
    }
    throw new DBusWireError(`"${type}" is not a D-Bus type`);
  }

  #array(element: string, depth: number): DBusData {
    const length = (this.#take(4), this.#view.getUint32(this.offset - 4, this.#little));
    if (length > 64 * 1024 * 1024) throw new DBusWireError("an array is longer than 64 MiB");
    this.align(alignment(element));
    const end = this.offset + length;
    if (end > this.#bytes.length) throw new DBusWireError("an array runs past the message");
    if (element === "y") {
      this.offset = end;
      return this.#bytes.slice(end - length, end);
    }
    const items: DBusData[] = [];
    while (this.offset < end) items.push(this.read(element, depth + 1));
    if (this.offset !== end) throw new DBusWireError("an array's items overrun its length");
    return items;
  }

  #text(length: number): string {
    const start = this.offset;
    if (start + length + 1 > this.#bytes.length) {
      throw new DBusWireError("a string runs past the message");
    }
    const bytes = this.#bytes.subarray(start, start + length);
    if (this.#bytes[start + length] !== 0 || bytes.includes(0)) {
      throw new DBusWireError("a string is not NUL-terminated or holds a NUL");
    }
    this.offset = start + length + 1;
    try {
      return decoder.decode(bytes);
    } catch {
      throw new DBusWireError("a string is not valid UTF-8");
    }
  }

  /** Takes `n` bytes; returns the first one. */
  #take(n: number): number {
    if (this.offset + n > this.#bytes.length) {
      throw new DBusWireError("the message ends in the middle of a value");
    }
    const first = this.#bytes[this.offset];
    this.offset += n;
    return first;
  }
}

function checkObjectPath(path: string): void {
  if (!/^\/$|^(\/[A-Za-z0-9_]+)+$/.test(path)) {
    throw new DBusWireError(`"${path.slice(0, 100)}" is not an object path`);
  }
}

/** Whether a value read is a variant. */
export function isVariant(value: DBusData | undefined): value is DBusVariant {
  return typeof value === "object" && !(value instanceof Uint8Array) && !Array.isArray(value);
}

function uint(value: DBusData, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > max) {
    throw mismatch(`an unsigned integer up to ${max}`, value);
  }
  return value;
}

function mismatch(type: string, value: DBusData): DBusWireError {
  return new DBusWireError(`a ${typeof value} does not fit the D-Bus type "${type}"`);
}
