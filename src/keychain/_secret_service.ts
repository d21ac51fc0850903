/**
 * The Linux keychain in this process: a Secret Service client on the D-Bus session bus, with the
 * same items as `secret-tool` (attributes `service hark` and `account <path after hark/>`, label
 * the path, content type `text/plain`, in the default collection), so either reads what the other
 * wrote. A command's first call connects, authenticates and opens a session once; the calls
 * after it reuse them. Secrets travel encrypted (`dh-ietf1024-sha256-aes128-cbc-pkcs7`, see
 * `_secret_session.ts`), in the clear only when the service refuses that algorithm, as libsecret
 * does. Loaded by `linux_keychain.ts` with a dynamic import, only when the Linux keychain is used.
 *
 * hark never shows the service's prompts: a locked item or keyring whose `Unlock` asks for one is
 * the keychain's "locked" error, and an item write or delete that asks for a confirmation is
 * "denied", so that an agent or a script never waits on a dialog.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { DBusCallError, DBusConnection } from "./_dbus_connection.ts";
import type { DBusData } from "./_dbus_wire.ts";
import {
  deniedError,
  lockedError,
  noCollectionError,
  noServiceError,
  otherError,
} from "./_linux_errors.ts";
import {
  aesSessionCipher,
  DH_ALGORITHM,
  dhKeyPair,
  dhSharedSecret,
  PLAIN_CIPHER,
  type SessionCipher,
  sessionKeyBytes,
} from "./_secret_session.ts";
import { checkKeychainPath, KeychainError } from "./keychain.ts";

const SERVICE = "org.freedesktop.secrets";
const SERVICE_PATH = "/org/freedesktop/secrets";
const DEFAULT_COLLECTION = "/org/freedesktop/secrets/aliases/default";
const SECRET = "org.freedesktop.Secret";
const NO_PROMPT = "/";

/** Options of {@link SecretServiceKeychain}. */
export interface SecretServiceOptions {
  /** The bus's sockets, tried in order (see `_dbus_address.ts`). */
  sockets: string[];
  /** The process's user id. */
  uid: number;
  /** Milliseconds each keychain call may take. */
  timeoutMs: number;
}

interface Session {
  connection: DBusConnection;
  path: string;
  cipher: SessionCipher;
}

/** The keychain operations on the Secret Service; errors are {@link KeychainError}s. */
export class SecretServiceKeychain {
  readonly #ctx: Context;
  readonly #options: SecretServiceOptions;
  #connection: Promise<DBusConnection> | undefined;
  #session: Promise<Session> | undefined;

  /**
   * @param ctx the context (socket, randomness, timeouts)
   * @param options the bus, the user id and the timeout
   */
  constructor(ctx: Context, options: SecretServiceOptions) {
    this.#ctx = ctx;
    this.#options = options;
  }

  /** The secret at `path`, or `undefined` when there is no item. */
  get(path: string): Promise<string | undefined> {
    return this.#run("read", path, async (signal) => {
      const connection = await this.#connect(signal);
      const searching = this.#search(connection, attributesOf(path), signal);
      // The session is opened meanwhile (one round trip for both): reading needs it.
      const opening = this.#openSession(signal);
      opening.catch(() => {});
      const found = await searching;
      let item = found.unlocked[0];
      if (item === undefined && found.locked.length > 0) {
        item = (await this.#unlock(connection, found.locked, signal))[0];
        if (item === undefined) throw lockedError("read", path);
      }
      if (item === undefined) return undefined;
      const session = await opening;
      const [secret] = await connection.call(
        { ...itemCall(item, "GetSecret"), signature: "o", body: [session.path], reply: "(oayays)" },
        signal,
      );
      const plain = await session.cipher.open(readSecret(secret));
      return new TextDecoder().decode(plain);
    });
  }

  /** Stores `secret` at `path`, replacing the item there. */
  set(path: string, secret: string): Promise<void> {
    return this.#run("write", path, async (signal) => {
      const session = await this.#openSession(signal);
      const sealed = await session.cipher.seal(new TextEncoder().encode(secret));
      const properties: DBusData[] = [
        [`${SECRET}.Item.Label`, { signature: "s", value: path }],
        [`${SECRET}.Item.Attributes`, { signature: "a{ss}", value: attributesOf(path) }],
      ];
      const body = [
        properties,
        [session.path, sealed.parameters, sealed.value, "text/plain"],
        true,
      ];
      const answer = await session.connection.call({
        destination: SERVICE,
        path: DEFAULT_COLLECTION,
        interface: `${SECRET}.Collection`,
        member: "CreateItem",
        signature: "a{sv}(oayays)b",
        body,
        reply: "oo",
      }, signal);
      if (answer[1] !== NO_PROMPT) throw lockedError("write", path);
    });
  }

  /** Deletes every item at `path`; `false` when there was none. */
  delete(path: string): Promise<boolean> {
    return this.#run("delete", path, async (signal) => {
      const connection = await this.#connect(signal);
      const found = await this.#search(connection, attributesOf(path), signal);
      const items = [...found.unlocked];
      if (found.locked.length > 0) {
        const unlocked = await this.#unlock(connection, found.locked, signal);
        if (unlocked.length === 0) throw lockedError("delete", path);
        items.push(...unlocked);
      }
      for (const item of items) {
        const [prompt] = await connection.call({ ...itemCall(item, "Delete"), reply: "o" }, signal);
        if (prompt !== NO_PROMPT) throw deniedError("delete", path, "the service asks to confirm");
      }
      return items.length > 0;
    });
  }

  /** The accounts of every `service hark` item, locked ones included (attributes stay visible). */
  list(): Promise<string[]> {
    return this.#run("list", "hark/", async (signal) => {
      const connection = await this.#connect(signal);
      const found = await this.#search(connection, [["service", "hark"]], signal);
      const accounts: string[] = [];
      for (const item of [...found.unlocked, ...found.locked]) {
        const [value] = await connection.call({
          destination: SERVICE,
          path: item,
          interface: "org.freedesktop.DBus.Properties",
          member: "Get",
          signature: "ss",
          body: [`${SECRET}.Item`, "Attributes"],
          reply: "v",
        }, signal);
        const attributes = isVariant(value) ? value.value : undefined;
        for (const entry of Array.isArray(attributes) ? attributes : []) {
          if (Array.isArray(entry) && entry[0] === "account" && typeof entry[1] === "string") {
            accounts.push(entry[1]);
          }
        }
      }
      return accounts;
    });
  }

  /** Closes the connection, if any. */
  async close(): Promise<void> {
    const connection = this.#connection;
    this.#connection = undefined;
    this.#session = undefined;
    (await connection?.catch(() => undefined))?.close();
  }

  async #run<T>(
    action: string,
    path: string,
    step: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const signal = AbortSignal.any([this.#ctx.timeout(this.#options.timeoutMs), this.#ctx.signal]);
    try {
      return await step(signal);
    } catch (error) {
      // An error answer leaves the connection as it was; anything else may have cut it off.
      if (!(error instanceof DBusCallError) && !(error instanceof KeychainError)) {
        await this.close();
      }
      throw this.#keychainError(action, path, error, signal);
    }
  }

  #keychainError(action: string, path: string, error: unknown, signal: AbortSignal): unknown {
    if (error instanceof KeychainError) return error;
    if (signal.aborted && this.#ctx.signal.aborted) return this.#ctx.signal.reason;
    if (signal.aborted) {
      const seconds = this.#options.timeoutMs / 1000;
      return new KeychainError(
        "linux",
        `Cannot use the linux keychain: the D-Bus session bus did not answer within ${seconds} s (is the keychain locked or waiting for a prompt?)`,
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

  #connect(signal: AbortSignal): Promise<DBusConnection> {
    this.#connection ??= this.#open(signal);
    return this.#connection;
  }

  async #open(signal: AbortSignal): Promise<DBusConnection> {
    const connect = this.#ctx.connectUnix;
    if (connect === undefined) throw new Error("this context cannot connect to a socket");
    let lastError: unknown;
    for (const socket of this.#options.sockets) {
      try {
        return DBusConnection.open(await connect(socket), this.#options.uid, signal);
      } catch (error) {
        if (signal.aborted) throw error;
        lastError = error;
      }
    }
    throw lastError;
  }

  #openSession(signal: AbortSignal): Promise<Session> {
    this.#session ??= this.#newSession(signal);
    return this.#session;
  }

  async #newSession(signal: AbortSignal): Promise<Session> {
    const connection = await this.#connect(signal);
    const random = (n: number) => this.#ctx.randomBytes(n);
    const pair = dhKeyPair(random);
    const call = {
      destination: SERVICE,
      path: SERVICE_PATH,
      interface: `${SECRET}.Service`,
      member: "OpenSession",
      signature: "sv",
    };
    try {
      const [output, path] = await connection.call({
        ...call,
        body: [DH_ALGORITHM, { signature: "ay", value: pair.publicKey }],
        reply: "vo",
      }, signal);
      const peer = isVariant(output) ? output.value : undefined;
      if (!(peer instanceof Uint8Array) || typeof path !== "string") {
        throw new Error("OpenSession answered without a public key");
      }
      const key = await sessionKeyBytes(dhSharedSecret(pair.privateKey, peer));
      return { connection, path, cipher: await aesSessionCipher(key, random) };
    } catch (error) {
      if (!(error instanceof DBusCallError) || !/NotSupported$/.test(error.errorName)) throw error;
    }
    // The service refuses the encrypted algorithm: libsecret then uses "plain", as hark does.
    const [, path] = await connection.call({
      ...call,
      body: ["plain", { signature: "s", value: "" }],
      reply: "vo",
    }, signal);
    if (typeof path !== "string") throw new Error("OpenSession answered without a session");
    return { connection, path, cipher: PLAIN_CIPHER };
  }

  async #search(
    connection: DBusConnection,
    attributes: DBusData[],
    signal: AbortSignal,
  ): Promise<{ unlocked: string[]; locked: string[] }> {
    const [unlocked, locked] = await connection.call({
      destination: SERVICE,
      path: SERVICE_PATH,
      interface: `${SECRET}.Service`,
      member: "SearchItems",
      signature: "a{ss}",
      body: [attributes],
      reply: "aoao",
    }, signal);
    return { unlocked: paths(unlocked), locked: paths(locked) };
  }

  /** Unlocks items without a prompt; the ones unlocked (none when a prompt was asked for). */
  async #unlock(connection: DBusConnection, items: string[], signal: AbortSignal) {
    const [unlocked, prompt] = await connection.call({
      destination: SERVICE,
      path: SERVICE_PATH,
      interface: `${SECRET}.Service`,
      member: "Unlock",
      signature: "ao",
      body: [items],
      reply: "aoo",
    }, signal);
    return prompt === NO_PROMPT ? paths(unlocked) : [];
  }
}

function attributesOf(path: string): DBusData[] {
  return [["service", "hark"], ["account", checkKeychainPath(path).slice("hark/".length)]];
}

function itemCall(item: string, member: string) {
  return { destination: SERVICE, path: item, interface: `${SECRET}.Item`, member };
}

function isVariant(value: DBusData | undefined): value is { signature: string; value: DBusData } {
  return typeof value === "object" && !(value instanceof Uint8Array) && !Array.isArray(value);
}

function paths(value: DBusData | undefined): string[] {
  if (!Array.isArray(value)) throw new Error("the service answered a list that is not one");
  return value.filter((p): p is string => typeof p === "string");
}

function readSecret(value: DBusData | undefined): { parameters: Uint8Array; value: Uint8Array } {
  if (Array.isArray(value)) {
    const [, parameters, bytes] = value;
    if (parameters instanceof Uint8Array && bytes instanceof Uint8Array) {
      return { parameters, value: bytes };
    }
  }
  throw new Error("GetSecret answered without a secret");
}
