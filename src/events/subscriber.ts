/**
 * The subscriber's loop: connect (endpoint, then WebSocket), ping, read frames, join parts,
 * drop what is hostile, skip what was seen, hand each new event to the sink, and answer its
 * frame only once the sink has written it; reconnect when the connection closes or goes quiet
 * for two ping intervals, with the delays the service allows. Everything outside (clock, sleep,
 * randomness, connecting) is injected, so tests drive it on a fake clock.
 *
 * @module
 */

import { NetworkError } from "../errors/mod.ts";
import { Assembler, PartError } from "./assembler.ts";
import { type ClientConfig, readClientConfig, reconnectDelay } from "./client_config.ts";
import { type EventRecord, readEvent } from "./event_record.ts";
import {
  CONTROL,
  DATA,
  decodeFrame,
  encodeFrame,
  type Frame,
  FrameError,
  headerOf,
} from "./frame.ts";
import { SeenIds } from "./seen_ids.ts";

/** An open WebSocket, as the subscriber uses it. */
export interface EventSocket {
  /** The next binary message, or `undefined` once the socket has closed. */
  receive(): Promise<Uint8Array | undefined>;
  /** Sends a binary message (dropped when the socket is closing). */
  send(data: Uint8Array): void;
  /** Closes the socket. */
  close(): void;
}

/** A connection made: the socket, the service's config, the service id pings carry. */
export interface Connection {
  socket: EventSocket;
  config: ClientConfig;
  serviceId: number;
}

/** A failure worth another attempt (network, a busy service); anything else ends the loop. */
export class RetryableError extends Error {
  override name = "RetryableError";
}

/** What the loop needs from outside. */
export interface SubscriberDeps {
  /** The clock, ms. */
  now(): number;
  /** Resolves after `ms`; rejects when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A number in [0, 1). */
  random(): number;
  /**
   * Asks the endpoint for a URL and opens it.
   *
   * @throws {RetryableError} for what another attempt may cure; a `HarkError` otherwise
   */
  connect(): Promise<Connection>;
  /** Writes an event; resolves once it is on stdout or its file is in place. */
  write(event: EventRecord): Promise<void>;
  /** Whether an event type is wanted (`--event-types`, `--filter`). */
  accept(type: string): boolean;
  /** A warning for people (stderr). */
  warn(message: string): void;
  /** A status line for people (stderr, unless `--quiet`). */
  status(message: string): void;
  /** Aborted to stop: what was received is finished, then the loop returns. */
  signal: AbortSignal;
}

/** What a run did. */
export interface SubscriberSummary {
  written: number;
  duplicates: number;
  filtered: number;
  dropped: number;
  reconnects: number;
}

/** Attempts before the first connection counts as failed. */
const FIRST_ATTEMPTS = 3;

const ACK = new TextEncoder().encode(JSON.stringify({ code: 200 }));
const TICK: unique symbol = Symbol("tick");

/**
 * Runs until `deps.signal` aborts (resolves) or connecting fails for good (rejects).
 *
 * @throws {NetworkError} when the service cannot be reached within the attempts allowed
 * @throws what `deps.connect` or `deps.write` throws that is not a {@link RetryableError}
 */
export async function runSubscriber(deps: SubscriberDeps): Promise<SubscriberSummary> {
  const summary = { written: 0, duplicates: 0, filtered: 0, dropped: 0, reconnects: 0 };
  const seen = new SeenIds();
  let config: ClientConfig | undefined;
  let attempt = 0;
  while (!deps.signal.aborted) {
    let connection: Connection;
    try {
      connection = await deps.connect();
    } catch (error) {
      if (!(error instanceof RetryableError)) throw error;
      attempt++;
      const limit = config ? config.reconnectCount : FIRST_ATTEMPTS;
      if (limit >= 0 && attempt >= limit) {
        throw new NetworkError(
          `Cannot connect to the event stream after ${attempt} attempts: ${error.message}`,
          { cause: error },
        );
      }
      deps.warn(`Cannot connect to the event stream (${error.message}); retrying`);
      if (
        !(await pause(deps, reconnectDelay(attempt + 1, config ?? connectionless, deps.random())))
      ) {
        break;
      }
      continue;
    }
    if (config) deps.status("Reconnected");
    else deps.status("Connected; waiting for events (Ctrl-C to stop)");
    config = connection.config;
    attempt = 0;
    const ended = await serve(deps, connection, seen, summary);
    connection.socket.close();
    if (ended === "stopped") break;
    summary.reconnects++;
    deps.status(
      ended === "dead"
        ? "The connection went quiet; reconnecting"
        : "The connection closed; reconnecting",
    );
    attempt = 1;
    if (!(await pause(deps, reconnectDelay(1, config, deps.random())))) break;
  }
  return summary;
}

/** Before any config: retry a failed first connection after about a second. */
const connectionless: ClientConfig = {
  pingMs: 120_000,
  reconnectCount: 3,
  reconnectMs: 1000,
  nonceMs: 1000,
};

async function pause(deps: SubscriberDeps, ms: number): Promise<boolean> {
  try {
    await deps.sleep(ms, deps.signal);
    return true;
  } catch {
    return false;
  }
}

async function serve(
  deps: SubscriberDeps,
  connection: Connection,
  seen: SeenIds,
  summary: SubscriberSummary,
): Promise<"stopped" | "closed" | "dead"> {
  const { socket, serviceId } = connection;
  let config = connection.config;
  const assembler = new Assembler();
  let lastInbound = deps.now();
  let nextPing = deps.now();
  let lastPing = nextPing;
  let pending: Promise<Uint8Array | undefined> | undefined;
  const stopped = new Promise<typeof TICK>((resolve) => {
    if (deps.signal.aborted) resolve(TICK);
    deps.signal.addEventListener("abort", () => resolve(TICK), { once: true });
  });
  while (true) {
    if (deps.signal.aborted) return "stopped";
    const now = deps.now();
    if (now - lastInbound >= 2 * config.pingMs) {
      deps.warn(`No frame for ${Math.round((now - lastInbound) / 1000)} s (two ping intervals)`);
      return "dead";
    }
    for (const id of assembler.expire(now)) {
      summary.dropped++;
      deps.warn(`Dropped an event whose parts did not all arrive (message ${safe(id)})`);
    }
    if (now >= nextPing) {
      socket.send(encodeFrame({
        seqId: 0n,
        logId: 0n,
        service: serviceId,
        method: CONTROL,
        headers: [{ key: "type", value: "ping" }],
      }));
      lastPing = now;
      nextPing = now + config.pingMs;
    }
    pending ??= socket.receive();
    const timer = new AbortController();
    const wait = Math.max(0, Math.min(nextPing, lastInbound + 2 * config.pingMs) - now);
    const next = await Promise.race([
      pending,
      deps.sleep(wait, timer.signal).then((): typeof TICK => TICK, (): typeof TICK => TICK),
      stopped,
    ]);
    timer.abort();
    if (next === TICK) continue;
    pending = undefined;
    if (next === undefined) return "closed";
    lastInbound = deps.now();
    let frame: Frame;
    try {
      frame = decodeFrame(next);
    } catch (error) {
      summary.dropped++;
      deps.warn(
        `Dropped a frame hark cannot read: ${error instanceof FrameError ? error.message : error}`,
      );
      continue;
    }
    if (frame.method === CONTROL) {
      if (headerOf(frame, "type") === "pong" && frame.payload && frame.payload.length > 0) {
        config = readClientConfig(parseJson(frame.payload), config);
        nextPing = Math.min(nextPing, lastPing + config.pingMs);
      }
      continue;
    }
    if (frame.method !== DATA) {
      summary.dropped++;
      deps.warn(`Dropped a frame of unknown method ${frame.method}`);
      continue;
    }
    if (headerOf(frame, "type") !== "event") continue; // cards are for card callbacks
    let joined: Uint8Array | undefined;
    try {
      joined = assembler.add(frame, deps.now());
    } catch (error) {
      summary.dropped++;
      deps.warn(`Dropped an event's parts: ${error instanceof PartError ? error.message : error}`);
      continue;
    }
    if (!joined) continue;
    const record = readEvent(parseJson(joined));
    if (!record) {
      summary.dropped++;
      deps.warn("Dropped an event that is not Lark's event JSON (no event id or type)");
      continue;
    }
    const started = deps.now();
    if (seen.has(record.id)) {
      summary.duplicates++;
    } else if (!deps.accept(record.type)) {
      summary.filtered++;
      seen.add(record.id);
    } else {
      await deps.write(record);
      seen.add(record.id);
      summary.written++;
    }
    socket.send(encodeFrame({
      ...frame,
      headers: [...frame.headers, { key: "biz_rt", value: String(deps.now() - started) }],
      payload: ACK,
    }));
  }
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
}

function safe(text: string): string {
  return text.replace(/[^\w.-]/g, "?").slice(0, 80);
}
