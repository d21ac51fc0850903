/**
 * Asking the service whether a sign-in still works: `auth status` and `auth check` read the
 * stored token, whose times can say `valid` long after the session was revoked on the server.
 * One cheap call (`GET /open-apis/authen/v1/user_info`, which needs a user token and no scope),
 * bounded in time, tells; where the service cannot be reached the local view stands, said so.
 *
 * @module
 */

import { type AuthStatus, authStatus } from "../../auth/mod.ts";
import { USER_INFO_PATH } from "../../auth/user_info.ts";
import { CancelledError, type HarkError, NetworkError, toHarkError } from "../../errors/mod.ts";
import { ApiClient } from "../../http/api_client.ts";
import { terminalSafe } from "../../output/mod.ts";
import type { Session } from "../../session/session.ts";

/** How long the check may take in all (the call, a refresh after a rejection, one retry). */
export const VERIFY_TIMEOUT_MS = 5_000;

/** The status as the service confirmed it, or the local view. */
export interface VerifiedStatus {
  /** The status; `needs_login` when the service refused the session. */
  status: AuthStatus;
  /** `service` when the service answered, `local` when only the stored token was read. */
  checked: "service" | "local";
  /** The service's refusal, whose recovery says what to do (sign in again, unset a variable). */
  error?: HarkError;
}

/** Error types meaning the service could not be asked: the local view stands. */
const UNREACHABLE = new Set(["network", "server_error", "rate_limit", "invalid_response"]);

/**
 * Checks a usable user sign-in with the service: a refused token (and a refresh the service
 * refuses, which is remembered in the stored record) makes it `needs_login`; an unreachable
 * service leaves the local view, with a warning on stderr.
 *
 * @param session the command's session
 * @param status the local view ({@link authStatus})
 * @throws {CancelledError} on Ctrl-C
 */
export async function verifyWithService(
  session: Session,
  status: AuthStatus,
): Promise<VerifiedStatus> {
  if (!status.usable || status.identity !== "user") return { status, checked: "local" };
  const { ctx } = session;
  // One retry: a rejected token is refreshed and tried once more (a refusal of the refresh is
  // what tells a revoked session from an expired access token).
  const client = new ApiClient(ctx, {
    baseUrl: session.baseUrl(),
    tokens: session.tokens("user"),
    retry: { retries: 1 },
    timeoutMs: VERIFY_TIMEOUT_MS,
  });
  const deadline = ctx.timeout(VERIFY_TIMEOUT_MS);
  try {
    await client.request({ method: "GET", path: USER_INFO_PATH, signal: deadline });
  } catch (thrown) {
    if (thrown instanceof CancelledError && !deadline.aborted) throw thrown;
    const error = thrown instanceof CancelledError
      ? new NetworkError(`no answer within ${VERIFY_TIMEOUT_MS / 1000} s`)
      : toHarkError(thrown);
    if (error.type === "auth") {
      const reason = error.message;
      return {
        status: { ...status, state: "needs_login", usable: false, reason },
        checked: "service",
        // A token from the environment wins over any sign-in: no login helps while it is set.
        error: status.source === "env"
          ? error.withRecovery({
            suggestion: "The service refused HARK_USER_ACCESS_TOKEN: set a fresh token, or " +
              "unset it to use the stored sign-in",
            command: "unset HARK_USER_ACCESS_TOKEN",
          })
          : error,
      };
    }
    if (UNREACHABLE.has(error.type)) {
      ctx.stderr.write(
        `warning: ${
          terminalSafe(`Could not ask the service (${error.message}): this is the local view`, {
            breaks: "space",
          })
        }\n`,
      );
      return { status, checked: "local" };
    }
    throw error;
  }
  // A refresh on the way changed the stored times: report them as they are now.
  return { status: await authStatus(ctx, session), checked: "service" };
}
