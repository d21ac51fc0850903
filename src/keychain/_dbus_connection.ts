/**
 * A D-Bus connection over a Unix socket: SASL `EXTERNAL` authentication with the process's user
 * id, `Hello`, then method calls answered by serial. Every answer is read within
 * {@link MAX_MESSAGE_BYTES} and checked by `_dbus_message.ts`; signals, answers to nothing asked
 * and answers from another sender than the one a call names ({@link Call.from}) are skipped (at
 * most {@link MAX_SKIPPED} per call): a session bus lets any process send a method return or an
 * error to any connection, and only the sender field, which the bus daemon writes itself, tells
 * the callee's answer from a forged one. A call may go out before its callee's unique name is
 * known ({@link OwnerSlot}): its answer is taken only once the bus named the owner, and only from
 * that owner. Each step takes a signal: when it
 * aborts (the keychain's timeout, Ctrl-C) the socket is closed and the step rejects with the
 * signal's reason. Private to `src/keychain/`.
 *
 * @module
 */

import type { SocketPort } from "../context.ts";
import {
  decodeMessage,
  encodeMethodCall,
  FIXED_HEADER_BYTES,
  messageLength,
} from "./_dbus_message.ts";
import { type DBusData, type DBusMessage, DBusWireError, MessageType } from "./_dbus_wire.ts";
import type { MethodCall } from "./_dbus_message.ts";

/** The bytes a read asks the socket for, at least. */
const READ_BYTES = 4096;
/** The most messages skipped while waiting for one answer. */
export const MAX_SKIPPED = 1000;
const MAX_AUTH_LINE = 512;
/** The bus daemon's own name, which no other connection can own. */
export const BUS_NAME = "org.freedesktop.DBus";
const BUS = {
  destination: BUS_NAME,
  path: "/org/freedesktop/DBus",
  interface: "org.freedesktop.DBus",
};

/**
 * The unique name owning a well-known name, filled in from the answer to a `GetNameOwner` call
 * ({@link Call.names}) the moment that answer is read. The bus answers that call before it
 * routes calls sent after it to the name, so an answer to one of those read while the slot is
 * still empty cannot be the owner's: it is skipped.
 */
export interface OwnerSlot {
  /** The owner's unique name, once the bus has named it. */
  name: string | undefined;
}

/** A method call: {@link MethodCall} without the serial, with the answer's signature. */
export interface Call extends Omit<MethodCall, "serial"> {
  /** The signature the answer must have; default any. */
  reply?: string;
  /**
   * The unique name the answer must come from, or the slot the bus's `GetNameOwner` answer fills
   * with it; the bus daemon's errors (a callee that is gone or never answered) are taken too.
   * Default any sender.
   */
  from?: string | OwnerSlot;
  /** A `GetNameOwner` call: the slot its answer, a unique name, fills in. */
  names?: OwnerSlot;
}

/** An error answer to a method call. */
export class DBusCallError extends Error {
  /** The D-Bus error name, such as `org.freedesktop.Secret.Error.IsLocked`. */
  readonly errorName: string;
  /** The error's message as the service sent it (untrusted text). */
  readonly detail: string;

  /**
   * @param errorName the error name
   * @param detail the first string of the error's body, if any
   */
  constructor(errorName: string, detail: string) {
    super(`${errorName}: ${detail}`);
    this.name = "DBusCallError";
    this.errorName = errorName;
    this.detail = detail;
  }
}

/** An authenticated connection to a bus. */
export class DBusConnection {
  readonly #socket: SocketPort;
  /**
   * What was read and not yet taken is `#data[#start, #end)`; one buffer for the connection's
   * life, so that reading allocates nothing but the messages, whose bytes are zeroed once taken.
   */
  #data = new Uint8Array(READ_BYTES);
  #start = 0;
  #end = 0;
  #serial = 0;
  #broken = false;
  #authenticated = false;
  /** Answers read while waiting for another, by the serial they answer. */
  readonly #answers = new Map<number, DBusMessage>();
  /** Serials sent and not yet answered, with the sender their answer must come from. */
  readonly #outstanding = new Map<number, Pick<Call, "from" | "names">>();
  #writing: Promise<void> = Promise.resolve();
  #reading: Promise<unknown> = Promise.resolve();

  private constructor(socket: SocketPort) {
    this.#socket = socket;
  }

  /**
   * Starts a connection on a connected socket: the SASL `EXTERNAL` exchange, `BEGIN` and
   * `Hello` go out in one write, as sd-bus sends them, and calls may follow at once; the bus's
   * `OK` is checked before the first answer is read (a refusal rejects that call).
   *
   * @param socket the connected socket (closed when anything fails)
   * @param uid the process's user id, for `EXTERNAL`
   * @param signal aborts the first write
   */
  static open(socket: SocketPort, uid: number, signal: AbortSignal): DBusConnection {
    const connection = new DBusConnection(socket);
    const uidHex = Array.from(new TextEncoder().encode(String(uid)), (b) => b.toString(16))
      .join("");
    const auth = new TextEncoder().encode(`\0AUTH EXTERNAL ${uidHex}\r\nBEGIN\r\n`);
    const hello = encodeMethodCall({ ...BUS, member: "Hello", serial: ++connection.#serial });
    const bytes = new Uint8Array(auth.length + hello.length);
    bytes.set(auth);
    bytes.set(hello, auth.length);
    // A failed write breaks the connection: the first call reports it.
    connection.#write(bytes, signal).catch(() => {});
    return connection;
  }

  /**
   * Calls a method and waits for its answer. Calls may overlap: each is sent at once, and the
   * answers are matched by serial whatever order they come in.
   *
   * @param call the call (its serial is this connection's)
   * @param signal aborts the wait
   * @returns the answer's body
   * @throws {DBusCallError} when the answer is an error
   * @throws {DBusWireError} when the answer is malformed or the bus hangs up
   */
  async call(call: Call, signal: AbortSignal): Promise<DBusData[]> {
    const serial = ++this.#serial;
    this.#outstanding.set(serial, { from: call.from, names: call.names });
    const sent = this.#write(encodeMethodCall({ ...call, serial }), signal);
    const answer = this.#reading.then(() => this.#answer(serial, signal));
    this.#reading = answer.catch(() => {});
    await sent;
    const message = await answer;
    if (message.type === MessageType.error) {
      const first = message.body[0];
      throw new DBusCallError(
        message.errorName ?? "org.freedesktop.DBus.Error.Failed",
        typeof first === "string" ? first : "",
      );
    }
    const expected = call.reply ?? message.signature;
    if (message.signature !== expected) {
      throw new DBusWireError(`${call.member} answered "${message.signature}", not "${expected}"`);
    }
    return message.body;
  }

  /** Closes the socket. */
  close(): void {
    this.#broken = true;
    this.#socket.close();
  }

  /** Reads until the answer to `serial` is in, keeping the answers to other calls. */
  async #answer(serial: number, signal: AbortSignal): Promise<DBusMessage> {
    if (!this.#authenticated) {
      const line = await this.#readLine(signal);
      if (!/^OK [0-9a-f]{32}$/.test(line)) {
        this.close();
        throw new DBusWireError(`the bus refused authentication ("${line.slice(0, 80)}")`);
      }
      this.#authenticated = true;
    }
    for (let skipped = 0; skipped <= MAX_SKIPPED; skipped++) {
      const kept = this.#answers.get(serial);
      if (kept !== undefined) {
        this.#answers.delete(serial);
        this.#outstanding.delete(serial);
        return kept;
      }
      const message = await this.#readMessage(signal);
      const answers = message.replySerial;
      const isAnswer = message.type === MessageType.reply || message.type === MessageType.error;
      const asked = answers === undefined ? undefined : this.#outstanding.get(answers);
      if (isAnswer && answers !== undefined && asked !== undefined && takes(asked, message)) {
        this.#answers.set(answers, message);
        const [name] = message.type === MessageType.reply ? message.body : [];
        if (asked.names && typeof name === "string" && name.startsWith(":")) {
          asked.names.name = name;
        }
      }
    }
    throw new DBusWireError(`the bus sent over ${MAX_SKIPPED} messages without an answer`);
  }

  /** Queues a write after the ones before it. */
  #write(bytes: Uint8Array, signal: AbortSignal): Promise<void> {
    const written = this.#writing.then(() => this.#step(() => this.#socket.write(bytes), signal));
    this.#writing = written.catch(() => {});
    return written;
  }

  async #readMessage(signal: AbortSignal): Promise<DBusMessage> {
    await this.#fill(FIXED_HEADER_BYTES, signal);
    const length = messageLength(this.#data.subarray(this.#start, this.#end));
    await this.#fill(length, signal);
    // A copy: the decoded values may be views of it, and the buffer is read into again.
    const bytes = this.#take(length);
    return decodeMessage(bytes);
  }

  async #readLine(signal: AbortSignal): Promise<string> {
    for (;;) {
      const pending = this.#data.subarray(this.#start, this.#end);
      const end = pending.indexOf(0x0a);
      if (end > 0 && pending[end - 1] === 0x0d) {
        const line = new TextDecoder().decode(pending.subarray(0, end - 1));
        this.#take(end + 1);
        return line;
      }
      if (pending.length >= MAX_AUTH_LINE) {
        throw new DBusWireError("the bus sent an authentication line over 512 bytes");
      }
      await this.#fill(pending.length + 1, signal);
    }
  }

  /** The next `n` bytes read, copied; their place in the buffer is zeroed. */
  #take(n: number): Uint8Array {
    const bytes = this.#data.slice(this.#start, this.#start + n);
    this.#data.fill(0, this.#start, this.#start + n);
    this.#start += n;
    return bytes;
  }

  /** Reads until `n` bytes are waiting. */
  async #fill(n: number, signal: AbortSignal): Promise<void> {
    while (this.#end - this.#start < n) {
      const waiting = this.#end - this.#start;
      // Room for what is missing and a read of READ_BYTES: at the front, or in a larger buffer.
      const room = Math.max(n, waiting + READ_BYTES);
      if (this.#data.length - this.#start < room) {
        if (this.#data.length >= room) {
          this.#data.copyWithin(0, this.#start, this.#end);
          this.#data.fill(0, waiting);
        } else {
          const data = new Uint8Array(room);
          data.set(this.#data.subarray(this.#start, this.#end));
          this.#data.fill(0);
          this.#data = data;
        }
        this.#start = 0;
        this.#end = waiting;
      }
      const into = this.#data.subarray(this.#end);
      const count = await this.#step(() => this.#socket.read(into), signal);
      if (count === null) throw new DBusWireError("the bus closed the connection");
      this.#end += count;
    }
  }

  /** Runs one socket step; an abort closes the socket and rejects with the signal's reason. */
  async #step<T>(step: () => Promise<T>, signal: AbortSignal): Promise<T> {
    if (this.#broken) throw new DBusWireError("the connection was cut off earlier");
    signal.throwIfAborted();
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        this.close();
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      const running = step();
      // Closing the socket on abort makes a pending read fail later: nobody waits for it then.
      running.catch(() => {});
      return await Promise.race([running, aborted]);
    } catch (error) {
      this.#broken = true;
      throw error;
    } finally {
      if (onAbort) signal.removeEventListener("abort", onAbort);
    }
  }
}

/** Whether `message` may answer a call asked with these terms (see {@link Call.from}). */
function takes(asked: Pick<Call, "from">, message: DBusMessage): boolean {
  if (asked.from === undefined) return true;
  if (message.type === MessageType.error && message.sender === BUS_NAME) return true;
  const from = typeof asked.from === "string" ? asked.from : asked.from.name;
  return from !== undefined && message.sender === from;
}

/**
 * `promise` settled, or the signal's reason once it aborts (the promise goes on).
 *
 * @param promise what to wait for
 * @param signal aborts the wait
 */
export function settled(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    }),
  ]);
}
