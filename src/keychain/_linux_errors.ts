/**
 * The Linux keychain's errors, the same whether `secret-tool` or the in-process Secret Service
 * client met the condition. Private to `src/keychain/`.
 *
 * @module
 */

import { DBusCallError } from "./_dbus_connection.ts";
import { KeychainError, WAYS_OUT } from "./keychain.ts";

/** The backend's name. */
export const LINUX_BACKEND = "linux";

/** The start of every message: `Cannot <action> "<path>" in the linux keychain (Secret Service)`. */
export function where(action: string, path: string): string {
  return `Cannot ${action} "${path}" in the linux keychain (Secret Service)`;
}

/** The keyring (or the item) is locked, and hark shows no unlock prompt. */
export function lockedError(action: string, path: string): KeychainError {
  return new KeychainError(LINUX_BACKEND, `${where(action, path)}: the keyring is locked`, {
    suggestion: `Unlock the login keyring (sign in to the desktop session), ${WAYS_OUT}`,
  });
}

/** Nothing on the session bus answers as the Secret Service, or there is no bus. */
export function noServiceError(action: string, path: string, detail: string): KeychainError {
  return new KeychainError(
    LINUX_BACKEND,
    `${where(action, path)}: no Secret Service is reachable on the D-Bus session bus (${
      safe(detail)
    })`,
    {
      suggestion: `Start a desktop session or gnome-keyring-daemon with a D-Bus session bus, ` +
        WAYS_OUT,
    },
  );
}

/** The default collection the item would go to does not exist. */
export function noCollectionError(action: string, path: string, detail: string): KeychainError {
  return new KeychainError(
    LINUX_BACKEND,
    `${where(action, path)}: the keyring has no default collection (${safe(detail)})`,
    { suggestion: `Create a default ("login") keyring, for example with Seahorse, ${WAYS_OUT}` },
  );
}

/** The service refused access. */
export function deniedError(action: string, path: string, detail: string): KeychainError {
  return new KeychainError(
    LINUX_BACKEND,
    `${where(action, path)}: access was denied (${safe(detail)})`,
    { suggestion: `Allow hark in the Secret Service's prompt or settings, ${WAYS_OUT}` },
  );
}

/** Anything else, with what the service or tool said. */
export function otherError(action: string, path: string, detail: string): KeychainError {
  return new KeychainError(LINUX_BACKEND, `${where(action, path)}: ${safe(detail)}`);
}

const SECRET = "org.freedesktop.Secret";

/**
 * A failure of the in-process Secret Service client's call as the keychain's error.
 *
 * @param action what the call did, for the message (`read`, `write`, `delete`, `list`)
 * @param path the keychain path
 * @param error what the call failed with
 * @param timedOut whether the call's time ran out
 * @param timeoutMs the time a call may take
 */
export function secretServiceError(
  action: string,
  path: string,
  error: unknown,
  timedOut: boolean,
  timeoutMs: number,
): KeychainError {
  if (timedOut) {
    return new KeychainError(
      LINUX_BACKEND,
      `Cannot use the linux keychain: the D-Bus session bus did not answer within ${
        timeoutMs / 1000
      } s (is the keychain locked or waiting for a prompt?)`,
      { cause: error },
    );
  }
  if (error instanceof DBusCallError) {
    const name = error.errorName;
    const detail = `${name}: ${error.detail}`;
    if (/^org\.freedesktop\.DBus\.Error\.(ServiceUnknown|NameHasNoOwner|Spawn\.)/.test(name)) {
      return noServiceError(action, path, detail);
    }
    if (name === `${SECRET}.Error.IsLocked`) return lockedError(action, path);
    if (name === "org.freedesktop.DBus.Error.AccessDenied") {
      return deniedError(action, path, detail);
    }
    if (
      action === "write" &&
      (name === `${SECRET}.Error.NoSuchObject` || /UnknownObject|UnknownMethod/.test(name))
    ) {
      return noCollectionError(action, path, detail);
    }
    return otherError(action, path, `the Secret Service answered ${detail}`);
  }
  // The context's connectUnix rejects as Deno.connect does.
  if (error instanceof Error && ["NotFound", "ConnectionRefused"].includes(error.name)) {
    return noServiceError(action, path, `cannot connect: ${error.message}`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return otherError(action, path, `the session bus failed: ${message}`);
}

/**
 * Service text in a message: one line of at most 300 characters (the error's renderer makes
 * every message terminal-safe, `src/cli/render_error.ts`).
 */
function safe(text: string): string {
  const line = text.replace(/[\r\n\t]+/g, " ");
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
