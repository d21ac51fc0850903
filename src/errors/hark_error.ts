/**
 * The error kinds of hark. Every error a user can see is a {@link HarkError}: it carries the exit
 * code, a type, a user-friendly message and a recovery (what to do, and a command to run).
 * Anything thrown that is not a `HarkError` is a bug and becomes an {@link InternalError} at the
 * top, in `main.ts`.
 *
 * @module
 */

import type { ErrorType } from "./error_types.ts";
import { ExitCode } from "./exit_code.ts";
import { shellCommand } from "./shell_quote.ts";

/** What the user can do about an error. */
export interface Recovery {
  /** What to do, in words. */
  suggestion: string;
  /**
   * A command to run, as printed (no `<placeholders>`: a shell reads them as redirections).
   * Empty when the error cannot know it: the top level then offers the failed command line
   * again or its help, by the error's type (see `fallbackCommand` in `envelope.ts`).
   */
  command: string;
  /** A page to open when the fix is outside hark (the developer console's scope page). */
  url?: string;
}

/** Options shared by every error constructor. */
export interface HarkErrorOptions {
  /** What to do; each kind has a sensible default. */
  suggestion?: string;
  /** A command to run. */
  command?: string;
  /** The underlying error. */
  cause?: unknown;
  /** The service's log id of the answer that failed (what Lark support asks for). */
  requestId?: string;
  /**
   * Whether the request may have reached the service and been applied although no answer says
   * so (a write whose connection dropped or timed out after it was sent). The shortcut
   * lifecycle then prints the command that retries it safely, with the same idempotency key.
   */
  mayHaveApplied?: boolean;
}

/** Base class of every error shown to users. */
export class HarkError extends Error {
  /** The exit code, and `error.code` of the envelope. */
  readonly code: number;
  /** The error type, such as `permission`, `auth` or `validation`. */
  readonly type: ErrorType;
  /** What the user can do. */
  readonly recovery: Recovery;
  /** The service's log id of the answer that failed, when there was one. */
  readonly requestId: string | undefined;
  /** Whether the request may have been applied although it failed ({@link HarkErrorOptions}). */
  mayHaveApplied = false;
  /**
   * What the command warned about before it failed: shown before the error, and in the JSON
   * envelope (`error.warnings`), so stderr stays one JSON document.
   */
  readonly warnings: readonly string[] = [];

  /**
   * @param code the exit code
   * @param type the error type
   * @param message a user-friendly message
   * @param recovery what the user can do
   * @param cause the underlying error
   * @param requestId the service's log id
   */
  constructor(
    code: number,
    type: ErrorType,
    message: string,
    recovery: Recovery,
    cause?: unknown,
    requestId?: string,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "HarkError";
    this.code = code;
    this.type = type;
    this.recovery = recovery;
    this.requestId = requestId;
  }

  /**
   * The same error with another recovery: same class, code, type, message, cause and log id.
   *
   * @param recovery what the user can do instead
   * @example
   * ```ts
   * throw error.withRecovery({ suggestion: "Retry with the same key", command: "hark im +send …" });
   * ```
   */
  withRecovery(recovery: Recovery): this {
    return copyWith(this, { recovery });
  }

  /**
   * The same error carrying the warnings the command gave before it failed.
   *
   * @param warnings the warnings, in order
   */
  withWarnings(warnings: readonly string[]): this {
    if (warnings.length === 0) return this;
    return copyWith(this, { warnings: [...this.warnings, ...warnings] });
  }
}

/**
 * A copy of an error (same class and fields) with some of its read-only fields changed. A
 * module function, not a private method: a copy carries no private brand, and must be copyable
 * again.
 */
function copyWith<E extends HarkError>(
  error: E,
  changes: Partial<Pick<HarkError, "recovery" | "warnings">>,
): E {
  const fields: PropertyDescriptorMap = Object.getOwnPropertyDescriptors(error);
  for (const [key, value] of Object.entries(changes)) fields[key] = { ...fields[key], value };
  // Why: Object.create answers `any`; an object with the error's prototype and own fields is of
  // the error's class, which the compiler cannot follow.
  return Object.create(Object.getPrototypeOf(error), fields) as E;
}

/** Marks an error as one whose request may have been applied; returns it. */
function marked<E extends HarkError>(error: E, options: HarkErrorOptions): E {
  if (options.mayHaveApplied) error.mayHaveApplied = true;
  return error;
}

function recovery(options: HarkErrorOptions, suggestion: string, command = ""): Recovery {
  return { suggestion: options.suggestion ?? suggestion, command: options.command ?? command };
}

/** A bad argument, flag, value or input; exit 2. */
export class ValidationError extends HarkError {
  /** The offending parameter, such as `--start` or `apps.default.base_url`. */
  readonly param: string | undefined;
  /**
   * A switch that, added to the failed command line, fixes it (`--yes` for a confirmation no
   * one could give): the envelope's command is then that command line with it.
   */
  readonly rerunWith: string | undefined;

  /**
   * @param message names the offending parameter and value
   * @param options `param` names the parameter; `suggestion` and `command` say how to fix it;
   *   `rerunWith` is a switch that fixes the command line as typed
   */
  constructor(
    message: string,
    options: HarkErrorOptions & { param?: string; rerunWith?: string } = {},
  ) {
    super(
      ExitCode.Validation,
      "validation",
      message,
      recovery(options, "Check the value and try again"),
      options.cause,
    );
    this.name = "ValidationError";
    this.param = options.param;
    this.rerunWith = options.rerunWith;
  }
}

/** The token is missing, invalid or expired; exit 3. */
export class AuthError extends HarkError {
  /** The service's error code, when the error came from an answer (230001, 99991663, …). */
  readonly apiCode: number | undefined;

  /**
   * @param message what is wrong with the credentials
   * @param options `code` overrides the exit code (the API code map uses 2); `apiCode` is the
   *   service's code
   */
  constructor(
    message: string,
    options: HarkErrorOptions & { code?: number; type?: ErrorType; apiCode?: number } = {},
  ) {
    super(
      options.code ?? ExitCode.Auth,
      options.type ?? "auth",
      message,
      recovery(options, "Sign in again", "hark auth login"),
      options.cause,
      options.requestId,
    );
    this.name = "AuthError";
    this.apiCode = options.apiCode;
  }
}

/**
 * The token lacks a scope; exit 1. The recovery command asks for the missing scopes (all of
 * `scopes`: callers that have alternatives pass the one to ask for).
 */
export class PermissionError extends HarkError {
  /** The scopes that are needed and missing. */
  readonly scopes: string[];
  /** The scopes the service named as alternatives (any one grants access), when it named any. */
  readonly alternatives: string[];
  /** The service's error code, when the error came from an answer. */
  readonly apiCode: number | undefined;

  /**
   * @param message what was denied
   * @param options `scopes` lists the needed scopes; `alternatives` the service's choices;
   *   `code` overrides the exit code; `url` is a page where the fix is made
   */
  constructor(
    message: string,
    options: HarkErrorOptions & {
      scopes?: string[];
      alternatives?: string[];
      code?: number;
      apiCode?: number;
      url?: string;
    } = {},
  ) {
    const scopes = options.scopes ?? [];
    super(
      options.code ?? ExitCode.General,
      "permission",
      message,
      {
        ...recovery(
          options,
          scopes.length > 0
            ? `Sign in again granting ${scopes.map((s) => `"${s}"`).join(", ")}`
            : "Ask an administrator to grant the app the permission, then sign in again",
          loginCommand(scopes),
        ),
        ...(options.url ? { url: options.url } : {}),
      },
      options.cause,
      options.requestId,
    );
    this.name = "PermissionError";
    this.scopes = scopes;
    this.alternatives = options.alternatives ?? [];
    this.apiCode = options.apiCode;
  }
}

/**
 * The sign-in command that grants `scopes`, each value quoted for a shell:
 * `hark auth login [--profile <p>] --scope <s>…`.
 *
 * @param scopes the scopes to ask for
 * @param profile the profile, named when it is not `default`
 * @example
 * ```ts
 * loginCommand(["calendar:calendar.event:read"], "work");
 * // "hark auth login --profile work --scope calendar:calendar.event:read"
 * ```
 */
export function loginCommand(scopes: readonly string[] = [], profile?: string): string {
  const words = ["hark", "auth", "login"];
  if (profile !== undefined && profile !== "default") words.push("--profile", profile);
  for (const scope of scopes) words.push("--scope", scope);
  return shellCommand(words);
}

/** The service answered with an error; exit 1 unless the API code map says otherwise. */
export class ApiError extends HarkError {
  /** The service's error code (`code` of the envelope), when it gave one. */
  readonly apiCode: number | undefined;
  /** The HTTP status, when there was an answer. */
  readonly httpStatus: number | undefined;

  /**
   * @param message a user-friendly message
   * @param options the API code, HTTP status, request id; `code` and `type` override the defaults
   */
  constructor(
    message: string,
    options: HarkErrorOptions & {
      apiCode?: number;
      httpStatus?: number;
      code?: number;
      type?: ErrorType;
    } = {},
  ) {
    super(
      options.code ?? ExitCode.General,
      options.type ?? "api",
      message,
      recovery(options, "Check the request and try again"),
      options.cause,
      options.requestId,
    );
    this.name = "ApiError";
    this.apiCode = options.apiCode;
    this.httpStatus = options.httpStatus;
    marked(this, options);
  }
}

/** The service could not be reached: timeout, DNS failure, refused or dropped connection; exit 4. */
export class NetworkError extends HarkError {
  /**
   * @param message what failed, naming the host
   * @param options recovery overrides and the cause
   */
  constructor(message: string, options: HarkErrorOptions = {}) {
    super(
      ExitCode.Network,
      "network",
      message,
      recovery(options, "Check your network connection and the base URL, then retry"),
      options.cause,
      options.requestId,
    );
    this.name = "NetworkError";
    marked(this, options);
  }
}

/** The operation was cancelled by the user (Ctrl-C); exit 1. */
export class CancelledError extends HarkError {
  /**
   * @param message what was cancelled
   * @param options recovery overrides and the cause (the abort that stopped the work)
   */
  constructor(message = "Cancelled", options: HarkErrorOptions = {}) {
    super(
      ExitCode.General,
      "cancelled",
      message,
      recovery(options, "Run the command again"),
      options.cause,
    );
    this.name = "CancelledError";
  }
}

/**
 * Something hark waited for has not happened yet, such as a sign-in not approved when `--wait`
 * ran out; exit 75 ({@link ExitCode.Pending}). The recovery runs the same thing again.
 */
export class PendingError extends HarkError {
  /**
   * @param message what is still pending
   * @param options the suggestion and the command that picks up where this stopped
   */
  constructor(message: string, options: HarkErrorOptions & { command: string }) {
    super(
      ExitCode.Pending,
      "pending",
      message,
      recovery(options, "Try again later"),
      options.cause,
    );
    this.name = "PendingError";
  }
}

/** A bug in hark; exit 5. */
export class InternalError extends HarkError {
  /**
   * @param message a one-line description
   * @param cause the unexpected error
   */
  constructor(message: string, cause?: unknown) {
    super(
      ExitCode.Internal,
      "internal",
      message,
      {
        suggestion: "This is a bug in hark; run again with --debug and report the output",
        command: "",
      },
      cause,
    );
    this.name = "InternalError";
  }
}

/**
 * Turns anything thrown into a {@link HarkError}: a `HarkError` is returned as is, anything else
 * becomes an {@link InternalError} whose message is the first line of the original.
 *
 * @param error what was thrown
 * @returns the error to show
 */
export function toHarkError(error: unknown): HarkError {
  if (error instanceof HarkError) return error;
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new InternalError(`Unexpected error: ${text.split("\n")[0]}`, error);
}
