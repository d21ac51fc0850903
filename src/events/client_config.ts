/**
 * The long connection's client config (the endpoint's `ClientConfig`, and every pong's payload),
 * checked, and the reconnect delays it allows.
 *
 * @module
 */

import { isObject, numberField } from "../json/fields.ts";

/** How the service wants the client to behave, in ms (Lark sends seconds). */
export interface ClientConfig {
  /** Ping every this many ms; the connection is dead after two without a frame. */
  pingMs: number;
  /** Reconnect attempts before giving up; negative: for ever. */
  reconnectCount: number;
  /** The pause between reconnect attempts, ms. */
  reconnectMs: number;
  /** The most random delay before the first reconnect, ms (spreads clients out). */
  nonceMs: number;
}

/** What hark assumes before the service says: Lark's production answer. */
export const DEFAULT_CLIENT_CONFIG: ClientConfig = {
  pingMs: 120_000,
  reconnectCount: -1,
  reconnectMs: 120_000,
  nonceMs: 30_000,
};

const DAY_S = 86_400;

/**
 * Reads a client config, keeping `base`'s value for any field absent or out of range (a ping
 * interval of at least 1 s, every field at most a day).
 *
 * @param value the JSON (`ClientConfig` or a pong's payload)
 * @param base the values to keep
 */
export function readClientConfig(value: unknown, base: ClientConfig): ClientConfig {
  if (!isObject(value)) return base;
  const seconds = (key: string, min: number) => {
    const n = numberField(value, key);
    return n !== undefined && Number.isInteger(n) && n >= min && n <= DAY_S ? n : undefined;
  };
  const ping = seconds("PingInterval", 1);
  const count = seconds("ReconnectCount", -1);
  const interval = seconds("ReconnectInterval", 0);
  const nonce = seconds("ReconnectNonce", 0);
  return {
    pingMs: ping === undefined ? base.pingMs : ping * 1000,
    reconnectCount: count === undefined ? base.reconnectCount : count,
    reconnectMs: interval === undefined ? base.reconnectMs : interval * 1000,
    nonceMs: nonce === undefined ? base.nonceMs : nonce * 1000,
  };
}

/**
 * The pause before reconnect attempt `attempt` (1 for the first): the first waits a random
 * part of the nonce, as the SDKs do, so that clients cut off together do not return together;
 * later ones wait the service's interval, doubling up to eight times it, plus a random part of
 * the nonce. Never shorter than the service asks, and never a busy loop (100 ms at least).
 *
 * @param attempt 1, 2, …
 * @param config the service's config
 * @param random a number in [0, 1)
 */
export function reconnectDelay(attempt: number, config: ClientConfig, random: number): number {
  const jitter = Math.floor(random * config.nonceMs);
  if (attempt <= 1) return jitter;
  const growth = 2 ** Math.min(attempt - 2, 3);
  return Math.max(100, config.reconnectMs * growth) + jitter;
}
