/**
 * The real {@link Context.connectUnix}: a Unix stream socket through `Deno.connect`.
 *
 * @module
 */

import type { SocketPort } from "../context.ts";

/**
 * Connects to the Unix socket at `path` (a leading NUL: Linux's abstract namespace).
 *
 * @param path the socket's path
 * @throws {Deno.errors.NotFound} or {Deno.errors.ConnectionRefused} when nothing listens there
 */
export async function connectUnix(path: string): Promise<SocketPort> {
  const conn = await Deno.connect({ transport: "unix", path });
  let closed = false;
  return {
    read: (buffer) => conn.read(buffer),
    async write(data) {
      let offset = 0;
      while (offset < data.length) offset += await conn.write(data.subarray(offset));
    },
    close() {
      if (closed) return;
      closed = true;
      conn.close();
    },
  };
}
