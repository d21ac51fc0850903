/**
 * A small HTTP/1.1 server on raw TCP, so the sandbox can do what `Deno.serve` cannot: close a
 * connection without any answer ("drop") and promise a `Content-Length` it never delivers
 * ("truncated"). It keeps connections alive, reads `Content-Length` and chunked request bodies,
 * and answers one request at a time per connection (clients do not pipeline).
 *
 * @module
 */

/** What a handler returns: a response, a request to close the connection, or a cut response. */
export type HttpReply = Response | { drop: true } | { truncate: Response };

/** Facts about the TCP connection a request arrived on. */
export interface ConnectionInfo {
  /** The client's TCP port; distinct ports are distinct connections. */
  remotePort: number;
}

/** Handles one parsed request. */
export type HttpHandler = (request: Request, info: ConnectionInfo) => Promise<HttpReply>;

/** A running server. */
export interface HttpServer {
  /** The bound port (useful with port 0). */
  port: number;
  /** Aborted when the server closes, so handlers can stop sleeping. */
  signal: AbortSignal;
  /** Stops accepting, closes every connection and waits for their loops to end. */
  close(): Promise<void>;
}

const MAX_HEAD = 64 * 1024;
const MAX_BODY = 32 * 1024 * 1024;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

class ConnectionClosed extends Error {}

class BufferedConn {
  #buf: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  constructor(readonly conn: Deno.TcpConn) {}

  async #fill(): Promise<boolean> {
    const chunk = new Uint8Array(64 * 1024);
    const n = await this.conn.read(chunk);
    if (n === null) return false;
    const next = new Uint8Array(this.#buf.length + n);
    next.set(this.#buf);
    next.set(chunk.subarray(0, n), this.#buf.length);
    this.#buf = next;
    return true;
  }

  /** Reads up to and including the blank line; null on a clean end of stream. */
  async readHead(): Promise<string | null> {
    while (true) {
      const end = indexOfCrlfCrlf(this.#buf);
      if (end >= 0) {
        const head = decoder.decode(this.#buf.subarray(0, end));
        this.#buf = this.#buf.slice(end + 4);
        return head;
      }
      if (this.#buf.length > MAX_HEAD) throw new ConnectionClosed("Request head too large");
      if (!(await this.#fill())) {
        if (this.#buf.length === 0) return null;
        throw new ConnectionClosed("Connection closed inside a request head");
      }
    }
  }

  async readExactly(n: number): Promise<Uint8Array<ArrayBuffer>> {
    if (this.#buf.length >= n) {
      const out = this.#buf.slice(0, n);
      this.#buf = this.#buf.slice(n);
      return out;
    }
    // Read the rest straight into one buffer of the final size: growing the read buffer chunk
    // by chunk would copy a 25 MB upload hundreds of times.
    const out = new Uint8Array(n);
    out.set(this.#buf);
    let filled = this.#buf.length;
    this.#buf = new Uint8Array(0);
    while (filled < n) {
      const read = await this.conn.read(out.subarray(filled));
      if (read === null) throw new ConnectionClosed("Connection closed inside a body");
      filled += read;
    }
    return out;
  }

  async readLine(): Promise<string> {
    while (true) {
      const i = this.#buf.indexOf(10);
      if (i >= 0) {
        const line = decoder.decode(this.#buf.subarray(0, i)).replace(/\r$/, "");
        this.#buf = this.#buf.slice(i + 1);
        return line;
      }
      if (!(await this.#fill())) throw new ConnectionClosed("Connection closed inside a chunk");
    }
  }
}

function indexOfCrlfCrlf(buf: Uint8Array): number {
  for (let i = 0; i + 3 < buf.length; i++) {
    if (buf[i] === 13 && buf[i + 1] === 10 && buf[i + 2] === 13 && buf[i + 3] === 10) return i;
  }
  return -1;
}

async function writeAll(conn: Deno.TcpConn, data: Uint8Array): Promise<void> {
  let off = 0;
  while (off < data.length) off += await conn.write(data.subarray(off));
}

async function readBody(
  reader: BufferedConn,
  headers: Headers,
): Promise<Uint8Array<ArrayBuffer>> {
  if ((headers.get("transfer-encoding") ?? "").toLowerCase().includes("chunked")) {
    const parts: Uint8Array[] = [];
    let total = 0;
    while (true) {
      const size = parseInt((await reader.readLine()).split(";")[0], 16);
      if (Number.isNaN(size)) throw new ConnectionClosed("Bad chunk size");
      if (size === 0) {
        while ((await reader.readLine()) !== "") { /* trailers */ }
        break;
      }
      total += size;
      if (total > MAX_BODY) throw new ConnectionClosed("Body too large");
      parts.push(await reader.readExactly(size));
      await reader.readLine();
    }
    const body = new Uint8Array(total);
    let off = 0;
    for (const p of parts) {
      body.set(p, off);
      off += p.length;
    }
    return body;
  }
  const length = Number(headers.get("content-length") ?? "0");
  if (!Number.isInteger(length) || length < 0 || length > MAX_BODY) {
    throw new ConnectionClosed("Bad content-length");
  }
  return length === 0 ? new Uint8Array(0) : await reader.readExactly(length);
}

function parseHead(
  head: string,
): { method: string; target: string; http10: boolean; headers: Headers } {
  const lines = head.split("\r\n");
  const [method, target, version] = lines[0].split(" ");
  if (!method || !target || !version?.startsWith("HTTP/1.")) {
    throw new ConnectionClosed(`Bad request line "${lines[0]}"`);
  }
  const headers = new Headers();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return { method, target, http10: version === "HTTP/1.0", headers };
}

async function serialize(
  response: Response,
  keepAlive: boolean,
  head: boolean,
): Promise<{ header: Uint8Array; body: Uint8Array }> {
  const body = head ? new Uint8Array(0) : new Uint8Array(await response.arrayBuffer());
  const lines = [`HTTP/1.1 ${response.status} ${response.statusText || reason(response.status)}`];
  for (const [name, value] of response.headers) {
    if (["content-length", "transfer-encoding", "connection"].includes(name)) continue;
    lines.push(`${name}: ${value}`);
  }
  const declared = response.headers.get("content-length");
  lines.push(`content-length: ${declared ?? body.length}`);
  lines.push(`date: ${new Date().toUTCString()}`);
  lines.push(`connection: ${keepAlive ? "keep-alive" : "close"}`);
  return { header: encoder.encode(lines.join("\r\n") + "\r\n\r\n"), body };
}

function reason(status: number): string {
  const reasons: Record<number, string> = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    410: "Gone",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
  };
  return reasons[status] ?? "Status";
}

/**
 * Listens on `hostname:port` and serves requests with `handler`.
 *
 * @throws {Deno.errors.AddrInUse} when the port is taken.
 */
export function serveHttp(
  options: { hostname: string; port: number },
  handler: HttpHandler,
): HttpServer {
  const listener = Deno.listen({ hostname: options.hostname, port: options.port });
  const port = (listener.addr as Deno.NetAddr).port;
  const controller = new AbortController();
  const conns = new Set<Deno.TcpConn>();
  const loops = new Set<Promise<void>>();

  async function serveConn(conn: Deno.TcpConn): Promise<void> {
    const reader = new BufferedConn(conn);
    const info = { remotePort: (conn.remoteAddr as Deno.NetAddr).port };
    try {
      while (!controller.signal.aborted) {
        const rawHead = await reader.readHead();
        if (rawHead === null) return;
        const { method, target, http10, headers } = parseHead(rawHead);
        const body = await readBody(reader, headers);
        const connection = (headers.get("connection") ?? "").toLowerCase();
        const keepAlive = http10 ? connection === "keep-alive" : connection !== "close";
        const url = new URL(target, `http://${headers.get("host") ?? `127.0.0.1:${port}`}`);
        const hasBody = method !== "GET" && method !== "HEAD";
        // `body` is a fresh buffer nobody else holds, so it needs no defensive copy.
        const request = new Request(url, { method, headers, body: hasBody ? body : undefined });
        const reply = await handler(request, info);
        if ("drop" in reply) return;
        if ("truncate" in reply) {
          const { header, body: full } = await serialize(reply.truncate, false, false);
          await writeAll(conn, header);
          await writeAll(conn, full.subarray(0, Math.floor(full.length / 2)));
          return;
        }
        const { header, body: out } = await serialize(reply, keepAlive, method === "HEAD");
        if (out.length > 64 * 1024) {
          // Large bodies (downloads) go out after the head rather than copied next to it.
          await writeAll(conn, header);
          await writeAll(conn, out);
        } else {
          const whole = new Uint8Array(header.length + out.length);
          whole.set(header);
          whole.set(out, header.length);
          await writeAll(conn, whole);
        }
        if (!keepAlive) return;
      }
    } catch {
      // A broken or closed connection ends its loop; the server keeps running.
    } finally {
      conns.delete(conn);
      try {
        conn.close();
      } catch {
        // already closed
      }
    }
  }

  const acceptLoop = (async () => {
    try {
      for await (const conn of listener) {
        if (controller.signal.aborted) {
          conn.close();
          break;
        }
        conns.add(conn);
        const loop = serveConn(conn);
        loops.add(loop);
        loop.finally(() => loops.delete(loop));
      }
    } catch {
      // The listener was closed.
    }
  })();

  return {
    port,
    signal: controller.signal,
    async close() {
      if (controller.signal.aborted) return;
      controller.abort();
      listener.close();
      await acceptLoop;
      for (const conn of conns) {
        try {
          conn.close();
        } catch {
          // already closed
        }
      }
      await Promise.allSettled([...loops]);
    },
  };
}
