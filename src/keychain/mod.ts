/**
 * Where hark keeps secrets: the keychain interface, one backend per OS, the encrypted-file
 * backend, an in-memory one for tests, and the choice between them (`HARK_KEYCHAIN`).
 *
 * @module
 */

export {
  checkKeychainPath,
  isKeychainNamespace,
  isProfileEntry,
  type Keychain,
  type KeychainBackendName,
  KeychainError,
  keychainPath,
} from "./keychain.ts";
export { MemoryKeychain } from "./memory_keychain.ts";
export {
  FILE_KEYCHAIN_ITERATIONS,
  FileKeychain,
  fileKeychainDir,
  type FileKeychainOptions,
  type FileKeychainRecord,
} from "./file_keychain.ts";
export { LinuxKeychain, type LinuxKeychainOptions } from "./linux_keychain.ts";
export { MacosKeychain, type MacosKeychainOptions } from "./macos_keychain.ts";
export { WindowsKeychain, type WindowsKeychainOptions } from "./windows_keychain.ts";
export { KEYCHAIN_CHOICES, keychainBackendName, selectKeychain } from "./select_keychain.ts";
