/**
 * A hostile server for attack tests: listens on 127.0.0.1 (port 0), answers every request with
 * the test's handler, records what it received (method, path, headers, body: the credentials an
 * attack tries to steal), and shuts itself down after a time limit or a number of requests.
 *
 * @module
 */

/** One request the server received. */
export interface Received {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A running hostile server. */
export interface HostileServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The port. */
  port: number;
  /** Every request received, in order. */
  received: Received[];
  /** Everything received as one string (headers and bodies), to search for secrets. */
  transcript(): string;
  /** Stops the server. */
  close(): Promise<void>;
}

/** Options of {@link startHostileServer}. */
export interface HostileOptions {
  /** Requests answered at most; later ones get 503 and are still recorded. Default 50. */
  maxRequests?: number;
  /** Milliseconds after which the server stops by itself. Default 60 000. */
  lifetimeMs?: number;
}

/**
 * Starts a hostile server.
 *
 * @param handler answers a request (the body already read)
 * @param options limits
 */
export function startHostileServer(
  handler: (request: Request, body: string) => Response | Promise<Response>,
  options: HostileOptions = {},
): HostileServer {
  const received: Received[] = [];
  const max = options.maxRequests ?? 50;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      const body = await request.text();
      const url = new URL(request.url);
      received.push({
        method: request.method,
        path: url.pathname + url.search,
        headers: Object.fromEntries(request.headers),
        body,
      });
      if (received.length > max) return new Response("too many requests", { status: 503 });
      return await handler(request, body);
    },
  );
  const timer = setTimeout(() => void server.shutdown(), options.lifetimeMs ?? 60_000);
  const port = server.addr.port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    transcript: () => received.map((r) => JSON.stringify(r)).join("\n"),
    async close() {
      clearTimeout(timer);
      await server.shutdown();
    },
  };
}

/**
 * A Lark success envelope.
 *
 * @param data the `data`
 */
export function larkOk(data: unknown): Response {
  return Response.json({ code: 0, msg: "success", data });
}

/** A running raw server: it writes its answers byte by byte, headers included. */
export interface RawServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** How many connections it answered. */
  connections: number;
  /** Stops the server and closes its connections. */
  close(): Promise<void>;
}

/**
 * Starts a server on 127.0.0.1 that answers each connection with `answer`, which writes the
 * whole HTTP answer itself: for answers `Deno.serve` will not send, such as a
 * `Content-Length` beside `Transfer-Encoding: chunked`. The request is read (its first 64 KiB)
 * before `answer` runs; a write that fails because the client went away ends the answer.
 *
 * @param answer writes the answer through `write`
 * @param options limits: `lifetimeMs`, default 60 000
 */
export function startRawServer(
  answer: (write: (bytes: Uint8Array | string) => Promise<void>) => Promise<void>,
  options: Pick<HostileOptions, "lifetimeMs"> = {},
): RawServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  const encoder = new TextEncoder();
  const server: RawServer = {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    connections: 0,
    async close() {
      clearTimeout(timer);
      listener.close();
      for (const conn of open) {
        try {
          conn.close();
        } catch {
          // Already closed.
        }
      }
      await accepting;
    },
  };
  const serve = async (conn: Deno.Conn) => {
    open.add(conn);
    server.connections++;
    try {
      await conn.read(new Uint8Array(64 * 1024));
      await answer(async (bytes) => {
        const data = typeof bytes === "string" ? encoder.encode(bytes) : bytes;
        for (let offset = 0; offset < data.length;) {
          offset += await conn.write(data.subarray(offset));
        }
      });
    } catch {
      // The client went away: the answer ends here.
    } finally {
      open.delete(conn);
      try {
        conn.close();
      } catch {
        // Already closed.
      }
    }
  };
  const accepting = (async () => {
    try {
      for await (const conn of listener) void serve(conn);
    } catch {
      // Closed.
    }
  })();
  const timer = setTimeout(() => void server.close(), options.lifetimeMs ?? 60_000);
  return server;
}
