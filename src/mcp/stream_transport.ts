/**
 * The MCP stdio transport over the context's streams: newline-delimited JSON-RPC read from a
 * byte stream (stdin) and written to an {@link OutputStream} (stdout). The SDK's own stdio
 * transport reads Node's `process.stdin` directly; this one takes its streams, so tests drive it
 * in memory and nothing but the protocol can reach stdout through it.
 *
 * @module
 */

// The SDK's wildcard export maps "./*" to "*.d.ts", which misses "stdio.js": name the types.
// @ts-types="@modelcontextprotocol/sdk/shared/stdio"
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types";
import type { OutputStream } from "../context.ts";

/** The longest message accepted, in characters: what the SDK's stdio transport allows. */
export const MAX_MESSAGE_LENGTH = 10 * 1024 * 1024;

/** An MCP transport over a byte stream in and a text stream out. */
export class StreamTransport implements Transport {
  /** Called once the transport is closed (end of input, or {@link close}). */
  onclose?: () => void;
  /** Called for an unreadable message; the transport goes on with the next line. */
  onerror?: (error: Error) => void;
  /** Called for each message read. */
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #input: ReadableStream<Uint8Array>;
  readonly #output: OutputStream;
  #reader?: ReadableStreamDefaultReader<Uint8Array>;
  #closed = false;

  /**
   * @param input where messages come from, one JSON object per line (stdin)
   * @param output where messages go, one per line (stdout)
   */
  constructor(input: ReadableStream<Uint8Array>, output: OutputStream) {
    this.#input = input;
    this.#output = output;
  }

  /** Starts reading; the SDK calls it on `connect`. */
  start(): Promise<void> {
    if (this.#reader) throw new Error("Cannot start the transport: it is already started");
    this.#reader = this.#input.getReader();
    this.#read(this.#reader).catch((error) => this.onerror?.(asError(error)))
      .finally(() => this.close());
    return Promise.resolve();
  }

  /**
   * Writes one message as a line.
   *
   * @param message the JSON-RPC message
   */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("Cannot send: the transport is closed"));
    this.#output.write(serializeMessage(message));
    return Promise.resolve();
  }

  /** Stops reading and reports the close once. */
  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#reader?.cancel().catch(() => undefined);
    this.onclose?.();
    return Promise.resolve();
  }

  async #read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let pending = "";
    while (!this.#closed) {
      const { done, value } = await reader.read();
      if (done) break;
      pending += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = pending.indexOf("\n")) >= 0) {
        this.#deliver(pending.slice(0, end));
        pending = pending.slice(end + 1);
      }
      if (pending.length > MAX_MESSAGE_LENGTH) {
        pending = "";
        this.onerror?.(
          new Error(`Cannot read a message longer than ${MAX_MESSAGE_LENGTH} characters`),
        );
      }
    }
    pending += decoder.decode();
    if (pending.trim() !== "") this.#deliver(pending);
  }

  #deliver(line: string): void {
    const text = line.replace(/\r$/, "");
    if (text.trim() === "" || this.#closed) return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(text);
    } catch (error) {
      this.onerror?.(new Error("Cannot read a message: it is not JSON-RPC", { cause: error }));
      return;
    }
    this.onmessage?.(message);
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
