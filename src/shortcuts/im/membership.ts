/**
 * Lark's IM answers whose meaning SPEC's map does not give, explained:
 * - "not in the chat": the service says only "Bot/User can NOT be out of the chat." (230002),
 *   "App not in chat." (234004) or "Operator can NOT be out of the chat." (232011); hark names
 *   the identity and the chat, and says how to get in or read it as someone who is;
 * - 230001, an invalid parameter (the service's `msg` names it after `ext=`), which SPEC maps to
 *   an invalid or expired token: hark says which of the command's ids to check first.
 *
 * The kind of error and its exit code stay the service's, and for 230001 and 230002 the recovery
 * command stays SPEC's (a sign-in; with the scope for 230002, since it also means a missing one).
 *
 * @module
 */

import {
  ApiError,
  AuthError,
  HarkError,
  PermissionError,
  SPEC_230001_MEANING,
} from "../../errors/mod.ts";
import { stringField } from "../../json/fields.ts";
import type { ShortcutInput } from "../definition.ts";

/** The code SPEC maps to "insufficient permission" (recovery: sign in with the scope). */
const SPEC_MAPPED_CODE = 230002;

/** Lark IM's "invalid request parameter", which SPEC maps to an invalid or expired token. */
const INVALID_PARAMETER = 230001;

/** The flags of the IM shortcuts that name what a call addresses, checked first after a 230001. */
const ID_FLAGS = ["chat-id", "user-id", "email", "message-id", "thread-id", "key"] as const;

/** The codes that mean the caller is not a member of the chat. */
export const NOT_IN_CHAT_CODES: ReadonlySet<number> = new Set([230002, 232011, 234004]);

/** What the failed call was about. */
export interface Where {
  /** The chat, when the command named it. */
  chatId?: string;
}

function apiCodeOf(error: unknown): number | undefined {
  if (
    error instanceof PermissionError || error instanceof ApiError || error instanceof AuthError
  ) {
    return error.apiCode;
  }
  return undefined;
}

/**
 * A 230001 answer read as Lark's IM service means it: a parameter is invalid (the message names
 * it after `ext=`); the suggestion names the ids the command was given, and SPEC's recovery
 * command (a sign-in) stays for the case where the token is the problem after all.
 *
 * @param error the error SPEC's map made of the answer
 * @param input the shortcut input (the ids given)
 */
function invalidParameter(error: AuthError, input: ShortcutInput<object>): AuthError {
  // Each IM shortcut declares some of these flags; read whichever it has.
  const given = ID_FLAGS.flatMap((name) => {
    const value = stringField(input.values, name);
    return value === undefined ? [] : [`--${name} ${JSON.stringify(value)}`];
  });
  const message = error.message.startsWith(SPEC_230001_MEANING)
    ? `Invalid request parameter${error.message.slice(SPEC_230001_MEANING.length)}`
    : error.message;
  return new AuthError(message, {
    code: error.code,
    type: error.type,
    apiCode: INVALID_PARAMETER,
    requestId: error.requestId,
    cause: error,
    suggestion: "In IM, code 230001 means a parameter of the request is invalid (the service " +
      'names it after "ext="): check ' +
      (given.length > 0 ? given.join(", ") : "the ids given") +
      " (an id of the right kind, that exists, that this identity can see); if they are right, " +
      "the token may be invalid or expired: sign in again",
    command: error.recovery.command,
  });
}

/**
 * The error to show for a failure: a not-in-the-chat answer rewritten to say who is not in
 * which chat and what to do, a 230001 to say which parameter to check; anything else unchanged.
 *
 * @param error what the call failed with
 * @param input the shortcut input (identity)
 * @param where the chat, when known
 */
export function explainMembership(
  error: unknown,
  input: ShortcutInput<object>,
  where: Where,
): unknown {
  const code = apiCodeOf(error);
  if (error instanceof AuthError && code === INVALID_PARAMETER) {
    return invalidParameter(error, input);
  }
  if (!(error instanceof HarkError) || code === undefined || !NOT_IN_CHAT_CODES.has(code)) {
    return error;
  }
  const chat = where.chatId ? `chat "${where.chatId}"` : "the message's chat";
  const bot = input.identity === "bot";
  const message = `${bot ? "The app's bot is" : "You are"} not a member of ${chat}: ` +
    error.message;
  const recovery: { suggestion: string; command: string } = bot
    ? {
      suggestion: "Add the app's bot to the chat in Lark (chat settings, Bots), or act as a " +
        "member with --as user; the chats the bot is in are listed by the command below",
      command: "hark im +chats --as bot",
    }
    : {
      suggestion: "Ask a member to add you to the chat, or use --as bot if the app's bot is " +
        "in it; the chats you are in are listed by the command below",
      command: "hark im +chats",
    };
  if (code === SPEC_MAPPED_CODE) {
    // SPEC maps 230002 to a sign-in with the scope; that command stays, the membership advice
    // comes first in the sentence.
    recovery.suggestion = `${recovery.suggestion.replace(/; the chats .*$/, "")}. If you are ` +
      "a member, the call lacks a scope: sign in granting it";
    recovery.command = error.recovery.command;
  }
  const options = { ...recovery, cause: error, requestId: error.requestId };
  return error instanceof PermissionError
    ? new PermissionError(message, { ...options, code: error.code, apiCode: code })
    : new ApiError(message, {
      ...options,
      code: error.code,
      apiCode: code,
      httpStatus: error instanceof ApiError ? error.httpStatus : undefined,
      type: error.type,
    });
}

/**
 * Runs a call, explaining a not-in-the-chat failure or an invalid parameter.
 *
 * @param input the shortcut input
 * @param call the call
 * @param where the chat, when known
 */
export async function withMembership<T>(
  input: ShortcutInput<object>,
  call: Promise<T>,
  where: Where = {},
): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw explainMembership(error, input, where);
  }
}

/**
 * Passes a listing's batches through, explaining a not-in-the-chat failure or an invalid
 * parameter.
 *
 * @param input the shortcut input
 * @param batches the listing
 * @param where the chat, when known
 */
export async function* membershipErrors<T>(
  input: ShortcutInput<object>,
  batches: AsyncIterable<T>,
  where: Where = {},
): AsyncGenerator<T> {
  try {
    yield* batches;
  } catch (error) {
    throw explainMembership(error, input, where);
  }
}
