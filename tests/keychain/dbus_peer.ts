/**
 * A bare D-Bus peer for tests: it connects to a bus (a private `dbus-daemon`), authenticates,
 * says `Hello`, and then sends any message it is given, method returns and errors included, so
 * that a test can play the Secret Service or a hostile process next to it. Messages are written
 * with the product's own wire writer (`_dbus_wire.ts`), whose bytes its tests check by hand.
 *
 * @module
 */

import type { SocketPort } from "../../src/context.ts";
import {
  decodeMessage,
  FIXED_HEADER_BYTES,
  messageLength,
} from "../../src/keychain/_dbus_message.ts";
import {
  type DBusData,
  type DBusMessage,
  DBusWriter,
  splitSignature,
} from "../../src/keychain/_dbus_wire.ts";

/** A message to send: the header fields by name, and a body matching `signature`. */
export interface OutgoingMessage {
  type: number;
  replySerial?: number;
  path?: string;
  interface?: string;
  member?: string;
  errorName?: string;
  destination?: string;
  /** Set by the bus daemon on a real bus; given only to a connection read from a fake socket. */
  sender?: string;
  signature?: string;
  body?: DBusData[];
}

const FIELD_CODES: [keyof OutgoingMessage, number, string][] = [
  ["path", 1, "o"],
  ["interface", 2, "s"],
  ["member", 3, "s"],
  ["errorName", 4, "s"],
  ["replySerial", 5, "u"],
  ["destination", 6, "s"],
  ["sender", 7, "s"],
  ["signature", 8, "g"],
];

/** Writes any message little-endian with the given serial. */
export function encodeMessage(message: OutgoingMessage, serial: number): Uint8Array {
  const body = new DBusWriter();
  const types = splitSignature(message.signature ?? "");
  types.forEach((type, i) => body.write(type, (message.body ?? [])[i]));
  const fields: DBusData[] = [];
  for (const [key, code, signature] of FIELD_CODES) {
    const value = message[key];
    if (value !== undefined && value !== "" && !Array.isArray(value)) {
      fields.push([code, { signature, value }]);
    }
  }
  const head = new DBusWriter();
  for (const byte of [0x6c, message.type, 0, 1]) head.write("y", byte);
  head.write("u", body.length);
  head.write("u", serial);
  head.write("a(yv)", fields);
  head.align(8);
  const out = new Uint8Array(head.length + body.length);
  out.set(head.bytes);
  out.set(body.bytes, head.length);
  return out;
}

/** A connection of the test's own to a bus. */
export class DBusPeer {
  readonly #conn: Deno.UnixConn;
  #buffer = new Uint8Array(0);
  #serial = 0;
  readonly #queue: DBusMessage[] = [];
  /** The unique name the bus gave this peer. */
  uniqueName = "";

  private constructor(conn: Deno.UnixConn) {
    this.#conn = conn;
  }

  /** Connects to the bus listening at `socket` and says `Hello`. */
  static async connect(socket: string): Promise<DBusPeer> {
    const peer = new DBusPeer(await Deno.connect({ transport: "unix", path: socket }));
    const uid = Array.from(new TextEncoder().encode(String(Deno.uid())), (b) => b.toString(16));
    await peer.#write(new TextEncoder().encode(`\0AUTH EXTERNAL ${uid.join("")}\r\n`));
    const line = await peer.#readLine();
    if (!line.startsWith("OK ")) throw new Error(`the bus refused the test peer: ${line}`);
    await peer.#write(new TextEncoder().encode("BEGIN\r\n"));
    const [name] = await peer.callBus("Hello");
    peer.uniqueName = String(name);
    return peer;
  }

  /** Sends a message; returns its serial. */
  async send(message: OutgoingMessage): Promise<number> {
    const serial = ++this.#serial;
    await this.#write(encodeMessage(message, serial));
    return serial;
  }

  /** Calls a method of the bus itself and returns the answer's body. */
  async callBus(member: string, signature = "", body: DBusData[] = []): Promise<DBusData[]> {
    const serial = await this.send({
      type: 1,
      destination: "org.freedesktop.DBus",
      path: "/org/freedesktop/DBus",
      interface: "org.freedesktop.DBus",
      member,
      signature,
      body,
    });
    for (;;) {
      const message = await this.#read();
      if (message.replySerial === serial) {
        if (message.type === 3) throw new Error(`${member}: ${message.errorName}`);
        return message.body;
      }
      this.#queue.push(message);
    }
  }

  /** The next method call addressed to this peer (signals are skipped). */
  async nextCall(): Promise<DBusMessage> {
    for (;;) {
      const message = this.#queue.shift() ?? await this.#read();
      if (message.type === 1) return message;
    }
  }

  /** Closes the connection. */
  close(): void {
    this.#conn.close();
  }

  async #read(): Promise<DBusMessage> {
    await this.#fill(FIXED_HEADER_BYTES);
    const length = messageLength(this.#buffer);
    await this.#fill(length);
    const bytes = this.#buffer.slice(0, length);
    this.#buffer = this.#buffer.slice(length);
    return decodeMessage(bytes);
  }

  async #readLine(): Promise<string> {
    for (;;) {
      const end = this.#buffer.indexOf(0x0a);
      if (end >= 0) {
        const line = new TextDecoder().decode(this.#buffer.subarray(0, end)).trimEnd();
        this.#buffer = this.#buffer.slice(end + 1);
        return line;
      }
      await this.#fill(this.#buffer.length + 1);
    }
  }

  async #fill(n: number): Promise<void> {
    while (this.#buffer.length < n) {
      const chunk = new Uint8Array(65536);
      const count = await this.#conn.read(chunk);
      if (count === null) throw new Error("the bus closed the test peer's connection");
      const grown = new Uint8Array(this.#buffer.length + count);
      grown.set(this.#buffer);
      grown.set(chunk.subarray(0, count), this.#buffer.length);
      this.#buffer = grown;
    }
  }

  async #write(bytes: Uint8Array): Promise<void> {
    let offset = 0;
    while (offset < bytes.length) offset += await this.#conn.write(bytes.subarray(offset));
  }
}

/**
 * A socket that hands out `incoming` in reads of at most `step(i)` bytes (the whole buffer by
 * default), then ends; writes go nowhere.
 */
export function scriptedSocket(
  incoming: Uint8Array,
  step: (i: number) => number = () => Infinity,
): SocketPort {
  let left = incoming;
  let reads = 0;
  return {
    read(buffer) {
      if (left.length === 0) return Promise.resolve(null);
      const n = Math.min(buffer.length, left.length, step(reads++));
      buffer.set(left.subarray(0, n));
      left = left.subarray(n);
      return Promise.resolve(n);
    },
    write: () => Promise.resolve(),
    close() {},
  };
}
