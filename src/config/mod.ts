/**
 * The configuration: model, path, atomic persistence, SecretInput, profiles.
 *
 * @module
 */

export {
  type AppEntry,
  baseUrl,
  type Config,
  DEFAULT_BASE_URL,
  DEFAULT_DEVICE_AUTHORIZATION_PATH,
  OUTPUT_FORMATS,
  type OutputFormat,
  type Preferences,
  type UserEntry,
} from "./config.ts";
export { defaultConfigPath, isDefaultConfigPath, resolveConfigPath } from "./config_path.ts";
export {
  adoptKeychainNamespace,
  checkOwnEntry,
  claimKeychainNamespace,
  namespaceFor,
  newKeychainNamespace,
  ownedNamespace,
  refersTo,
} from "./keychain_namespace.ts";
export {
  BASE_URL_VAR,
  insecureWarning,
  isLoopback,
  resolveServiceAddress,
  type ServiceAddress,
  type ServiceAddressOptions,
} from "./service_address.ts";
export { ensureConfigFolder, loadConfig, parseConfig, updateConfig } from "./config_file.ts";
export { type FileLockOptions, withFileLock } from "./file_lock.ts";
export { maskSecret } from "./mask.ts";
export { readStoredAppSecret, type StoredAppSecret, storedAppSecretText } from "./stored_secret.ts";
export {
  accountsOriginOf,
  isLarkOrigin,
  LARK_ORIGINS,
  parseTrustedOrigin,
  TRUSTED_ORIGINS_VAR,
  trustedOrigins,
} from "./trusted_origins.ts";
export {
  isSecretReference,
  parseSecretInput,
  resolveSecretInput,
  type SecretInput,
  secretWarnings,
} from "./secret_input.ts";
export { checkProfileName, notConfigured, requireKnownProfile, selectProfile } from "./profile.ts";
