/**
 * The idempotency key `hark mcp` gives a write when the agent gives none. An agent retries a
 * call whose answer it lost, or repeats one by mistake; a fresh random key per call would post
 * the message, event or chat twice. The key is instead derived from what the call is: the tool,
 * its arguments (as canonical JSON, with the size and modification time of each file it
 * uploads), the profile and the identity, within a window of {@link KEY_WINDOW_MINUTES} minutes.
 * Identical calls in that window carry the same key, so the service applies them once; after it,
 * the same call is a new one. The key has a UUID's shape (36 characters), which every key the
 * service takes allows (IM's `uuid` takes up to 50).
 *
 * @module
 */

import type { Identity } from "../auth/identity.ts";
import { canonicalJson } from "../json/page_cursor.ts";

/** Re-exported: the canonical JSON that keys are derived from is the one page cursors bind with. */
export { canonicalJson };

/** How long identical calls share a key, in minutes. */
export const KEY_WINDOW_MINUTES = 10;

const WINDOW_MS = KEY_WINDOW_MINUTES * 60_000;

/** What a call is, for its key. */
export interface CallFacts {
  /** The tool's name. */
  tool: string;
  /** The profile in use. */
  profile: string;
  /** The identity that acts. */
  identity: Identity;
  /** The arguments given (the key's own absent), each a JSON value. */
  arguments: Record<string, unknown>;
}

/**
 * Derives the keys of one server's calls. A key is kept for {@link KEY_WINDOW_MINUTES} minutes
 * from the first call that used it, so a retry just after the clock's window turns keeps its key;
 * a new server (after a restart) derives the same key within the same clock window.
 */
export class DerivedKeys {
  readonly #now: () => number;
  readonly #seen = new Map<string, { key: string; since: number }>();

  /** @param now the clock: `ctx.now` */
  constructor(now: () => number) {
    this.#now = now;
  }

  /**
   * The key of a call.
   *
   * @param facts what the call is
   * @returns a UUID-shaped key, the same for identical calls within the window
   */
  async keyOf(facts: CallFacts): Promise<string> {
    const now = this.#now();
    for (const [call, seen] of this.#seen) {
      if (now - seen.since >= WINDOW_MS) this.#seen.delete(call);
    }
    const call = hex(
      await sha256(canonicalJson([facts.tool, facts.profile, facts.identity, facts.arguments])),
    );
    const seen = this.#seen.get(call);
    if (seen !== undefined) return seen.key;
    const key = uuidShaped(await sha256(`${call}\n${Math.floor(now / WINDOW_MS)}`));
    this.#seen.set(call, { key, since: now });
    return key;
  }
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

function hex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The first 16 bytes as a UUID of version 8 (made by the application), RFC 9562. */
function uuidShaped(bytes: Uint8Array): string {
  const b = bytes.slice(0, 16);
  b[6] = (b[6] & 0x0f) | 0x80;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = hex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
