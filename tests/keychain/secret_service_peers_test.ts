/**
 * The in-process Secret Service client among other processes on a real bus: a private
 * `dbus-daemon` on which the test plays the Secret Service (it owns `org.freedesktop.secrets`)
 * and a hostile process next to it. A session bus lets any process send a method return or an
 * error to any connection, answering a call it never received: only the sender field, which the
 * bus daemon sets itself, tells the service's answers from forged ones. Runs on Linux only.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import type { DBusData, DBusMessage } from "../../src/keychain/_dbus_wire.ts";
import {
  aesSessionCipher,
  dhKeyPair,
  dhSharedSecret,
  type SessionCipher,
  sessionKeyBytes,
} from "../../src/keychain/_secret_session.ts";
import { LinuxKeychain } from "../../src/keychain/linux_keychain.ts";
import { createRealContext } from "../../src/runtime/real_context.ts";
import { requires } from "../support/requires.ts";
import { DBusPeer } from "./dbus_peer.ts";
import { startSecretService } from "./secret_service.ts";

const linux = Deno.build.os === "linux";
const SESSION = "/org/freedesktop/secrets/session/s1";

/** Answers `call` from `peer`: a method return, or an error when `errorName` is given. */
function answer(
  peer: DBusPeer,
  call: DBusMessage,
  signature: string,
  body: DBusData[],
  errorName?: string,
) {
  return peer.send({
    type: errorName === undefined ? 2 : 3,
    errorName,
    replySerial: call.serial,
    destination: call.sender,
    signature,
    body,
  });
}

/** A keychain of this process on `bus`, with no secret-tool to fall back to. */
function keychainOn(bus: { env: Record<string, string> }, signal = new AbortController().signal) {
  return new LinuxKeychain(createRealContext({ signal }), {
    env: { ...bus.env, PATH: "/nonexistent" },
  });
}

/**
 * Runs `play` on a private bus where the test's own connection owns org.freedesktop.secrets,
 * with a keychain of this process on that bus; closes both and stops the bus after.
 */
async function playingTheService(
  play: (service: DBusPeer, keychain: LinuxKeychain) => Promise<void>,
): Promise<void> {
  const bus = await startSecretService({ keyring: false });
  const service = await DBusPeer.connect(join(bus.dir, "bus"));
  const keychain = keychainOn(bus);
  try {
    await service.callBus("RequestName", "su", ["org.freedesktop.secrets", 4]);
    await play(service, keychain);
  } finally {
    await keychain.close();
    service.close();
    await bus.stop();
  }
}

/** Answers `get` (a GetSecret) with `text`, sealed in the session's cipher. */
async function answerSecret(peer: DBusPeer, get: DBusMessage, cipher: SessionCipher, text: string) {
  const sealed = await cipher.seal(new TextEncoder().encode(text));
  await answer(peer, get, "(oayays)", [[SESSION, sealed.parameters, sealed.value, "text/plain"]]);
}

/** Answers `open` (an OpenSession) as the service would: its own key; the session's cipher. */
async function acceptSession(peer: DBusPeer, open: DBusMessage): Promise<SessionCipher> {
  const input = open.body[1];
  const peerKey = typeof input === "object" && "value" in input ? input.value : undefined;
  assert.ok(peerKey instanceof Uint8Array);
  const random = (n: number) => crypto.getRandomValues(new Uint8Array(n));
  const pair = dhKeyPair(random);
  const cipher = await aesSessionCipher(
    await sessionKeyBytes(dhSharedSecret(pair.privateKey, peerKey)),
    random,
  );
  await answer(peer, open, "vo", [{ signature: "ay", value: pair.publicKey }, SESSION]);
  return cipher;
}

Deno.test(requires(["dbus-daemon"], {
  name: "LinuxKeychain takes answers only from the Secret Service: a forged NotSupported " +
    "from another process does not make it send the secret in the clear",
  ignore: !linux,
  async fn() {
    const bus = await startSecretService({ keyring: false });
    const socket = join(bus.dir, "bus");
    const service = await DBusPeer.connect(socket);
    const attacker = await DBusPeer.connect(socket);
    try {
      await service.callBus("RequestName", "su", ["org.freedesktop.secrets", 4]);
      const keychain = keychainOn(bus);
      const setting = keychain.set("hark/default/app_secret", "s3cret-forged");
      setting.catch(() => {});

      const open = await service.nextCall();
      assert.equal(open.member, "OpenSession");
      assert.equal(open.body[0], "dh-ietf1024-sha256-aes128-cbc-pkcs7");
      // The hostile process answers first, as if the service refused the encrypted algorithm.
      await answer(attacker, open, "s", ["forged"], "org.freedesktop.DBus.Error.NotSupported");
      await attacker.callBus("GetId"); // the bus has routed the forged error by now
      const cipher = await acceptSession(service, open);

      const create = await service.nextCall();
      assert.equal(create.member, "CreateItem", "no second OpenSession (plain) was asked for");
      const [, secret] = create.body;
      assert.ok(Array.isArray(secret));
      const [session, parameters, value] = secret;
      assert.equal(session, SESSION);
      assert.ok(parameters instanceof Uint8Array && value instanceof Uint8Array);
      assert.equal(parameters.length, 16, "the secret travels encrypted");
      const plain = await cipher.open({ parameters, value });
      assert.equal(new TextDecoder().decode(plain), "s3cret-forged");
      await answer(service, create, "oo", ["/org/freedesktop/secrets/collection/login/1", "/"]);
      await setting;
      await keychain.close();
    } finally {
      service.close();
      attacker.close();
      await bus.stop();
    }
  },
}));

Deno.test(requires(["dbus-daemon"], {
  name: "LinuxKeychain.prepare() opens the session before the keychain is asked, and the " +
    "first read takes it over",
  ignore: !linux,
  async fn() {
    await playingTheService(async (service, keychain) => {
      keychain.prepare();
      const open = await service.nextCall();
      assert.equal(open.member, "OpenSession", "asked for before any read");
      const cipher = await acceptSession(service, open);

      const reading = keychain.get("hark/default/user_token");
      reading.catch(() => {});
      const search = await service.nextCall();
      assert.equal(search.member, "SearchItems", "no second OpenSession");
      const item = "/org/freedesktop/secrets/collection/login/7";
      await answer(service, search, "aoao", [[item], []]);
      const get = await service.nextCall();
      assert.equal(get.member, "GetSecret");
      assert.deepEqual(get.body, [SESSION]);
      await answerSecret(service, get, cipher, "token-7");
      assert.equal(await reading, "token-7");
    });
  },
}));

Deno.test(requires(["dbus-daemon"], {
  name: "LinuxKeychain.prepare(paths) asks for the session and the item in its first round " +
    "trip, to the name before its owner is known, and only the first read takes the search",
  ignore: !linux,
  async fn() {
    await playingTheService(async (service, keychain) => {
      const path = "hark/default/user_token";
      keychain.prepare([path]);
      // Both come before the service has answered anything: one round trip.
      const open = await service.nextCall();
      const search = await service.nextCall();
      assert.deepEqual([open.member, search.member], ["OpenSession", "SearchItems"]);
      for (const call of [open, search]) {
        assert.equal(call.destination, "org.freedesktop.secrets", "sent to the well-known name");
        assert.equal(call.flags & 0x2, 0x2, "NO_AUTO_START: a warm-up never starts the service");
      }
      const cipher = await acceptSession(service, open);
      const item = "/org/freedesktop/secrets/collection/login/7";
      await answer(service, search, "aoao", [[item], []]);

      const secret = async (text: string) => {
        const get = await service.nextCall();
        assert.equal(get.member, "GetSecret", "no second search for the read ahead");
        assert.equal(get.destination, service.uniqueName, "addressed to the owner by then");
        await answerSecret(service, get, cipher, text);
      };
      const reading = keychain.get(path);
      await secret("token-7");
      assert.equal(await reading, "token-7");
      // A later read (the re-read under the refresh lock) searches afresh.
      const again = keychain.get(path);
      again.catch(() => {});
      const search2 = await service.nextCall();
      assert.equal(search2.member, "SearchItems");
      assert.equal(search2.destination, service.uniqueName);
      await answer(service, search2, "aoao", [[item], []]);
      await secret("token-8");
      assert.equal(await again, "token-8");
    });
  },
}));

Deno.test(requires(["dbus-daemon"], {
  name: "LinuxKeychain.prepare() fails silently: the first read reports the same error as " +
    "without it",
  ignore: !linux,
  async fn() {
    // A bus where nothing owns org.freedesktop.secrets, nor can start it.
    const bus = await startSecretService({ keyring: false });
    try {
      const reason = async (prepare: boolean) => {
        const keychain = keychainOn(bus);
        if (prepare) keychain.prepare();
        const error = await keychain.get("hark/default/user_token").then(
          () => assert.fail("expected an error"),
          (e: unknown) => e,
        );
        await keychain.close();
        assert.ok(error instanceof Error);
        return error.message;
      };
      const message = await reason(false);
      assert.match(message, /Secret Service/i);
      assert.equal(await reason(true), message);
    } finally {
      await bus.stop();
    }
  },
}));

Deno.test(requires(["dbus-daemon"], {
  name: "LinuxKeychain.prepare(paths) after Ctrl-C leaves no unhandled rejection behind",
  ignore: !linux,
  async fn() {
    const bus = await startSecretService({ keyring: false });
    try {
      const interrupted = new AbortController();
      interrupted.abort(new DOMException("Cancelled by Ctrl-C", "AbortError"));
      const keychain = keychainOn(bus, interrupted.signal);
      await keychain.prepare(["hark/default/user_token"]);
      await assert.rejects(keychain.get("hark/default/user_token"), /Ctrl-C/);
      await keychain.close();
    } finally {
      await bus.stop();
    }
  },
}));
