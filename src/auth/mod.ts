/**
 * Sign-in and tokens: the device flow, token states and refresh, the credential provider chain
 * and the two identities.
 *
 * @module
 */

export { resolveAppCredentials, type ResolvedAppCredentials } from "./app_credentials.ts";
export {
  type AuthStatus,
  authStatus,
  type AuthStatusOptions,
  botStatus,
  checkScopes,
  type ScopeCheck,
  type StatusState,
  unusableError,
} from "./auth_status.ts";
export { CommandProvider } from "./command_provider.ts";
export {
  createTokenSource,
  defaultProviders,
  type TokenSourceOptions,
} from "./create_token_source.ts";
export {
  type Account,
  type Credential,
  type CredentialProvider,
  CredentialProviderError,
  isBlocking,
  notSignedIn,
  type RefreshMode,
  resolveToken,
  runChain,
  type TokenSpec,
} from "./credential_provider.ts";
export {
  MAX_POLL_ATTEMPTS,
  MAX_POLL_INTERVAL_S,
  pollDeviceToken,
  type PollOptions,
  type PollProgress,
} from "./device_flow.ts";
export { EnvProvider, TENANT_TOKEN_VAR, USER_TOKEN_VAR } from "./env_provider.ts";
export { KeychainProvider } from "./keychain_provider.ts";
export {
  beginLogin,
  checkLoginTarget,
  completeLogin,
  type CompleteLoginOptions,
  finishLogin,
  type LoginResult,
  type LoginTarget,
  loginTokenPath,
  logout,
  type LogoutResult,
  scopesToRequest,
  signOutPaths,
  startDeviceAuthorization,
} from "./login.ts";
export type { DeviceAuthorization } from "./device_authorization.ts";
export type { UserInfo } from "./user_info.ts";
export { REFRESH_TOKEN_DEAD, refreshUserToken, sessionLockPath } from "./refresh_user_token.ts";
export {
  checkTokenOrigin,
  environmentTokenOrigin,
  serviceOf,
  type ServiceTarget,
  signedInElsewhere,
} from "./token_origin.ts";
export { getTenantToken, tenantTokenPath } from "./tenant_token.ts";
export {
  REFRESH_BUFFER_MS,
  sessionExpired,
  tokenPathOf,
  type TokenRecord,
  type TokenState,
  tokenState,
  userTokenPath,
} from "./token_record.ts";
export type { ResolvedToken, TokenOrigin, TokenSource } from "./token_source.ts";
export { checkScope, parseScopes, SCOPE_OFFLINE, scopeGranted } from "./scopes.ts";
export { endpointsOf } from "./oauth_client.ts";
