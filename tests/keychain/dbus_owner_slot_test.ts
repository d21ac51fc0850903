/**
 * Pipelined calls to a well-known name (the Secret Service warm-up): an answer is taken only from
 * the owner the bus names in its GetNameOwner answer, never one read before that answer. The bus
 * is a scripted socket: the order of what it sends is the test's.
 */

import assert from "node:assert/strict";
import { DBusConnection, type OwnerSlot } from "../../src/keychain/_dbus_connection.ts";
import { encodeMessage, type OutgoingMessage, scriptedSocket } from "./dbus_peer.ts";

const BUS = "org.freedesktop.DBus";

function script(messages: OutgoingMessage[]): Uint8Array {
  const parts = [
    new TextEncoder().encode(`OK ${"0".repeat(32)}\r\n`),
    ...messages.map((m, i) => encodeMessage(m, 100 + i)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), at += p.length);
  return out;
}

/** Serial 1 is Hello, 2 GetNameOwner, 3 the pipelined call. */
async function pipelined(messages: OutgoingMessage[]) {
  const signal = new AbortController().signal;
  const connection = DBusConnection.open(scriptedSocket(script(messages)), 1000, signal);
  const slot: OwnerSlot = { name: undefined };
  const owner = connection.call({
    destination: BUS,
    path: "/org/freedesktop/DBus",
    interface: BUS,
    member: "GetNameOwner",
    signature: "s",
    body: ["org.freedesktop.secrets"],
    reply: "s",
    from: BUS,
    names: slot,
  }, signal);
  const open = connection.call({
    destination: "org.freedesktop.secrets",
    path: "/org/freedesktop/secrets",
    interface: "org.freedesktop.Secret.Service",
    member: "OpenSession",
    reply: "s",
    from: slot,
  }, signal);
  open.catch(() => {});
  return { owner: await owner, open, slot };
}

const hello = { type: 2, replySerial: 1, sender: BUS, signature: "s", body: [":1.9"] };
const named = { type: 2, replySerial: 2, sender: BUS, signature: "s", body: [":1.5"] };
const reply = (sender: string, text: string) => ({
  type: 2,
  replySerial: 3,
  sender,
  signature: "s",
  body: [text],
});

Deno.test("a pipelined call takes its answer from the owner the bus names afterwards", async () => {
  const { owner, open, slot } = await pipelined([hello, named, reply(":1.5", "genuine")]);
  assert.deepEqual(owner, [":1.5"]);
  assert.equal(slot.name, ":1.5");
  assert.deepEqual(await open, ["genuine"]);
});

Deno.test("a forged answer read before the bus named the owner is refused, even from that name", async () => {
  // The forger answers first, claiming the very name the bus will name: still skipped.
  const { open } = await pipelined([
    reply(":1.5", "forged-early"),
    hello,
    named,
    reply(":1.66", "forged-late"),
    reply(":1.5", "genuine"),
  ]);
  assert.deepEqual(await open, ["genuine"]);
});

Deno.test("a pipelined call with no answer from the owner is never answered by another", async () => {
  const { open } = await pipelined([reply(":1.66", "forged-early"), hello, named]);
  await assert.rejects(open, /closed the connection/);
});
