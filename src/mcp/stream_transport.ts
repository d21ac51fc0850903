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
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ErrorCode, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types";
import type { OutputStream } from "../context.ts";
import { isObject } from "../json/fields.ts";
import { RequestIdScanner } from "./request_id_scanner.ts";

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

  /**
   * Reads lines and delivers each message. A line longer than {@link MAX_MESSAGE_LENGTH} is
   * not kept: the rest of it is only scanned for its id, then answered with an error.
   */
  async #read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let pending = "";
    let oversized: RequestIdScanner | undefined;
    while (!this.#closed) {
      const { done, value } = await reader.read();
      if (done) break;
      let text = decoder.decode(value, { stream: true });
      if (oversized) {
        const end = text.indexOf("\n");
        oversized.feed(end < 0 ? text : text.slice(0, end));
        if (end < 0) continue;
        this.#refuseOversized(oversized);
        oversized = undefined;
        text = text.slice(end + 1);
      }
      let from = pending.length;
      pending += text;
      let end: number;
      while ((end = pending.indexOf("\n", from)) >= 0) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        from = 0;
        if (line.length <= MAX_MESSAGE_LENGTH) this.#deliver(line);
        else {
          const scanner = new RequestIdScanner();
          scanner.feed(line);
          this.#refuseOversized(scanner);
        }
      }
      if (pending.length > MAX_MESSAGE_LENGTH) {
        oversized = new RequestIdScanner();
        oversized.feed(pending);
        pending = "";
      }
    }
    const rest = pending + decoder.decode();
    if (oversized) {
      oversized.feed(rest);
      this.#refuseOversized(oversized);
    } else if (rest.trim() !== "") this.#deliver(rest);
  }

  #deliver(line: string): void {
    const text = line.replace(/\r$/, "");
    if (text.trim() === "" || this.#closed) return;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      this.#answerError(undefined, ErrorCode.ParseError, "Parse error: the message is not JSON");
      this.onerror?.(new Error("Cannot read a message: it is not JSON-RPC", { cause: error }));
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(json);
    if (!message.success) {
      const id = isObject(json) ? json.id : undefined;
      if (typeof id === "string" || (typeof id === "number" && Number.isInteger(id))) {
        this.#answerError(id, ErrorCode.InvalidRequest, "Invalid request: not a JSON-RPC message");
      }
      this.onerror?.(
        new Error("Cannot read a message: it is not JSON-RPC", { cause: message.error }),
      );
      return;
    }
    this.onmessage?.(message.data);
  }

  /** Answers a message too long to read: with its id when it could be found, else as unparsed. */
  #refuseOversized(scanner: RequestIdScanner): void {
    const problem = `the message is longer than ${MAX_MESSAGE_LENGTH} characters (10 MiB); ` +
      "send less in one call";
    const { id } = scanner;
    if (id === undefined) {
      this.#answerError(undefined, ErrorCode.ParseError, `Parse error: ${problem}`);
    } else this.#answerError(id, ErrorCode.InvalidRequest, `Request too large: ${problem}`);
    this.onerror?.(new Error(`Cannot read a message: ${problem}`));
  }

  /** Writes an error answer; without an id (it could not be read) the answer has none. */
  #answerError(id: string | number | undefined, code: number, message: string): void {
    if (this.#closed) return;
    const answer: JSONRPCMessage = id === undefined
      ? { jsonrpc: "2.0", error: { code, message } }
      : { jsonrpc: "2.0", id, error: { code, message } };
    this.#output.write(serializeMessage(answer));
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
