import assert from "node:assert/strict";
import { NetworkError } from "../errors/mod.ts";
import { DEFAULT_CLIENT_CONFIG, reconnectDelay } from "./client_config.ts";
import type { EventRecord } from "./event_record.ts";
import { CONTROL, DATA, decodeFrame, encodeFrame, type Frame, headerOf } from "./frame.ts";
import {
  type Connection,
  type EventSocket,
  RetryableError,
  runSubscriber,
  type SubscriberDeps,
} from "./subscriber.ts";

/** A clock whose timers fire only when the test advances it. */
class FakeClock {
  t = 0;
  timers: { due: number; fire: () => void }[] = [];
  now = () => this.t;
  sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = { due: this.t + ms, fire: resolve };
      this.timers.push(timer);
      signal?.addEventListener("abort", () => {
        this.timers = this.timers.filter((x) => x !== timer);
        reject(signal.reason);
      }, { once: true });
    });
  async advance(ms: number): Promise<void> {
    const target = this.t + ms;
    while (true) {
      await settle();
      const due = this.timers.filter((x) => x.due <= target).sort((a, b) => a.due - b.due)[0];
      if (!due) break;
      this.timers = this.timers.filter((x) => x !== due);
      this.t = due.due;
      due.fire();
    }
    this.t = target;
    await settle();
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 200; i++) await Promise.resolve();
}

class FakeSocket implements EventSocket {
  sent: Frame[] = [];
  closed = false;
  #queue: (Uint8Array | undefined)[] = [];
  #waiting: ((v: Uint8Array | undefined) => void) | undefined;
  receive(): Promise<Uint8Array | undefined> {
    const next = this.#queue.shift();
    if (next !== undefined || this.closed) return Promise.resolve(next);
    return new Promise((resolve) => this.#waiting = resolve);
  }
  push(bytes: Uint8Array | undefined): void {
    if (this.#waiting) {
      const w = this.#waiting;
      this.#waiting = undefined;
      w(bytes);
    } else this.#queue.push(bytes);
  }
  end(): void {
    this.closed = true;
    this.push(undefined);
  }
  send(data: Uint8Array): void {
    this.sent.push(decodeFrame(data));
  }
  close(): void {
    this.closed = true;
    this.#waiting?.(undefined);
  }
  acks(): string[] {
    return this.sent.filter((f) => f.method === DATA).map((f) => headerOf(f, "message_id") ?? "");
  }
}

const encoder = new TextEncoder();

function eventFrame(id: string, messageId = `m_${id}`, type = "im.message.receive_v1"): Uint8Array {
  return dataFrame(
    messageId,
    encoder.encode(JSON.stringify({
      schema: "2.0",
      header: { event_id: id, event_type: type, create_time: "1700000000000", app_id: "cli_a" },
      event: { n: id },
    })),
  );
}

function dataFrame(messageId: string, payload: Uint8Array, sum = 1, seq = 0): Uint8Array {
  return encodeFrame({
    seqId: 1n,
    logId: 2n,
    service: 7,
    method: DATA,
    headers: [
      { key: "type", value: "event" },
      { key: "message_id", value: messageId },
      { key: "sum", value: String(sum) },
      { key: "seq", value: String(seq) },
    ],
    payload,
  });
}

const config = { ...DEFAULT_CLIENT_CONFIG, pingMs: 10_000, nonceMs: 0, reconnectMs: 1000 };

function harness(sockets: (FakeSocket | Error)[], overrides: Partial<SubscriberDeps> = {}) {
  const clock = new FakeClock();
  const controller = new AbortController();
  const written: string[] = [];
  const warnings: string[] = [];
  let connects = 0;
  const deps: SubscriberDeps = {
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
    connect: () => {
      const next = sockets[connects++];
      if (!next) return new Promise<Connection>(() => {});
      if (next instanceof Error) return Promise.reject(next);
      return Promise.resolve({ socket: next, config, serviceId: 7 });
    },
    write: (e: EventRecord) => {
      written.push(e.id);
      return Promise.resolve();
    },
    accept: () => true,
    warn: (m) => warnings.push(m),
    status: () => {},
    signal: controller.signal,
    ...overrides,
  };
  return { clock, controller, written, warnings, deps, connects: () => connects };
}

Deno.test("runSubscriber() answers an event only once it is written", async () => {
  const socket = new FakeSocket();
  let release = () => {};
  const h = harness([socket], {
    write: () => new Promise<void>((resolve) => release = resolve),
  });
  const run = runSubscriber(h.deps);
  await settle();
  assert.equal(socket.sent[0].method, CONTROL); // the first ping
  socket.push(eventFrame("e1"));
  await settle();
  assert.deepEqual(socket.acks(), []);
  release();
  await settle();
  assert.deepEqual(socket.acks(), ["m_e1"]);
  const ack = socket.sent.find((f) => f.method === DATA)!;
  assert.equal(new TextDecoder().decode(ack.payload), '{"code":200}');
  assert.ok(headerOf(ack, "biz_rt") !== undefined);
  h.controller.abort();
  assert.equal((await run).written, 1);
});

Deno.test("runSubscriber() writes an event delivered again after a reconnect once", async () => {
  const first = new FakeSocket();
  const second = new FakeSocket();
  const h = harness([first, second]);
  const run = runSubscriber(h.deps);
  await settle();
  first.push(eventFrame("e1"));
  await settle();
  first.end();
  await h.clock.advance(0);
  second.push(eventFrame("e1", "m_again"));
  second.push(eventFrame("e2"));
  await settle();
  h.controller.abort();
  const summary = await run;
  assert.deepEqual(h.written, ["e1", "e2"]);
  assert.deepEqual(second.acks(), ["m_again", "m_e2"]);
  assert.equal(summary.duplicates, 1);
  assert.equal(summary.reconnects, 1);
});

Deno.test("runSubscriber() notices a quiet connection within two ping intervals", async () => {
  const quiet = new FakeSocket();
  const next = new FakeSocket();
  const h = harness([quiet, next]);
  const run = runSubscriber(h.deps);
  await settle();
  await h.clock.advance(19_999);
  assert.equal(h.connects(), 1);
  assert.equal(quiet.sent.filter((f) => headerOf(f, "type") === "ping").length, 2);
  await h.clock.advance(1);
  assert.equal(h.connects(), 2);
  assert.ok(quiet.closed);
  assert.match(h.warnings.join("\n"), /two ping intervals/);
  h.controller.abort();
  await run;
});

Deno.test("runSubscriber() drops hostile frames with a warning and goes on", async () => {
  const socket = new FakeSocket();
  const h = harness([socket]);
  const run = runSubscriber(h.deps);
  await settle();
  socket.push(new Uint8Array([0xff, 0xff, 0xff])); // not protobuf
  socket.push(encodeFrame({ seqId: 0n, logId: 0n, service: 7, method: 9, headers: [] }));
  socket.push(dataFrame("huge", encoder.encode("{}"), 1_000_000, 0)); // a huge part count
  socket.push(dataFrame("bad-seq", encoder.encode("{}"), 2, 5));
  socket.push(dataFrame("json", encoder.encode("{not json")));
  socket.push(dataFrame("half", encoder.encode('{"a":'), 2, 0)); // the other part never comes
  socket.push(eventFrame("good"));
  await settle();
  await h.clock.advance(10_000);
  h.controller.abort();
  const summary = await run;
  assert.deepEqual(h.written, ["good"]);
  assert.equal(summary.dropped, 6);
  assert.deepEqual(socket.acks(), ["m_good"]);
  assert.equal(h.warnings.length, 6);
});

Deno.test("runSubscriber() joins an event sent in parts, in any order", async () => {
  const socket = new FakeSocket();
  const h = harness([socket]);
  const run = runSubscriber(h.deps);
  await settle();
  const whole = encoder.encode(JSON.stringify({
    header: { event_id: "split", event_type: "t", create_time: "1" },
    event: {},
  }));
  socket.push(dataFrame("m", whole.subarray(10), 2, 1));
  socket.push(dataFrame("m", whole.subarray(0, 10), 2, 0));
  await settle();
  h.controller.abort();
  await run;
  assert.deepEqual(h.written, ["split"]);
});

Deno.test("runSubscriber() retries a failed connection with back-off, then gives up", async () => {
  const fail = () => new RetryableError("connection refused");
  const h = harness([fail(), fail(), fail()]);
  const sleeps: number[] = [];
  const deps = {
    ...h.deps,
    sleep: (ms: number, signal?: AbortSignal) => {
      sleeps.push(ms);
      return h.clock.sleep(ms, signal);
    },
  };
  const run = runSubscriber(deps);
  const outcome = assert.rejects(run, NetworkError);
  await h.clock.advance(10_000);
  await outcome;
  assert.equal(h.connects(), 3);
  assert.equal(sleeps.length, 2);
});

Deno.test("reconnectDelay() waits a random part of the nonce first, then the interval, growing", () => {
  const cfg = { ...DEFAULT_CLIENT_CONFIG, reconnectMs: 1000, nonceMs: 2000 };
  assert.equal(reconnectDelay(1, cfg, 0.25), 500);
  assert.equal(reconnectDelay(2, cfg, 0), 1000);
  assert.equal(reconnectDelay(3, cfg, 0), 2000);
  assert.equal(reconnectDelay(9, cfg, 0), 8000);
  assert.equal(reconnectDelay(2, cfg, 0.5), 2000);
  assert.equal(reconnectDelay(2, { ...cfg, reconnectMs: 0, nonceMs: 0 }, 0), 100);
});

Deno.test("runSubscriber() takes a new ping interval from a pong", async () => {
  const socket = new FakeSocket();
  const h = harness([socket]);
  const run = runSubscriber(h.deps);
  await settle();
  socket.push(encodeFrame({
    seqId: 0n,
    logId: 0n,
    service: 7,
    method: CONTROL,
    headers: [{ key: "type", value: "pong" }],
    payload: encoder.encode(
      JSON.stringify({
        PingInterval: 3,
        ReconnectCount: 1,
        ReconnectInterval: 1,
        ReconnectNonce: 0,
      }),
    ),
  }));
  await settle();
  await h.clock.advance(3000);
  assert.equal(socket.sent.filter((f) => headerOf(f, "type") === "ping").length, 2);
  h.controller.abort();
  await run;
});
