/**
 * The connection's reading: messages split across reads of any size, many in one read, and one
 * larger than the read buffer, all come out whole and in order. The bus is a scripted socket.
 */

import assert from "node:assert/strict";
import { DBusConnection } from "../../src/keychain/_dbus_connection.ts";
import { encodeMessage, scriptedSocket } from "./dbus_peer.ts";

const BUS = "org.freedesktop.DBus";

/** The bus's `OK`, Hello's answer, then an answer to each of `count` calls (serials 2...). */
function script(bodies: string[]): Uint8Array {
  const parts = [
    new TextEncoder().encode(`OK ${"0".repeat(32)}\r\n`),
    encodeMessage({ type: 2, replySerial: 1, sender: BUS, signature: "s", body: [":1.9"] }, 1),
    ...bodies.map((text, i) =>
      encodeMessage(
        { type: 2, replySerial: i + 2, sender: BUS, signature: "s", body: [text] },
        i + 2,
      )
    ),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), at += p.length);
  return out;
}

async function answers(bodies: string[], step: (i: number) => number): Promise<string[]> {
  const signal = new AbortController().signal;
  const connection = DBusConnection.open(scriptedSocket(script(bodies), step), 1000, signal);
  const calls = bodies.map(() =>
    connection.call({
      destination: BUS,
      path: "/org/freedesktop/DBus",
      interface: BUS,
      member: "GetId",
      reply: "s",
      from: BUS,
    }, signal)
  );
  return (await Promise.all(calls)).map(([text]) => String(text));
}

Deno.test("DBusConnection reads whole messages however the bus's bytes are split", async () => {
  const bodies = ["a", "bb".repeat(700), "c".repeat(9000), "d", "e".repeat(5000), "f"];
  for (const step of [() => 1, () => 7, (i: number) => 1 + (i * 37) % 5000, () => 1 << 20]) {
    assert.deepEqual(await answers(bodies, step), bodies);
  }
});

Deno.test("DBusConnection reads 200 small answers arriving in one read", async () => {
  const bodies = Array.from({ length: 200 }, (_, i) => `answer ${i}`);
  assert.deepEqual(await answers(bodies, () => 1 << 20), bodies);
});
