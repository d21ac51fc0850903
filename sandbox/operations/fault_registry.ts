/**
 * Fault injection for the sandbox: latency, error statuses, dropped connections and broken
 * bodies, per route or for every service route, optionally only for the next N requests.
 *
 * @module
 */

import { mulberry32 } from "../core/seed_data.ts";

/** The kinds of fault the sandbox can inject. */
export const FAULT_KINDS = ["latency", "status", "drop", "malformed", "truncated"] as const;

/** One fault to inject. */
export interface FaultSpec {
  /**
   * A path prefix such as "/open-apis/im/v1/messages", optionally preceded by a method
   * ("POST /open-apis/im/v1/messages"); ending with "$", that exact path only. Absent: every
   * /open-apis and /oauth route.
   */
  route?: string;
  /**
   * "latency" delays then serves normally; "status" answers `status` with a Lark body
   * `{code, msg}`; "drop" closes the connection without an answer; "malformed" answers 200 with a
   * non-JSON body; "truncated" serves the real answer cut in half while promising the full
   * Content-Length.
   */
  kind: (typeof FAULT_KINDS)[number];
  /** Latency in milliseconds (kind "latency"). */
  ms?: number;
  /** Extra random latency up to this many milliseconds (kind "latency"). */
  jitter_ms?: number;
  /** HTTP status (kind "status"; default 500). */
  status?: number;
  /** Lark code (kind "status"; default by status: 401→99991663, 403→99991672, 429→99991400, 5xx→500000). */
  code?: number;
  /** Message (kind "status"). */
  msg?: string;
  /**
   * Seconds to wait (kind "status"): a rate limit (429, or code 99991400) sends them as Lark's
   * `x-ogw-ratelimit-reset` (default 1), any other status as `Retry-After`.
   */
  retry_after?: number;
  /** Fire for the next N matching requests only, then stop; absent: every time. */
  times?: number;
  /** Chance in [0, 1] that a matching request is hit (default 1). */
  probability?: number;
  /**
   * For "drop": "before" (default) drops without serving the request; "after" serves it (side
   * effects happen) and then drops the answer.
   */
  stage?: "before" | "after";
}

/** A registered fault with its id and what is left of its `times`. */
export interface ActiveFault extends FaultSpec {
  id: string;
  /** Remaining hits when `times` was given. */
  remaining?: number;
  /** How often it fired. */
  hits: number;
}

/**
 * Checks and normalizes an untrusted fault description.
 *
 * @throws {Error} naming the bad field
 */
export function validateFault(input: unknown): FaultSpec {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new Error("Cannot add fault: expected an object");
  }
  const spec = input as Record<string, unknown>;
  if (!FAULT_KINDS.includes(spec.kind as FaultSpec["kind"])) {
    throw new Error(`Cannot add fault: kind must be one of ${FAULT_KINDS.join(", ")}`);
  }
  if (spec.route !== undefined && typeof spec.route !== "string") {
    throw new Error("Cannot add fault: route must be a string");
  }
  for (const key of ["ms", "jitter_ms", "status", "code", "retry_after", "times", "probability"]) {
    if (spec[key] !== undefined && (typeof spec[key] !== "number" || !(spec[key] as number >= 0))) {
      throw new Error(`Cannot add fault: "${key}" must be a non-negative number`);
    }
  }
  if (spec.stage !== undefined && spec.stage !== "before" && spec.stage !== "after") {
    throw new Error(`Cannot add fault: stage must be "before" or "after"`);
  }
  return spec as unknown as FaultSpec;
}

/** Default Lark code for an injected HTTP status. */
export function defaultFaultCode(status: number): number {
  if (status === 401) return 99991663;
  if (status === 403) return 99991672;
  if (status === 429) return 99991400;
  if (status >= 500) return 500000;
  return status;
}

/** The registered faults of one sandbox. */
export class FaultRegistry {
  #faults: ActiveFault[] = [];
  #next = 1;
  #random: () => number;

  /** @param seed seeds the PRNG behind `probability` and `jitter_ms` */
  constructor(seed = 1) {
    this.#random = mulberry32(seed ^ 0x5eed);
  }

  /** Registers faults; returns their ids in order. */
  add(specs: FaultSpec[]): string[] {
    return specs.map((spec) => {
      const fault: ActiveFault = { ...spec, id: `f${this.#next++}`, hits: 0 };
      if (spec.times !== undefined) fault.remaining = spec.times;
      this.#faults.push(fault);
      return fault.id;
    });
  }

  /** Every registered fault, including spent ones. */
  list(): ActiveFault[] {
    return this.#faults.map((f) => ({ ...f }));
  }

  /** Removes every fault. */
  clear(): void {
    this.#faults = [];
  }

  /**
   * The faults that fire for this request, in registration order, consuming one of each one's
   * `times`: every matching latency fault and at most one other. Only /open-apis and /oauth paths
   * can be hit.
   */
  match(method: string, path: string): ActiveFault[] {
    if (!path.startsWith("/open-apis/") && !path.startsWith("/oauth/")) return [];
    const fired: ActiveFault[] = [];
    let terminal = false;
    for (const fault of this.#faults) {
      if (fault.remaining !== undefined && fault.remaining <= 0) continue;
      if (terminal && fault.kind !== "latency") continue;
      if (fault.route) {
        const m = /^([A-Z]+)\s+(\S+)$/.exec(fault.route.trim());
        const [routeMethod, prefix] = m ? [m[1], m[2]] : [undefined, fault.route.trim()];
        if (routeMethod && routeMethod !== method) continue;
        // A trailing "$" asks for the exact path, not a prefix.
        if (prefix.endsWith("$") ? path !== prefix.slice(0, -1) : !path.startsWith(prefix)) {
          continue;
        }
      }
      if (fault.probability !== undefined && this.#random() >= fault.probability) continue;
      if (fault.remaining !== undefined) fault.remaining--;
      fault.hits++;
      fired.push(fault);
      if (fault.kind !== "latency") terminal = true;
    }
    return fired;
  }

  /** A jittered delay for a latency fault, in milliseconds. */
  delayOf(fault: FaultSpec): number {
    return (fault.ms ?? 0) + Math.floor(this.#random() * (fault.jitter_ms ?? 0));
  }
}
