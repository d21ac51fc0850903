/**
 * The frames of Lark's event long connection, as the official SDKs' WebSocket clients exchange
 * them: a protobuf message `pbbp2.Frame` (SeqID, LogID, service, method, headers, payload
 * encoding and type, payload, LogIDNew; a Header is a required key and value). `method` 0 is a
 * control frame (ping, pong), 1 a data frame (an event or a card, perhaps one part of several).
 * The codec is protobufjs's light runtime with the type built by reflection: this module is
 * loaded only by `hark event +subscribe` (and the sandbox), so nothing else pays its load cost.
 *
 * @module
 */

import protobuf from "protobufjs/light.js";
import Long from "long";

/** `method` of a control frame (ping, pong). */
export const CONTROL = 0;
/** `method` of a data frame (an event, a card). */
export const DATA = 1;

/** The largest frame hark decodes: Lark splits bigger events into parts. */
export const MAX_FRAME_BYTES = 1024 * 1024;

/** One header of a frame. */
export interface FrameHeader {
  /** Such as `type`, `message_id`, `sum`, `seq`, `trace_id`, `biz_rt`. */
  key: string;
  /** Its value, always text. */
  value: string;
}

/** A decoded frame. The 64-bit ids stay exact (`bigint`), since an answer echoes them. */
export interface Frame {
  seqId: bigint;
  logId: bigint;
  service: number;
  /** {@link CONTROL} or {@link DATA}. */
  method: number;
  headers: FrameHeader[];
  payloadEncoding?: string;
  payloadType?: string;
  payload?: Uint8Array;
  logIdNew?: string;
}

/** A frame that could not be read: its bytes are dropped with a warning. */
export class FrameError extends Error {
  override name = "FrameError";
}

// The schema of the SDKs' `pbbp2.proto` (proto2: the ids, service, method and a header's key
// and value are required).
const root = protobuf.Root.fromJSON({
  nested: {
    pbbp2: {
      nested: {
        Header: {
          fields: {
            key: { rule: "required", type: "string", id: 1 },
            value: { rule: "required", type: "string", id: 2 },
          },
        },
        Frame: {
          fields: {
            SeqID: { rule: "required", type: "uint64", id: 1 },
            LogID: { rule: "required", type: "uint64", id: 2 },
            service: { rule: "required", type: "int32", id: 3 },
            method: { rule: "required", type: "int32", id: 4 },
            headers: { rule: "repeated", type: "Header", id: 5 },
            payloadEncoding: { type: "string", id: 6 },
            payloadType: { type: "string", id: 7 },
            payload: { type: "bytes", id: 8 },
            LogIDNew: { type: "string", id: 9 },
          },
        },
      },
    },
  },
});
protobuf.util.Long = Long;
protobuf.configure();
const FRAME = root.lookupType("pbbp2.Frame");

/**
 * Reads a frame.
 *
 * @param bytes one WebSocket binary message
 * @throws {FrameError} when it is too large, not a Frame, or lacks a required field
 */
export function decodeFrame(bytes: Uint8Array): Frame {
  if (bytes.length > MAX_FRAME_BYTES) {
    throw new FrameError(`a frame of ${bytes.length} bytes is over ${MAX_FRAME_BYTES}`);
  }
  let message: protobuf.Message;
  try {
    message = FRAME.decode(bytes);
  } catch (error) {
    throw new FrameError(`not a frame: ${error instanceof Error ? error.message : error}`);
  }
  const plain = FRAME.toObject(message, { longs: String });
  return {
    seqId: BigInt(String(plain.SeqID)),
    logId: BigInt(String(plain.LogID)),
    service: Number(plain.service),
    method: Number(plain.method),
    headers: Array.isArray(plain.headers)
      ? plain.headers.map((h: { key: unknown; value: unknown }) => ({
        key: String(h.key),
        value: String(h.value),
      }))
      : [],
    ...(typeof plain.payloadEncoding === "string" && { payloadEncoding: plain.payloadEncoding }),
    ...(typeof plain.payloadType === "string" && { payloadType: plain.payloadType }),
    ...(plain.payload instanceof Uint8Array && { payload: new Uint8Array(plain.payload) }),
    ...(typeof plain.LogIDNew === "string" && { logIdNew: plain.LogIDNew }),
  };
}

/**
 * Writes a frame.
 *
 * @param frame the frame
 */
export function encodeFrame(frame: Frame): Uint8Array {
  const message = FRAME.fromObject({
    SeqID: Long.fromString(frame.seqId.toString(), true),
    LogID: Long.fromString(frame.logId.toString(), true),
    service: frame.service,
    method: frame.method,
    headers: frame.headers,
    ...(frame.payloadEncoding !== undefined && { payloadEncoding: frame.payloadEncoding }),
    ...(frame.payloadType !== undefined && { payloadType: frame.payloadType }),
    ...(frame.payload !== undefined && { payload: frame.payload }),
    ...(frame.logIdNew !== undefined && { LogIDNew: frame.logIdNew }),
  });
  return FRAME.encode(message).finish();
}

/**
 * The value of a header, or `undefined`.
 *
 * @param frame the frame
 * @param key the header's key
 */
export function headerOf(frame: Frame, key: string): string | undefined {
  return frame.headers.find((h) => h.key === key)?.value;
}
