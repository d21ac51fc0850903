/**
 * Where the D-Bus session bus listens, from `DBUS_SESSION_BUS_ADDRESS` as libdbus and GDBus read
 * it: a `;`-separated list of `transport:key=value,…` entries with `%XX` escapes, of which hark
 * connects to the `unix:path=` and `unix:abstract=` ones (in order). Unset, the bus is
 * `$XDG_RUNTIME_DIR/bus` when that exists (systemd's user bus), as both libraries look for it.
 * Private to `src/keychain/`.
 *
 * @module
 */

/** The sockets to try, and whether they were guessed rather than named by the address. */
export interface SessionBus {
  /** Socket paths; an abstract one starts with a NUL. */
  sockets: string[];
  /** From `$XDG_RUNTIME_DIR/bus` (the variable was unset), not from the address. */
  guessed: boolean;
}

/**
 * The session bus's sockets hark can connect to itself.
 *
 * @param address `DBUS_SESSION_BUS_ADDRESS`, if set
 * @param runtimeDir `XDG_RUNTIME_DIR`, if set
 * @returns the sockets, or `undefined` when the address names none hark can use (TCP,
 *   `autolaunch:`, a malformed entry) or is unset without a runtime folder: `secret-tool`,
 *   which knows every transport, is then the way
 */
export function sessionBus(
  address: string | undefined,
  runtimeDir: string | undefined,
): SessionBus | undefined {
  if (address === undefined || address.trim() === "") {
    if (runtimeDir === undefined || !runtimeDir.startsWith("/")) return undefined;
    return { sockets: [`${runtimeDir.replace(/\/+$/, "")}/bus`], guessed: true };
  }
  const sockets: string[] = [];
  for (const entry of address.split(";")) {
    const colon = entry.indexOf(":");
    if (colon < 0 || entry.slice(0, colon) !== "unix") continue;
    const values = new Map<string, string>();
    for (const pair of entry.slice(colon + 1).split(",")) {
      const equals = pair.indexOf("=");
      const value = equals < 0 ? undefined : unescape(pair.slice(equals + 1));
      if (value === undefined) continue;
      values.set(pair.slice(0, equals), value);
    }
    const path = values.get("path");
    const abstract = values.get("abstract");
    if (path !== undefined && path.startsWith("/")) sockets.push(path);
    else if (abstract !== undefined && abstract !== "") sockets.push(`\0${abstract}`);
  }
  return sockets.length > 0 ? { sockets, guessed: false } : undefined;
}

/** Undoes D-Bus's `%XX` escapes; `undefined` for a malformed or NUL-holding value. */
function unescape(value: string): string | undefined {
  if (/%(?![0-9a-fA-F]{2})/.test(value)) return undefined;
  try {
    const text = decodeURIComponent(value);
    return text.includes("\0") ? undefined : text;
  } catch {
    return undefined;
  }
}
