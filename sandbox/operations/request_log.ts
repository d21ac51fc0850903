/**
 * The sandbox's record of received requests and its connection statistics.
 *
 * @module
 */

/** One received request, as `GET /sandbox/requests` reports it. */
export interface LoggedRequest {
  seq: number;
  /** ISO 8601 time of arrival. */
  time: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** Lower-case names; Authorization and secrets masked. */
  headers: Record<string, string>;
  /** Parsed JSON, a form object, text, or null when empty. */
  body: unknown;
  remote_port: number;
}

/** Counters reported by `GET /sandbox/stats`. */
export interface RequestStats {
  requests: number;
  /** Distinct client TCP connections seen (by remote port). */
  connections: number;
  /** Peak concurrent /open-apis requests. */
  max_in_flight: number;
  in_flight: number;
}

const SECRET_FIELDS = new Set(["client_secret", "app_secret"]);

/** Masks a secret: the first 4 characters then "…(masked)". */
export function maskSecret(value: string): string {
  return `${value.slice(0, 4)}…(masked)`;
}

/** Masks an Authorization header, keeping its scheme: "Bearer u-ab…(masked)". */
export function maskAuthorization(value: string): string {
  const space = value.indexOf(" ");
  if (space < 0) return maskSecret(value);
  return `${value.slice(0, space)} ${maskSecret(value.slice(space + 1))}`;
}

/** Turns a raw body into what the log shows: JSON, a form object, text or null. */
export function describeBody(text: string, contentType: string): unknown {
  if (text === "") return null;
  if (contentType.includes("application/x-www-form-urlencoded")) {
    const form: Record<string, string> = {};
    for (const [key, value] of new URLSearchParams(text)) {
      form[key] = SECRET_FIELDS.has(key) ? maskSecret(value) : value;
    }
    return form;
  }
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      for (const key of Object.keys(parsed)) {
        if (SECRET_FIELDS.has(key) && typeof parsed[key] === "string") {
          parsed[key] = maskSecret(parsed[key]);
        }
      }
    }
    return parsed;
  } catch {
    return text;
  }
}

/** Query parameters as an object; a repeated name becomes an array. */
export function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of params) {
    const had = out[key];
    out[key] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return out;
}

/** Records requests and counts connections and concurrency. */
export class RequestLog {
  #entries: LoggedRequest[] = [];
  #seq = 0;
  #ports = new Set<number>();
  #requests = 0;
  #inFlight = 0;
  #maxInFlight = 0;

  /** Records a request (call for every non-/sandbox/ request). */
  record(request: Request, bodyText: string, remotePort: number): LoggedRequest {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    for (const [name, value] of request.headers) {
      headers[name] = name === "authorization" ? maskAuthorization(value) : value;
    }
    const entry: LoggedRequest = {
      seq: ++this.#seq,
      time: new Date().toISOString(),
      method: request.method,
      path: url.pathname,
      query: queryObject(url.searchParams),
      headers,
      body: describeBody(bodyText, request.headers.get("content-type") ?? ""),
      remote_port: remotePort,
    };
    this.#entries.push(entry);
    this.#requests++;
    this.#ports.add(remotePort);
    return entry;
  }

  /** Marks the start of an /open-apis request; returns the function that marks its end. */
  begin(): () => void {
    this.#inFlight++;
    this.#maxInFlight = Math.max(this.#maxInFlight, this.#inFlight);
    let done = false;
    return () => {
      if (!done) this.#inFlight--;
      done = true;
    };
  }

  /** Every recorded request, oldest first. */
  list(): LoggedRequest[] {
    return [...this.#entries];
  }

  /** Forgets the requests and resets the statistics (in-flight requests still count). */
  clear(): void {
    this.#entries = [];
    this.#ports.clear();
    this.#requests = 0;
    this.#maxInFlight = this.#inFlight;
  }

  /** The current statistics. */
  stats(): RequestStats {
    return {
      requests: this.#requests,
      connections: this.#ports.size,
      max_in_flight: this.#maxInFlight,
      in_flight: this.#inFlight,
    };
  }
}
