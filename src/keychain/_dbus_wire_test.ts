import assert from "node:assert/strict";
import { decodeMessage, encodeMethodCall, messageLength } from "./_dbus_message.ts";
import {
  DBusReader,
  DBusWireError,
  DBusWriter,
  MAX_MESSAGE_BYTES,
  splitSignature,
} from "./_dbus_wire.ts";

const hex = (text: string) =>
  Uint8Array.from(text.replace(/\s+/g, "").match(/../g) ?? [], (b) => parseInt(b, 16));
const toHex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

// Worked out by hand from the D-Bus specification's marshalling rules.
Deno.test("encodeMethodCall() writes the header fields, padding and body little-endian", () => {
  const bytes = encodeMethodCall({
    serial: 7,
    destination: "a.b",
    path: "/o",
    interface: "i.j",
    member: "M",
    signature: "su",
    body: ["hi", 258],
  });
  assert.equal(
    toHex(bytes),
    "6c010001" + "0c000000" + "07000000" + "48000000" + // "l", call, flags 0, v1; body 12; serial 7; fields 72
      "01016f00" + "02000000" + "2f6f0000" + "00000000" + // PATH o "/o"
      "02017300" + "03000000" + "692e6a00" + "00000000" + // INTERFACE s "i.j"
      "03017300" + "01000000" + "4d000000" + "00000000" + // MEMBER s "M"
      "06017300" + "03000000" + "612e6200" + "00000000" + // DESTINATION s "a.b"
      "08016700" + "02737500" + // SIGNATURE g "su", then padding to 8
      "02000000" + "68690000" + "02010000", // body: "hi" NUL pad, 258
  );
  assert.equal(messageLength(bytes), bytes.length);
});

Deno.test("decodeMessage() reads a big-endian answer as a little-endian one", () => {
  // A method return, serial 9, answering 7, signature "ao": ["/a", "/bc"].
  const body = "00000010" + "00000002" + "2f610000" + "00000003" + "2f626300";
  const big = hex(
    "42020001" + "00000014" + "00000009" + "00000010" +
      "05017500" + "00000007" + // REPLY_SERIAL u 7
      "08016700" + "02616f00" + // SIGNATURE g "ao"
      body,
  );
  const message = decodeMessage(big);
  assert.equal(message.type, 2);
  assert.equal(message.serial, 9);
  assert.equal(message.replySerial, 7);
  assert.deepEqual(message.body, [["/a", "/bc"]]);
  // The same bytes read little-endian are another message entirely.
  big[0] = 0x6c;
  assert.throws(() => decodeMessage(big), DBusWireError);
});

Deno.test("DBusWriter and DBusReader round-trip the Secret Service's types", () => {
  const value = [
    [["org.freedesktop.Secret.Item.Label", { signature: "s", value: "hark/x" }]],
    ["/s/1", new Uint8Array([1, 2, 3]), new Uint8Array([0, 255]), "text/plain"],
    true,
  ];
  const writer = new DBusWriter();
  const types = splitSignature("a{sv}(oayays)b");
  types.forEach((t, i) => writer.write(t, value[i]));
  const reader = new DBusReader(writer.bytes, true);
  assert.deepEqual(types.map((t) => reader.read(t)), value);
  assert.equal(reader.offset, writer.length);
});

Deno.test("DBusReader refuses what the specification forbids", () => {
  const cases: [string, string, RegExp][] = [
    ["u", "0100", /ends in the middle/],
    ["b", "02000000", /boolean holds 2/],
    ["s", "02000000" + "6869" + "01", /NUL/],
    ["s", "02000000" + "0069" + "00", /NUL/],
    ["s", "02000000" + "c328" + "00", /UTF-8/],
    ["o", "02000000" + "2f2f" + "00", /object path/],
    ["(yu)", "01" + "010000" + "02000000", /padding byte is not zero/],
    ["ay", "ffffff7f", /64 MiB|past the message/],
    ["v", "01" + "7a" + "00", /signature/],
  ];
  for (const [type, bytes, error] of cases) {
    assert.throws(() => new DBusReader(hex(bytes), true).read(type), error, type);
  }
  assert.throws(() => splitSignature("a{vs}"), /not a basic type/);
  assert.throws(() => splitSignature("(ss"), /not closed/);
  assert.throws(() => splitSignature("a".repeat(40) + "y"), /nests too deeply/);
});

Deno.test("messageLength() refuses a message over the limit before reading it", () => {
  const head = hex("6c020001" + "00000000" + "01000000" + "00000000");
  new DataView(head.buffer).setUint32(4, MAX_MESSAGE_BYTES, true);
  assert.throws(() => messageLength(head), /over hark's limit/);
  assert.throws(() => messageLength(hex("78020001" + "00".repeat(12))), /not "l" or "B"/);
});
