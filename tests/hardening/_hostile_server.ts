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
