/**
 * The sandbox's side of Lark's event long connection: a WebSocket server (its own loopback
 * listener, as Lark's frontier is another host than the API's) speaking the SDKs' frames. The
 * endpoint (`event_routes.ts`) hands out one-use connection URLs; the hub delivers each
 * published event to one open connection (several connections split the events, as Lark does),
 * waits for its answer frame, and delivers it again (same `event_id`, new message id) when the
 * connection closes first or the answer does not come in time. Faults make it misbehave: close
 * the connection, go silent on it, ignore or delay answers, split events into parts, refuse a
 * handshake.
 *
 * @module
 */

import {
  CONTROL,
  DATA,
  decodeFrame,
  encodeFrame,
  type Frame,
  headerOf,
} from "../../src/events/frame.ts";

/** The connection settings the endpoint and every pong carry, in seconds (Lark's names). */
export interface ClientConfig {
  PingInterval: number;
  ReconnectCount: number;
  ReconnectInterval: number;
  ReconnectNonce: number;
}

/** Lark's answer in production: ping every 2 min, reconnect for ever every 2 min, 30 s jitter. */
export const LARK_CLIENT_CONFIG: ClientConfig = {
  PingInterval: 120,
  ReconnectCount: -1,
  ReconnectInterval: 120,
  ReconnectNonce: 30,
};

/** A fault of the long connection (`POST /sandbox/event_stream/faults`). */
export interface EventFault {
  /**
   * `close`: the server closes the connection; `drop`: it goes silent on it (no frames out, none
   * read), as a connection lost without a close does; `ignore_acks`: answers are ignored, so the
   * events come again; `delay_acks`: answers take effect `ms` later; `split`: events go in
   * `parts` parts; `refuse`: handshakes are refused (Handshake-Status 514).
   */
  kind: "close" | "drop" | "ignore_acks" | "delay_acks" | "split" | "refuse";
  /** For close and drop: after this many more events delivered on a connection; default 0. */
  after?: number;
  /** How many times it fires; default 1. */
  count?: number;
  /** For delay_acks: the delay in ms. */
  ms?: number;
  /** For split: the number of parts; default 3. */
  parts?: number;
}

interface Delivery {
  event: Record<string, unknown>;
  bytes: Uint8Array;
  messageId: string;
  sentAt: number;
  conn: Connection;
}

interface Connection {
  socket: WebSocket;
  serviceId: number;
  silent: boolean;
  delivered: number;
  closeAfter?: { at: number; kind: "close" | "drop" };
}

/** What the hub has done, for tests. */
export interface HubStats {
  published: number;
  /** Frames of events sent, counting each delivery once however many parts. */
  delivered: number;
  acked: number;
  pending: number;
  connections: number;
  /** Connections accepted since the start. */
  accepted: number;
}

const encoder = new TextEncoder();

/** The most events a connection has unanswered at once; the rest wait their turn. */
const WINDOW = 32;

/** The event hub of one sandbox. */
export class EventHub {
  readonly #config: ClientConfig;
  readonly #ackTimeoutMs: number;
  #server: Deno.HttpServer | undefined;
  #port = 0;
  readonly #tickets = new Map<string, number>();
  readonly #connections = new Set<Connection>();
  #queue: Record<string, unknown>[] = [];
  readonly #inFlight = new Map<string, Delivery>();
  #faults: Required<EventFault>[] = [];
  #sequence = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #turn = 0;
  readonly #stats = { published: 0, delivered: 0, acked: 0, accepted: 0 };

  /**
   * @param options the client config to hand out, and how long an answer may take before the
   *   event is delivered again (ms; default 5000)
   */
  constructor(options: { clientConfig?: ClientConfig; ackTimeoutMs?: number } = {}) {
    this.#config = options.clientConfig ?? LARK_CLIENT_CONFIG;
    this.#ackTimeoutMs = options.ackTimeoutMs ?? 5000;
  }

  /** The client config the endpoint answers with. */
  get clientConfig(): ClientConfig {
    return { ...this.#config };
  }

  /** A one-use connection URL, valid for a minute; the listener starts on first use. */
  connectionUrl(now: number): string {
    this.#server ??= Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (request) => this.#upgrade(request),
    );
    const addr = this.#server.addr;
    this.#port = "port" in addr ? addr.port : 0;
    const ticket = crypto.randomUUID();
    this.#tickets.set(ticket, now + 60_000);
    const device = `sandbox_${ticket.slice(0, 8)}`;
    return `ws://127.0.0.1:${this.#port}/ws/v2?fpid=493&aid=552564&device_id=${device}` +
      `&access_key=${ticket}&service_id=33554678&ticket=${ticket}`;
  }

  /** Adds faults. */
  addFaults(faults: EventFault[]): void {
    for (const f of faults) {
      this.#faults.push({ after: 0, count: 1, ms: 0, parts: 3, ...f });
    }
  }

  /** Removes every fault. */
  clearFaults(): void {
    this.#faults = [];
  }

  /** Queues an event (a whole schema 2.0 envelope) and delivers it when a connection is open. */
  publish(event: Record<string, unknown>): void {
    this.#stats.published++;
    this.#queue.push(event);
    this.#pump();
  }

  /** Counts, for tests. */
  stats(): HubStats {
    return {
      ...this.#stats,
      pending: this.#queue.length + this.#inFlight.size,
      connections: this.#connections.size,
    };
  }

  /** Closes every connection and the listener. */
  async close(): Promise<void> {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    for (const conn of this.#connections) {
      try {
        conn.socket.close();
      } catch {
        // already closed
      }
    }
    await this.#server?.shutdown();
  }

  #takeFault(kind: EventFault["kind"]): Required<EventFault> | undefined {
    const fault = this.#faults.find((f) => f.kind === kind && f.count > 0);
    if (fault) fault.count--;
    return fault;
  }

  #upgrade(request: Request): Response {
    const url = new URL(request.url);
    const ticket = url.searchParams.get("ticket") ?? "";
    const expires = this.#tickets.get(ticket);
    this.#tickets.delete(ticket);
    const refused = this.#takeFault("refuse");
    if (url.pathname !== "/ws/v2" || expires === undefined || expires < Date.now() || refused) {
      const status = refused ? "514" : "403";
      return new Response(null, {
        status: 403,
        headers: {
          "Handshake-Status": status,
          "Handshake-Msg": refused ? "auth failed" : "invalid or used ticket",
        },
      });
    }
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return new Response("WebSocket only", { status: 400 });
    }
    const { socket, response } = Deno.upgradeWebSocket(request);
    socket.binaryType = "arraybuffer";
    const conn: Connection = {
      socket,
      serviceId: Number(url.searchParams.get("service_id")),
      silent: false,
      delivered: 0,
    };
    const pending = this.#faults.find((f) => (f.kind === "close" || f.kind === "drop") && f.count);
    if (pending) {
      pending.count--;
      conn.closeAfter = { at: pending.after, kind: pending.kind === "drop" ? "drop" : "close" };
    }
    socket.onopen = () => {
      this.#stats.accepted++;
      this.#connections.add(conn);
      this.#maybeClose(conn);
      this.#pump();
    };
    socket.onmessage = (message) => {
      if (conn.silent || !(message.data instanceof ArrayBuffer)) return;
      this.#receive(conn, new Uint8Array(message.data));
    };
    socket.onclose = () => this.#lost(conn);
    socket.onerror = () => this.#lost(conn);
    return response;
  }

  #lost(conn: Connection): void {
    if (!this.#connections.delete(conn)) return;
    const back = [...this.#inFlight.values()].filter((d) => d.conn === conn);
    for (const d of back) this.#inFlight.delete(d.messageId);
    this.#queue = [...back.map((d) => d.event), ...this.#queue];
    this.#pump();
  }

  #receive(conn: Connection, bytes: Uint8Array): void {
    let frame: Frame;
    try {
      frame = decodeFrame(bytes);
    } catch {
      return; // Lark drops what it cannot read.
    }
    if (frame.method === CONTROL && headerOf(frame, "type") === "ping") {
      this.#send(conn, {
        seqId: 0n,
        logId: 0n,
        service: conn.serviceId,
        method: CONTROL,
        headers: [{ key: "type", value: "pong" }],
        payload: encoder.encode(JSON.stringify(this.#config)),
      });
      return;
    }
    if (frame.method !== DATA) return;
    const messageId = headerOf(frame, "message_id") ?? "";
    const delivery = this.#inFlight.get(messageId);
    if (!delivery) return;
    let code = 0;
    try {
      code = JSON.parse(new TextDecoder().decode(frame.payload)).code;
    } catch {
      return;
    }
    if (this.#takeFault("ignore_acks")) return;
    const apply = () => {
      if (!this.#inFlight.delete(messageId)) return;
      if (code === 200) this.#stats.acked++;
      else this.#queue.push(delivery.event);
      this.#pump();
    };
    const delay = this.#takeFault("delay_acks");
    if (delay) setTimeout(apply, delay.ms);
    else apply();
  }

  #send(conn: Connection, frame: Frame): void {
    if (conn.silent || conn.socket.readyState !== WebSocket.OPEN) return;
    conn.socket.send(encodeFrame(frame));
  }

  #maybeClose(conn: Connection): void {
    if (!conn.closeAfter || conn.delivered < conn.closeAfter.at) return;
    if (conn.closeAfter.kind === "drop") {
      conn.silent = true;
      return;
    }
    conn.socket.close(1000, "closed by the server");
  }

  /** Delivers queued events, and schedules the check of answers that did not come. */
  #pump(): void {
    const now = Date.now();
    for (const d of [...this.#inFlight.values()]) {
      if (now - d.sentAt >= this.#ackTimeoutMs) {
        this.#inFlight.delete(d.messageId);
        this.#queue.push(d.event);
      }
    }
    while (this.#queue.length > 0) {
      const open = [...this.#connections].filter((c) =>
        !c.silent && c.socket.readyState === WebSocket.OPEN && this.#unanswered(c) < WINDOW
      );
      if (open.length === 0) break;
      const conn = open[this.#turn++ % open.length];
      const event = this.#queue.shift()!;
      this.#deliver(conn, event, now);
      this.#maybeClose(conn);
    }
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = this.#inFlight.size > 0
      ? setTimeout(() => this.#pump(), Math.min(this.#ackTimeoutMs, 250))
      : undefined;
  }

  #unanswered(conn: Connection): number {
    let n = 0;
    for (const d of this.#inFlight.values()) if (d.conn === conn) n++;
    return n;
  }

  #deliver(conn: Connection, event: Record<string, unknown>, now: number): void {
    const bytes = encoder.encode(JSON.stringify(event));
    const messageId = `msg_${++this.#sequence}_${crypto.randomUUID().slice(0, 8)}`;
    const split = this.#takeFault("split");
    const parts = Math.max(1, Math.min(split?.parts ?? 1, bytes.length));
    const size = Math.ceil(bytes.length / parts);
    const traceId = crypto.randomUUID();
    for (let seq = 0; seq < parts; seq++) {
      this.#send(conn, {
        seqId: BigInt(this.#sequence),
        logId: BigInt(now) * 1000n + BigInt(seq),
        service: conn.serviceId,
        method: DATA,
        headers: [
          { key: "type", value: "event" },
          { key: "message_id", value: messageId },
          { key: "sum", value: String(parts) },
          { key: "seq", value: String(seq) },
          { key: "trace_id", value: traceId },
        ],
        payload: bytes.subarray(seq * size, (seq + 1) * size),
      });
    }
    conn.delivered++;
    this.#stats.delivered++;
    this.#inFlight.set(messageId, { event, bytes, messageId, sentAt: now, conn });
  }
}
