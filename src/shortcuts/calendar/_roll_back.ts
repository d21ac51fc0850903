/**
 * Rolling back a half-made event: when its attendees could not be added, `+create` (and
 * `+find-time --create`) delete the event again, without notifying anyone, and say what happened.
 *
 * @module
 */

import { ApiError, HarkError, singleLine } from "../../errors/mod.ts";
import type { ApiCaller } from "../definition.ts";
import { EVENT_DELETE, eventPath, isEventGone } from "./_event_api.ts";

/** How long the rollback of a half-made event may take. */
const ROLLBACK_TIMEOUT_MS = 15_000;

/**
 * Deletes the event whose attendees could not be added, and returns the error to report: the
 * attendees' failure, with the rollback's outcome (done, or failed too and the event left).
 *
 * @param client the API client
 * @param calendarId the event's calendar
 * @param createdId the id the service gave the new event
 * @param error why adding the attendees failed
 * @param timeout a signal that ends the rollback after the given milliseconds
 */
export async function rollBack(
  client: Pick<ApiCaller, "request">,
  calendarId: string,
  createdId: string,
  error: unknown,
  timeout: (ms: number) => AbortSignal,
): Promise<HarkError> {
  const reason = error instanceof Error ? error.message : String(error);
  // The id the service gave the new event, as the messages below quote it: one line.
  const eventId = singleLine(createdId);
  const options = (recovery: string) => ({
    ...(error instanceof ApiError
      ? { apiCode: error.apiCode, httpStatus: error.httpStatus, requestId: error.requestId }
      : {}),
    code: error instanceof HarkError ? error.code : undefined,
    type: error instanceof HarkError ? error.type : undefined,
    suggestion: recovery,
    command: error instanceof HarkError ? error.recovery.command : undefined,
    cause: error,
  });
  try {
    // Runs even when Ctrl-C caused the failure: leaving half an event behind is worse.
    // Nobody should hear of an event that never really existed.
    await client.request({
      method: "DELETE",
      path: eventPath(calendarId, createdId),
      query: { need_notification: false },
      scopes: [EVENT_DELETE],
      cleanup: true,
      signal: timeout(ROLLBACK_TIMEOUT_MS),
    });
  } catch (deleteError) {
    // Gone already (a retried delete whose first answer was lost): rolled back all the same.
    if (isEventGone(deleteError)) {
      return new ApiError(
        `Cannot add the attendees: ${reason}; event "${eventId}" was deleted again (rolled back)`,
        options("Check the attendee ids and run the command again"),
      );
    }
    return new ApiError(
      `Cannot add the attendees: ${reason}; deleting event "${eventId}" failed too, so it ` +
        `remains in calendar "${calendarId}"`,
      {
        ...options(`Delete event "${eventId}" by hand, or add the attendees to it`),
        cause: new AggregateError([error, deleteError], "Adding attendees and rollback failed"),
      },
    );
  }
  return new ApiError(
    `Cannot add the attendees: ${reason}; event "${eventId}" was deleted again (rolled back)`,
    options("Check the attendee ids and run the command again"),
  );
}
