/**
 * The Linux keychain in this process: a Secret Service client on the D-Bus session bus, with the
 * same items as `secret-tool` (attributes `service hark` and `account <path after hark/>`, label
 * the path, content type `text/plain`, in the default collection), so either reads what the other
 * wrote. A command's first call connects, authenticates and opens a session once; the calls
 * after it reuse them. Each call first asks the bus which connection owns
 * `org.freedesktop.secrets` (starting the service when the bus can), then addresses that unique
 * name and takes answers from it alone (see `_dbus_connection.ts`): another process on the bus
 * cannot answer in the service's place, say to refuse the encrypted algorithm so that the secret
 * goes in the clear. A session belongs to the owner that opened it: a restarted service gets a new
 * one, and one that failed to open is asked for again on the next call. Secrets travel encrypted
 * (`dh-ietf1024-sha256-aes128-cbc-pkcs7`, `_secret_session.ts`), in the clear only when the
 * service refuses that algorithm, as libsecret does. {@link SecretServiceKeychain.prepare}
 * connects, opens the session and finds the item about to be read in one round trip, ahead of
 * the first call (the Linux keychain, which imports this module, reads ahead through it).
 *
 * hark never shows the service's prompts: a locked item or keyring whose `Unlock` asks for one is
 * the keychain's "locked" error, and an item write or delete that asks for a confirmation is
 * "denied", so that an agent or a script never waits on a dialog.
 *
 * @module
 */

import type { Context } from "../context.ts";
import {
  BUS_NAME,
  type Call,
  DBusCallError,
  DBusConnection,
  type OwnerSlot,
  settled,
} from "./_dbus_connection.ts";
import { NO_AUTO_START } from "./_dbus_message.ts";
import { type DBusData, isVariant } from "./_dbus_wire.ts";
import { deniedError, lockedError, secretServiceError } from "./_linux_errors.ts";
import {
  type DhKeyPair,
  dhKeyPair,
  negotiateSession,
  readSecret,
  type SessionCipher,
} from "./_secret_session.ts";
import { checkKeychainPath, KeychainError } from "./keychain.ts";

const SERVICE = "org.freedesktop.secrets";
const SERVICE_PATH = "/org/freedesktop/secrets";
const DEFAULT_COLLECTION = "/org/freedesktop/secrets/aliases/default";
const SECRET = "org.freedesktop.Secret";
const NO_PROMPT = "/";
const BUS_CALL = { destination: BUS_NAME, path: "/org/freedesktop/DBus", interface: BUS_NAME };

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
  path: string;
  cipher: SessionCipher;
}

/** The items a search found: the unlocked ones and the locked ones. */
interface Found {
  unlocked: string[];
  locked: string[];
}

/** The Secret Service as it is now: calls go to, and answers come from, its owner only. */
interface Service {
  /** The unique name owning `org.freedesktop.secrets`. */
  owner: string;
  /** Calls a method of the service (the destination is the owner). */
  call(call: Omit<Call, "destination" | "from">): Promise<DBusData[]>;
}

/** The keychain operations on the Secret Service; errors are {@link KeychainError}s. */
export class SecretServiceKeychain {
  readonly #ctx: Context;
  readonly #options: SecretServiceOptions;
  #connection: Promise<DBusConnection> | undefined;
  /** The session, with the owner it was opened with. */
  #session: { owner: string; session: Promise<Session> } | undefined;
  /** The warm-up ({@link prepare}), settled once the owner is known, and what aborts it. */
  #warmUp: { known: Promise<void>; abort: AbortController } | undefined;
  /** The owner the warm-up was told, taken by the first call instead of asking again. */
  #warmOwner: string | undefined;
  /** The warm-up's search for a path about to be read, taken by that path's first `get`. */
  #warmSearch: { path: string; found: Promise<Found> } | undefined;
  /** Calls running. */
  #running = 0;

  /**
   * @param ctx the context (socket, randomness, timeouts)
   * @param options the bus, the user id and the timeout
   */
  constructor(ctx: Context, options: SecretServiceOptions) {
    this.#ctx = ctx;
    this.#options = options;
  }

  /**
   * Starts, in the background, what the first call needs: the connection, the service's owner
   * (never starting the service), the encrypted session, and the search for the item at
   * `paths[0]`, which the command is about to read; no secret is read, nothing is written and
   * nothing can prompt. The first calls take them over; when the warm-up failed, the first call
   * starts over and reports its own error, as without it. A call's timeout or Ctrl-C aborts it.
   *
   * @param paths the paths about to be read (only the first is searched for ahead)
   */
  prepare(paths: readonly string[] = []): void {
    if (this.#connection !== undefined) return;
    const abort = new AbortController();
    const signal = AbortSignal.any([abort.signal, this.#ctx.signal]);
    this.#warmUp = { known: this.#warm(paths[0], signal).catch(() => this.close()), abort };
  }

  /**
   * {@link prepare}'s calls in one round trip: `GetNameOwner`, then `OpenSession` and `SearchItems`
   * to the well-known name with NO_AUTO_START (never starting the service), answers taken only
   * from the owner the bus names before it routes them ({@link OwnerSlot}). The DH key is made
   * while the socket connects. Settles once the owner is known; the session and search go on.
   */
  async #warm(path: string | undefined, signal: AbortSignal): Promise<void> {
    const connecting = this.#connect(signal);
    const pair = dhKeyPair((n) => this.#ctx.randomBytes(n));
    const connection = await connecting;
    const slot: OwnerSlot = { name: undefined };
    // Sent first: its answer names the owner before any answer to the calls below can come.
    const owning = this.#owner(connection, signal, false, slot);
    // Awaited below, unless a step before that throws (an aborted signal): never left unhandled.
    owning.catch(() => {});
    const to = { destination: SERVICE, from: slot, flags: NO_AUTO_START };
    const early: Service = {
      owner: SERVICE,
      call: (c) => connection.call({ ...c, ...to }, signal),
    };
    const session = this.#newSession(early, signal, pair);
    session.catch((error) => {
      // The connection may be cut off: the first call, unless it runs, opens another.
      if (!(error instanceof DBusCallError) && this.#running === 0) return this.close();
    });
    const found = path === undefined ? undefined : this.#search(early, attributesOf(path));
    found?.catch(() => {});
    this.#warmOwner = await owning;
    this.#keepSession(this.#warmOwner, session);
    if (path !== undefined && found !== undefined) this.#warmSearch = { path, found };
  }

  /** The secret at `path`, or `undefined` when there is no item. */
  get(path: string): Promise<string | undefined> {
    return this.#run("read", path, async (signal) => {
      const service = await this.#service(signal);
      const searching = this.#takeWarmSearch(path) ?? this.#search(service, attributesOf(path));
      // The session is opened meanwhile (one round trip for both): reading needs it.
      const opening = this.#openSession(service, signal);
      opening.catch(() => {});
      const found = await searching;
      let item = found.unlocked[0];
      if (item === undefined && found.locked.length > 0) {
        item = (await this.#unlock(service, found.locked))[0];
        if (item === undefined) throw lockedError("read", path);
      }
      if (item === undefined) return undefined;
      const session = await opening;
      const [secret] = await service.call(
        { ...itemCall(item, "GetSecret"), signature: "o", body: [session.path], reply: "(oayays)" },
      );
      const plain = await session.cipher.open(readSecret(secret));
      return new TextDecoder().decode(plain);
    });
  }

  /** Stores `secret` at `path`, replacing the item there. */
  set(path: string, secret: string): Promise<void> {
    this.#dropWarmSearch(path);
    return this.#run("write", path, async (signal) => {
      const service = await this.#service(signal);
      const session = await this.#openSession(service, signal);
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
      const answer = await service.call({
        path: DEFAULT_COLLECTION,
        interface: `${SECRET}.Collection`,
        member: "CreateItem",
        signature: "a{sv}(oayays)b",
        body,
        reply: "oo",
      });
      if (answer[1] !== NO_PROMPT) throw lockedError("write", path);
    });
  }

  /** Deletes every item at `path`; `false` when there was none. */
  delete(path: string): Promise<boolean> {
    this.#dropWarmSearch(path);
    return this.#run("delete", path, async (signal) => {
      const service = await this.#service(signal);
      const found = await this.#search(service, attributesOf(path));
      const items = [...found.unlocked];
      if (found.locked.length > 0) {
        const unlocked = await this.#unlock(service, found.locked);
        if (unlocked.length === 0) throw lockedError("delete", path);
        items.push(...unlocked);
      }
      for (const item of items) {
        const [prompt] = await service.call({ ...itemCall(item, "Delete"), reply: "o" });
        if (prompt !== NO_PROMPT) throw deniedError("delete", path, "the service asks to confirm");
      }
      return items.length > 0;
    });
  }

  /** The accounts of every `service hark` item, locked ones included (attributes stay visible). */
  list(): Promise<string[]> {
    return this.#run("list", "hark/", async (signal) => {
      const service = await this.#service(signal);
      const found = await this.#search(service, [["service", "hark"]]);
      const accounts: string[] = [];
      for (const item of [...found.unlocked, ...found.locked]) {
        const [value] = await service.call({
          path: item,
          interface: "org.freedesktop.DBus.Properties",
          member: "Get",
          signature: "ss",
          body: [`${SECRET}.Item`, "Attributes"],
          reply: "v",
        });
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
    this.#session = this.#warmOwner = this.#warmSearch = undefined;
    (await connection?.catch(() => undefined))?.close();
  }

  async #run<T>(
    action: string,
    path: string,
    step: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const signal = AbortSignal.any([this.#ctx.timeout(this.#options.timeoutMs), this.#ctx.signal]);
    const warmUp = this.#warmUp;
    const abortWarmUp = () => warmUp?.abort.abort(signal.reason);
    signal.addEventListener("abort", abortWarmUp, { once: true });
    this.#running++;
    try {
      // A warm-up's owner, or its failure's clean slate (a failed one leaves nothing behind).
      if (warmUp) await settled(warmUp.known, signal);
      return await step(signal);
    } catch (error) {
      // An error answer leaves the connection as it was; anything else may have cut it off.
      // Either may come from a session the service no longer knows (it restarted): a new one.
      if (!(error instanceof KeychainError)) this.#session = undefined;
      if (!(error instanceof DBusCallError) && !(error instanceof KeychainError)) {
        await this.close();
      }
      throw this.#keychainError(action, path, error, signal);
    } finally {
      this.#running--;
      signal.removeEventListener("abort", abortWarmUp);
    }
  }

  #keychainError(action: string, path: string, error: unknown, signal: AbortSignal): unknown {
    if (error instanceof KeychainError) return error;
    if (signal.aborted && this.#ctx.signal.aborted) return this.#ctx.signal.reason;
    return secretServiceError(action, path, error, signal.aborted, this.#options.timeoutMs);
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

  /** Connects, and asks the bus for the service's owner (this call's); `start`: see #owner. */
  async #service(signal: AbortSignal, start = true): Promise<Service> {
    const connection = await this.#connect(signal);
    const owner = this.#warmOwner ?? await this.#owner(connection, signal, start);
    this.#warmOwner = undefined;
    return {
      owner,
      call: (call) => connection.call({ ...call, destination: owner, from: owner }, signal),
    };
  }

  /**
   * The unique name owning the service's name; the bus starts it first if it can and `start`.
   * `names` is filled in with it as soon as the bus's answer is read.
   */
  async #owner(
    connection: DBusConnection,
    signal: AbortSignal,
    start: boolean,
    names?: OwnerSlot,
  ): Promise<string> {
    const getOwner = () =>
      connection.call({
        ...BUS_CALL,
        member: "GetNameOwner",
        signature: "s",
        body: [SERVICE],
        reply: "s",
        from: BUS_NAME,
        names,
      }, signal);
    let answer: DBusData[];
    try {
      answer = await getOwner();
    } catch (error) {
      const notRunning = error instanceof DBusCallError && /NameHasNoOwner$/.test(error.errorName);
      if (!notRunning || !start) throw error;
      // As a call to the name would: the bus starts the service where a .service file names it.
      await connection.call({
        ...BUS_CALL,
        member: "StartServiceByName",
        signature: "su",
        body: [SERVICE, 0],
        reply: "u",
        from: BUS_NAME,
      }, signal);
      answer = await getOwner();
    }
    const [owner] = answer;
    if (typeof owner !== "string" || !owner.startsWith(":")) {
      throw new Error("the bus named no unique owner of the Secret Service");
    }
    return owner;
  }

  /** The session opened with this owner, or a new one (a failed one is not kept). */
  #openSession(service: Service, signal: AbortSignal): Promise<Session> {
    if (this.#session?.owner === service.owner) return this.#session.session;
    return this.#keepSession(service.owner, this.#newSession(service, signal));
  }

  /** Keeps `session` as the one of `owner` while it has not failed. */
  #keepSession(owner: string, session: Promise<Session>): Promise<Session> {
    const entry = { owner, session };
    this.#session = entry;
    session.catch(() => {
      if (this.#session === entry) this.#session = undefined;
    });
    return session;
  }

  #newSession(service: Service, signal: AbortSignal, pair?: DhKeyPair): Promise<Session> {
    signal.throwIfAborted();
    const random = (n: number) => this.#ctx.randomBytes(n);
    const open = (algorithm: string, input: DBusData) =>
      service.call({
        path: SERVICE_PATH,
        interface: `${SECRET}.Service`,
        member: "OpenSession",
        signature: "sv",
        body: [algorithm, input],
        reply: "vo",
      });
    return negotiateSession(open, random, pair ?? dhKeyPair(random));
  }

  /** The warm-up's search for `path`, once; `undefined` when there is none. */
  #takeWarmSearch(path: string): Promise<Found> | undefined {
    const warm = this.#warmSearch;
    if (warm?.path !== path) return undefined;
    this.#warmSearch = undefined;
    return warm.found;
  }

  /** Forgets the warm-up's search for `path`: it is written or deleted. */
  #dropWarmSearch(path: string): void {
    if (this.#warmSearch?.path === path) this.#warmSearch = undefined;
  }

  async #search(service: Service, attributes: DBusData[]): Promise<Found> {
    const [unlocked, locked] = await service.call({
      path: SERVICE_PATH,
      interface: `${SECRET}.Service`,
      member: "SearchItems",
      signature: "a{ss}",
      body: [attributes],
      reply: "aoao",
    });
    return { unlocked: paths(unlocked), locked: paths(locked) };
  }

  /** Unlocks items without a prompt; the ones unlocked (none when a prompt was asked for). */
  async #unlock(service: Service, items: string[]) {
    const [unlocked, prompt] = await service.call({
      path: SERVICE_PATH,
      interface: `${SECRET}.Service`,
      member: "Unlock",
      signature: "ao",
      body: [items],
      reply: "aoo",
    });
    return prompt === NO_PROMPT ? paths(unlocked) : [];
  }
}

function attributesOf(path: string): DBusData[] {
  return [["service", "hark"], ["account", checkKeychainPath(path).slice("hark/".length)]];
}

function itemCall(item: string, member: string) {
  return { path: item, interface: `${SECRET}.Item`, member };
}

function paths(value: DBusData | undefined): string[] {
  if (!Array.isArray(value)) throw new Error("the service answered a list that is not one");
  return value.filter((p): p is string => typeof p === "string");
}
