/**
 * Error kinds, exit codes, the JSON envelope, the API code map and the cleaning of the
 * service's text.
 *
 * @module
 */

export { EXIT_CODE_MEANINGS, ExitCode } from "./exit_code.ts";
export { ERROR_TYPES, type ErrorType, type ErrorTypeFacts } from "./error_types.ts";
export {
  ApiError,
  AuthError,
  CancelledError,
  HarkError,
  type HarkErrorOptions,
  InternalError,
  loginCommand,
  NetworkError,
  PendingError,
  PermissionError,
  type Recovery,
  toHarkError,
  ValidationError,
} from "./hark_error.ts";
export {
  type ApiCodeClass,
  type ApiErrorBody,
  type ApiErrorContext,
  APP_SCOPE_NOT_ENABLED,
  type CallerFacts,
  classifyApiCode,
  consoleUrl,
  errorFromApiCode,
  isScopeName,
  neededScopes,
  permissionError,
  type PermissionFacts,
  recommendedScope,
  SPEC_230001_MEANING,
  USER_SCOPE_NOT_GRANTED,
} from "./api_code_map.ts";
export {
  APP_CREDENTIALS_INVALID,
  APP_NOT_IN_USE,
  APP_UNAVAILABLE,
  appPageUrl,
  EVENT_DELETED,
  NO_CALENDAR_ACCESS,
  TOKEN_MALFORMED,
  TOKEN_MISSING,
  USER_TOKEN_INVALID,
} from "./lark_code_errors.ts";
export {
  logIdNote,
  logIdOf,
  MAX_LOG_ID,
  MAX_SERVICE_MSG,
  serviceMsg,
  singleLine,
} from "./service_text.ts";
export {
  type ErrorEnvelope,
  fallbackCommand,
  type FallbackCommands,
  rerunIsTheFix,
  toEnvelope,
} from "./envelope.ts";
export { shellCommand, shellQuote } from "./shell_quote.ts";
export { unattendedLogin } from "./unattended_login.ts";
