/**
 * The real {@link Context.openWebSocket}: Deno's WebSocket, its binary messages queued until
 * read (at most {@link MAX_QUEUED}; past it the peer is flooding and the socket is closed).
 *
 * @module
 */

import type { WebSocketPort } from "../context.ts";

/** The most messages waiting to be read. */
const MAX_QUEUED = 4096;

/**
 * Opens a WebSocket.
 *
 * @param url a `ws:` or `wss:` URL (already checked by the caller)
 * @param signal aborts the handshake
 * @throws {Error} when the handshake fails or is aborted
 */
export function openWebSocket(url: string, signal: AbortSignal): Promise<WebSocketPort> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.binaryType = "arraybuffer";
    const queue: (Uint8Array | undefined)[] = [];
    let waiting: ((message: Uint8Array | undefined) => void) | undefined;
    let closed = false;
    const deliver = (message: Uint8Array | undefined) => {
      if (waiting) {
        const w = waiting;
        waiting = undefined;
        w(message);
      } else queue.push(message);
    };
    const abort = () => {
      socket.close();
      reject(signal.reason);
    };
    signal.addEventListener("abort", abort, { once: true });
    socket.onopen = () => {
      signal.removeEventListener("abort", abort);
      resolve({
        receive: () =>
          queue.length > 0 || closed
            ? Promise.resolve(queue.shift())
            : new Promise((r) => waiting = r),
        send: (data) => {
          if (socket.readyState === WebSocket.OPEN) socket.send(data);
        },
        close: () => socket.close(),
      });
    };
    socket.onmessage = (event) => {
      if (!(event.data instanceof ArrayBuffer)) return;
      if (queue.length >= MAX_QUEUED) return socket.close(1009, "too many messages");
      deliver(new Uint8Array(event.data));
    };
    socket.onerror = () => {
      signal.removeEventListener("abort", abort);
      reject(new Error(`the WebSocket handshake with ${new URL(url).host} failed`));
    };
    socket.onclose = () => {
      closed = true;
      deliver(undefined);
    };
  });
}
