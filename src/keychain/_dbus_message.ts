/**
 * Whole D-Bus messages: the fixed header, the header fields and the body, written little-endian
 * and read in either byte order, with the length of a message known from its first 16 bytes so
 * that a reader never buffers more than {@link MAX_MESSAGE_BYTES}. Private to `src/keychain/`.
 *
 * @module
 */

import {
  type DBusData,
  type DBusMessage,
  DBusReader,
  DBusWireError,
  DBusWriter,
  MAX_MESSAGE_BYTES,
  MessageType,
  splitSignature,
} from "./_dbus_wire.ts";

/** The bytes of the fixed header, through the header fields' array length. */
export const FIXED_HEADER_BYTES = 16;

const FIELDS: Record<number, { key: keyof DBusMessage; type: string }> = {
  1: { key: "path", type: "o" },
  2: { key: "interface", type: "s" },
  3: { key: "member", type: "s" },
  4: { key: "errorName", type: "s" },
  5: { key: "replySerial", type: "u" },
  6: { key: "destination", type: "s" },
  7: { key: "sender", type: "s" },
  8: { key: "signature", type: "g" },
};

/** What a method call needs. */
export interface MethodCall {
  /** The serial, unique on the connection and not 0. */
  serial: number;
  /** The destination bus name. */
  destination: string;
  /** The object. */
  path: string;
  /** The interface. */
  interface: string;
  /** The method. */
  member: string;
  /** The body's signature; default none. */
  signature?: string;
  /** The body. */
  body?: DBusData[];
  /** The header's flags, such as {@link NO_AUTO_START}; default none. */
  flags?: number;
}

/** The flag asking the bus not to start the destination's service for this call. */
export const NO_AUTO_START = 0x2;

/**
 * Writes a method call, little-endian.
 *
 * @throws {DBusWireError} when the body does not fit the signature
 */
export function encodeMethodCall(call: MethodCall): Uint8Array {
  const signature = call.signature ?? "";
  const types = splitSignature(signature);
  const bodyValues = call.body ?? [];
  if (types.length !== bodyValues.length) {
    throw new DBusWireError(`"${signature}" has ${types.length} types for ${bodyValues.length}`);
  }
  const body = new DBusWriter();
  types.forEach((type, i) => body.write(type, bodyValues[i]));
  const fields: DBusData[] = [
    [1, { signature: "o", value: call.path }],
    [2, { signature: "s", value: call.interface }],
    [3, { signature: "s", value: call.member }],
    [6, { signature: "s", value: call.destination }],
  ];
  if (signature !== "") fields.push([8, { signature: "g", value: signature }]);
  const message = new DBusWriter();
  message.write("y", "l".charCodeAt(0));
  message.write("y", MessageType.call);
  message.write("y", call.flags ?? 0);
  message.write("y", 1);
  message.write("u", body.length);
  message.write("u", call.serial);
  message.write("a(yv)", fields);
  message.align(8);
  const head = message.bytes;
  const out = new Uint8Array(head.length + body.length);
  out.set(head);
  out.set(body.bytes, head.length);
  return out;
}

/**
 * The whole length of the message whose first {@link FIXED_HEADER_BYTES} bytes these are.
 *
 * @throws {DBusWireError} when the header is malformed or the message is longer than
 *   {@link MAX_MESSAGE_BYTES}
 */
export function messageLength(head: Uint8Array): number {
  const little = byteOrder(head);
  const view = new DataView(head.buffer, head.byteOffset, FIXED_HEADER_BYTES);
  const body = view.getUint32(4, little);
  const fields = view.getUint32(12, little);
  const total = FIXED_HEADER_BYTES + Math.ceil(fields / 8) * 8 + body;
  if (body > MAX_MESSAGE_BYTES || fields > MAX_MESSAGE_BYTES || total > MAX_MESSAGE_BYTES) {
    throw new DBusWireError(`a message of ${total} bytes is over hark's limit`);
  }
  return total;
}

/**
 * Reads one whole message.
 *
 * @throws {DBusWireError} when anything in it is malformed
 */
export function decodeMessage(bytes: Uint8Array): DBusMessage {
  const little = byteOrder(bytes);
  if (bytes.length !== messageLength(bytes)) {
    throw new DBusWireError("the message's length does not match its header");
  }
  const reader = new DBusReader(bytes, little, 1);
  const type = num(reader.read("y"));
  const flags = num(reader.read("y"));
  if (num(reader.read("y")) !== 1) throw new DBusWireError("the protocol version is not 1");
  const bodyLength = num(reader.read("u"));
  const serial = num(reader.read("u"));
  if (type < 1 || type > 4 || serial === 0) {
    throw new DBusWireError(`a message of type ${type}, serial ${serial}`);
  }
  const message: DBusMessage = { type, flags, serial, signature: "", body: [] };
  const fields = reader.read("a(yv)");
  for (const field of Array.isArray(fields) ? fields : []) {
    const [code, value] = Array.isArray(field) ? field : [];
    const known = typeof code === "number" ? FIELDS[code] : undefined;
    if (known === undefined || !isVariantOf(value, known.type)) continue;
    const inner = value.value;
    if (known.key === "replySerial" && typeof inner === "number") message.replySerial = inner;
    else if (known.key !== "replySerial" && typeof inner === "string") {
      setText(message, known.key, inner);
    }
  }
  reader.align(8);
  if (bytes.length - reader.offset !== bodyLength) {
    throw new DBusWireError("the body's length does not match the header");
  }
  for (const bodyType of splitSignature(message.signature)) {
    message.body.push(reader.read(bodyType));
  }
  if (reader.offset !== bytes.length) {
    throw new DBusWireError("the body is longer than its signature");
  }
  return message;
}

function setText(message: DBusMessage, key: keyof DBusMessage, value: string): void {
  if (key === "path") message.path = value;
  else if (key === "interface") message.interface = value;
  else if (key === "member") message.member = value;
  else if (key === "errorName") message.errorName = value;
  else if (key === "destination") message.destination = value;
  else if (key === "sender") message.sender = value;
  else if (key === "signature") message.signature = value;
}

function isVariantOf(value: unknown, signature: string): value is { value: DBusData } {
  return typeof value === "object" && value !== null && "signature" in value &&
    value.signature === signature && "value" in value;
}

function byteOrder(head: Uint8Array): boolean {
  if (head.length < FIXED_HEADER_BYTES) throw new DBusWireError("a message header is cut short");
  if (head[0] === 0x6c) return true; // "l"
  if (head[0] === 0x42) return false; // "B"
  throw new DBusWireError(`a message starts with byte ${head[0]}, not "l" or "B"`);
}

function num(value: DBusData): number {
  if (typeof value !== "number") throw new DBusWireError("a header number is not a number");
  return value;
}
