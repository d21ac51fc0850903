/**
 * The error types of hark (`error.type` of the JSON envelope): what each means and the exit codes
 * it comes with. Every error's type is one of these (the constructors take an {@link ErrorType}),
 * and `hark schema` prints this table (`error_types`).
 *
 * @module
 */

import { ExitCode } from "./exit_code.ts";

/** What an error type means and the exit codes its errors have. */
export interface ErrorTypeFacts {
  /** The exit codes, the usual one first. */
  readonly codes: readonly ExitCode[];
  /** What went wrong, in a few words. */
  readonly meaning: string;
}

/** Every error type, by name. */
export const ERROR_TYPES = {
  validation: {
    codes: [ExitCode.Validation],
    meaning: "a flag, value, input file or expression is wrong; fix the command line",
  },
  auth: {
    codes: [ExitCode.Auth],
    meaning: "no usable sign-in or app credentials; the recovery command signs in",
  },
  permission: {
    codes: [ExitCode.General, ExitCode.Auth],
    meaning: "a scope is missing for the user or the app, or access to the data is refused",
  },
  api: { codes: [ExitCode.General], meaning: "the service refused the request" },
  not_found: { codes: [ExitCode.General], meaning: "what the command names does not exist" },
  rate_limit: {
    codes: [ExitCode.General],
    meaning: "the service asks to slow down; retry after a while",
  },
  server_error: {
    codes: [ExitCode.Network, ExitCode.General],
    meaning: "the service failed or is unavailable; retry later",
  },
  invalid_response: {
    codes: [ExitCode.General],
    meaning: "the service's answer could not be read or broke a limit",
  },
  network: { codes: [ExitCode.Network], meaning: "the service could not be reached in time" },
  cancelled: { codes: [ExitCode.General], meaning: "the command was interrupted (Ctrl-C)" },
  pending: {
    codes: [ExitCode.Pending],
    meaning: "not done yet (a sign-in waiting for approval); run the recovery command later",
  },
  conflict: {
    codes: [ExitCode.General],
    meaning: "the data changed meanwhile; nothing was written, look again and rerun",
  },
  no_slot: { codes: [ExitCode.General], meaning: "no free time fits the request" },
  redirect: {
    codes: [ExitCode.General],
    meaning: "the service redirected the request; check the profile's base_url",
  },
  mfa: {
    codes: [ExitCode.Validation],
    meaning: "the account must complete a multi-factor verification first",
  },
  config: {
    codes: [ExitCode.Auth],
    meaning: "the profile's app id or secret is wrong; store them again",
  },
  app_status: {
    codes: [ExitCode.Auth],
    meaning: "the app is disabled, unpublished or not installed in the tenant",
  },
  keychain: { codes: [ExitCode.General], meaning: "the keychain could not be read or written" },
  lock: { codes: [ExitCode.General], meaning: "another hark holds the config lock; retry" },
  internal: { codes: [ExitCode.Internal], meaning: "a bug in hark; run with --debug and report" },
} as const satisfies Record<string, ErrorTypeFacts>;

/** The name of an error type, `error.type` of the envelope. */
export type ErrorType = keyof typeof ERROR_TYPES;
