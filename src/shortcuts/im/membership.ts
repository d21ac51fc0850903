/**
 * Lark's IM answers whose meaning SPEC's map does not give, explained:
 * - "not in the chat": the service says only "Bot/User can NOT be out of the chat." (230002),
 *   "App not in chat." (234004) or "Operator can NOT be out of the chat." (232011); hark names
 *   the identity and the chat, and says how to get in or read it as someone who is;
 * - 230001, an invalid parameter (the service's `msg` names it after `ext=`), which SPEC maps to
 *   an invalid or expired token: hark says which of the command's ids to check, and how to find
 *   the right one (`hark contact +search-user`, `hark im +chats`).
 *
 * For 230001 and 230002 the kind of error and its exit code stay SPEC's (auth and permission,
 * exit 2), but the recovery addresses what Lark's IM means by them: no sign-in fixes a wrong id
 * or a bot outside the chat (Lark's "如何解决 230001 错误" page; 230002 "Bot/User can NOT be out of
 * the chat." in the message API's error tables).
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
import { shellCommand } from "../../errors/shell_quote.ts";
import { stringField } from "../../json/fields.ts";
import type { ShortcutInput } from "../definition.ts";

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
 * A hark command line run as the shortcut's caller: `--as bot` when it acted as the bot (and
 * `asBot`), `--profile` when the profile is not `default`.
 */
function harkCommand(
  words: readonly string[],
  input: ShortcutInput<object>,
  asBot = true,
): string {
  const all = ["hark", ...words];
  if (asBot && input.identity === "bot") all.push("--as", "bot");
  if (input.profile !== "default") all.push("--profile", input.profile);
  return shellCommand(all);
}

/**
 * How to find the right id for a 230001: the people search for an email (it takes names and
 * emails; user only), the profile lookup for a user id, the chats list for anything else.
 */
function findIdCommand(input: ShortcutInput<object>): { how: string; command: string } {
  const email = stringField(input.values, "email");
  if (email !== undefined) {
    return {
      how: "find the person's address and open_id with the people search below",
      command: harkCommand(["contact", "+search-user", "--query", email], input, false),
    };
  }
  const userId = stringField(input.values, "user-id");
  if (userId !== undefined) {
    return {
      how: "the command below says whether the id names someone; `hark contact +search-user " +
        "--query` finds a person's open_id by name or email",
      command: harkCommand(["contact", "+get-user", "--user-id", userId], input),
    };
  }
  return {
    how: "list the chats this identity is in, with their ids, with the command below",
    command: harkCommand(["im", "+chats"], input),
  };
}

/**
 * A 230001 answer read as Lark's IM service means it: a parameter is invalid (the message names
 * it after `ext=`). The suggestion names the ids the command was given; the recovery finds the
 * right id instead of signing in, which changes nothing. SPEC's type and exit code stay.
 *
 * @param error the error SPEC's map made of the answer
 * @param input the shortcut input (the ids given, identity, profile)
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
  const find = findIdCommand(input);
  return new AuthError(message, {
    code: error.code,
    type: error.type,
    apiCode: INVALID_PARAMETER,
    requestId: error.requestId,
    cause: error,
    suggestion: "In IM, code 230001 means a parameter of the request is invalid (the service " +
      'names it after "ext="), not that the sign-in is: check ' +
      (given.length > 0 ? given.join(", ") : "the ids given") +
      " (an id of the right kind, that exists, that this identity can see); " + find.how,
    command: find.command,
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
  // No sign-in puts anyone in a chat (230002 keeps SPEC's type and exit code, not its sign-in).
  const recovery: { suggestion: string; command: string } = bot
    ? {
      suggestion: "Add the app's bot to the chat in Lark (the chat's settings, Bots, Add), or " +
        "act as a member with --as user; the chats the bot is in are listed by the command below",
      command: harkCommand(["im", "+chats"], input),
    }
    : {
      suggestion: "Ask a member to add you to the chat, or use --as bot if the app's bot is " +
        "in it; the chats you are in are listed by the command below",
      command: harkCommand(["im", "+chats"], input),
    };
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
