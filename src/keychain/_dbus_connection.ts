/**
 * A D-Bus connection over a Unix socket: SASL `EXTERNAL` authentication with the process's user
 * id, `Hello`, then method calls answered by serial. Every answer is read within
 * {@link MAX_MESSAGE_BYTES} and checked by `_dbus_message.ts`; signals and answers to nothing
 * asked are skipped (at most {@link MAX_SKIPPED} per call). Each step takes a signal: when it
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

/** The most messages skipped while waiting for one answer. */
export const MAX_SKIPPED = 1000;
const MAX_AUTH_LINE = 512;
const BUS = {
  destination: "org.freedesktop.DBus",
  path: "/org/freedesktop/DBus",
  interface: "org.freedesktop.DBus",
};

/** A method call: {@link MethodCall} without the serial, with the answer's signature. */
export interface Call extends Omit<MethodCall, "serial"> {
  /** The signature the answer must have; default any. */
  reply?: string;
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
  #buffer = new Uint8Array(0);
  #serial = 0;
  #broken = false;

  private constructor(socket: SocketPort) {
    this.#socket = socket;
  }

  /**
   * Authenticates on a connected socket and says `Hello` to the bus.
   *
   * @param socket the connected socket (closed here when anything fails)
   * @param uid the process's user id, for `EXTERNAL`
   * @param signal aborts the handshake
   * @throws {DBusWireError} when the bus refuses or answers out of the protocol
   */
  static async open(socket: SocketPort, uid: number, signal: AbortSignal): Promise<DBusConnection> {
    const connection = new DBusConnection(socket);
    try {
      const uidHex = Array.from(new TextEncoder().encode(String(uid)), (b) => b.toString(16))
        .join("");
      await connection.#send(new TextEncoder().encode(`\0AUTH EXTERNAL ${uidHex}\r\n`), signal);
      const line = await connection.#readLine(signal);
      if (!/^OK [0-9a-f]{32}$/.test(line)) {
        throw new DBusWireError(
          `the bus refused authentication as user ${uid} ("${line.slice(0, 80)}")`,
        );
      }
      await connection.#send(new TextEncoder().encode("BEGIN\r\n"), signal);
      await connection.call({ ...BUS, member: "Hello", reply: "s" }, signal);
      return connection;
    } catch (error) {
      connection.close();
      throw error;
    }
  }

  /** Whether the connection can still be used (no step was cut off half-way). */
  get usable(): boolean {
    return !this.#broken;
  }

  /**
   * Calls a method and waits for its answer.
   *
   * @param call the call (its serial is this connection's)
   * @param signal aborts the wait
   * @returns the answer's body
   * @throws {DBusCallError} when the answer is an error
   * @throws {DBusWireError} when the answer is malformed or the bus hangs up
   */
  async call(call: Call, signal: AbortSignal): Promise<DBusData[]> {
    const serial = ++this.#serial;
    await this.#send(encodeMethodCall({ ...call, serial }), signal);
    for (let skipped = 0; skipped <= MAX_SKIPPED; skipped++) {
      const message = await this.#readMessage(signal);
      if (message.replySerial !== serial) continue;
      if (message.type === MessageType.reply) {
        const expected = call.reply ?? message.signature;
        if (message.signature !== expected) {
          throw new DBusWireError(
            `${call.member} answered "${message.signature}", not "${expected}"`,
          );
        }
        return message.body;
      }
      if (message.type === MessageType.error) {
        const first = message.body[0];
        throw new DBusCallError(
          message.errorName ?? "org.freedesktop.DBus.Error.Failed",
          typeof first === "string" ? first : "",
        );
      }
    }
    throw new DBusWireError(`the bus sent over ${MAX_SKIPPED} messages without an answer`);
  }

  /** Closes the socket. */
  close(): void {
    this.#broken = true;
    this.#socket.close();
  }

  async #readMessage(signal: AbortSignal): Promise<DBusMessage> {
    await this.#fill(FIXED_HEADER_BYTES, signal);
    const length = messageLength(this.#buffer);
    await this.#fill(length, signal);
    const bytes = this.#buffer.slice(0, length);
    this.#buffer = this.#buffer.slice(length);
    return decodeMessage(bytes);
  }

  async #readLine(signal: AbortSignal): Promise<string> {
    for (;;) {
      const end = this.#buffer.indexOf(0x0a);
      if (end > 0 && this.#buffer[end - 1] === 0x0d) {
        const line = new TextDecoder().decode(this.#buffer.subarray(0, end - 1));
        this.#buffer = this.#buffer.slice(end + 1);
        return line;
      }
      if (this.#buffer.length >= MAX_AUTH_LINE) {
        throw new DBusWireError("the bus sent an authentication line over 512 bytes");
      }
      await this.#fill(this.#buffer.length + 1, signal);
    }
  }

  /** Reads until the buffer holds `n` bytes. */
  async #fill(n: number, signal: AbortSignal): Promise<void> {
    while (this.#buffer.length < n) {
      const chunk = new Uint8Array(Math.max(n - this.#buffer.length, 4096));
      const count = await this.#step(() => this.#socket.read(chunk), signal);
      if (count === null) throw new DBusWireError("the bus closed the connection");
      const grown = new Uint8Array(this.#buffer.length + count);
      grown.set(this.#buffer);
      grown.set(chunk.subarray(0, count), this.#buffer.length);
      this.#buffer = grown;
    }
  }

  #send(bytes: Uint8Array, signal: AbortSignal): Promise<void> {
    return this.#step(() => this.#socket.write(bytes), signal);
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
