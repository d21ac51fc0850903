/**
 * What a user is told when a request got no usable answer, and whether trying again can help.
 *
 * @module
 */

import { ApiError, type HarkError, NetworkError } from "../errors/mod.ts";
import type { TransportFailure } from "./transport.ts";

/** The error to show for a failure, and whether another attempt may help. */
export interface FailureVerdict {
  /** The error to show when no attempt is left. */
  error: HarkError;
  /** Whether retrying can help without risking a second copy of a change. */
  retry: boolean;
}

/**
 * Judges a failure: a request that never left (DNS, refused connection) may always be sent
 * again; one that may have reached the service (dropped connection, broken answer) only when it
 * is idempotent; a timeout, an oversized answer or a redirect is final.
 *
 * @param failure what went wrong
 * @param idempotent whether sending the request twice is harmless (GET, PUT, DELETE, or a body
 *   with an idempotency key)
 */
export function judgeFailure(failure: TransportFailure, idempotent: boolean): FailureVerdict {
  const host = failure.url.host;
  const where = `${failure.method} ${failure.url.pathname}`;
  const maybeApplied = "The request may have been applied: check before retrying";
  // The request may have reached the service: a write may have been applied.
  const mayHaveApplied = failure.method !== "GET" && failure.method !== "HEAD";
  switch (failure.reason) {
    case "dns":
      return {
        retry: true,
        error: new NetworkError(`Cannot resolve host "${host}"`, {
          suggestion: "Check the base URL and your DNS or network connection, then retry",
          command: "hark profile list",
          cause: failure,
        }),
      };
    case "connect":
      return {
        retry: true,
        error: new NetworkError(`Cannot connect to "${host}"`, {
          suggestion: `Check that "${host}" is reachable (network, proxy, base URL), then retry`,
          cause: failure,
        }),
      };
    case "sent":
      return {
        retry: idempotent,
        error: new NetworkError(`Connection to "${host}" was lost during ${where}`, {
          suggestion: idempotent ? `Check your connection to "${host}" and retry` : maybeApplied,
          cause: failure,
          mayHaveApplied,
        }),
      };
    case "timeout":
      return {
        retry: false,
        error: new NetworkError(
          `No answer from "${host}" within ${(failure.timeoutMs ?? 0) / 1000} s`,
          {
            suggestion: idempotent
              ? `Check your connection to "${host}", then retry; the service may be slow`
              : `${maybeApplied}; the service may be slow`,
            cause: failure,
            mayHaveApplied,
          },
        ),
      };
    case "broken":
      return {
        retry: idempotent,
        error: new ApiError(
          `Cannot read the service's answer to ${where}: the connection broke mid-answer`,
          {
            httpStatus: failure.status,
            type: "invalid_response",
            suggestion: idempotent ? "Retry" : maybeApplied,
            cause: failure,
            mayHaveApplied,
          },
        ),
      };
    case "too_large":
      return {
        retry: false,
        error: new ApiError(
          `The service's answer to ${where} is larger than ${
            megabytes(failure.maxBodyBytes ?? 0)
          }; hark stopped reading it`,
          {
            httpStatus: failure.status,
            type: "invalid_response",
            suggestion: "Ask for less at a time (a shorter span, a smaller page), or check the " +
              "base URL points at the Open Platform",
            cause: failure,
          },
        ),
      };
    case "redirect":
      return {
        retry: false,
        error: new ApiError(
          `The service redirected ${where} to "${failure.location}"; hark does not follow it ` +
            "(redirects to another host, or that change the method, could leak credentials)",
          {
            httpStatus: failure.status,
            type: "redirect",
            suggestion: "Check the profile's base_url: it should be the Open Platform address " +
              "itself, such as https://open.larksuite.com",
            command: "hark config get apps",
            cause: failure,
          },
        ),
      };
  }
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / 1024 / 1024)} MiB`;
}
