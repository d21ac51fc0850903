/**
 * The Linux backend against a real Secret Service: a private D-Bus session bus and an unlocked
 * gnome-keyring started by {@link startSecretService}, reached through real `secret-tool`
 * processes. Runs on Linux only.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { createRealContext } from "../../src/runtime/real_context.ts";
import { KeychainError } from "../../src/keychain/keychain.ts";
import { LinuxKeychain } from "../../src/keychain/linux_keychain.ts";
import { requires } from "../support/requires.ts";
import {
  lockLoginCollection,
  SECRET_SERVICE_PROGRAMS,
  startKeyring,
  startSecretService,
} from "./secret_service.ts";

const linux = Deno.build.os === "linux";

const VALUES: Record<string, string> = {
  "hark/default/app_secret": "plain-ascii-secret",
  "hark/default/user_token": "ünïcødé 密钥 🔑 \"double\" 'single' `back` $HOME \\ end",
  "hark/work/app_secret": "line one\nline two\r\nline three",
  "hark/work/user_token": "ends with a newline\n",
  "hark/big/user_token": "0123456789abcdef".repeat(256),
  "hark/empty/app_secret": "",
  "hark/spaces/app_secret": "  leading and trailing spaces  ",
};

function realContext() {
  return createRealContext({ signal: new AbortController().signal });
}

Deno.test(requires(SECRET_SERVICE_PROGRAMS, {
  name: "LinuxKeychain round-trips secrets byte for byte through a real Secret Service",
  ignore: !linux,
  async fn() {
    const service = await startSecretService();
    try {
      const keychain = new LinuxKeychain(realContext(), { env: service.env });
      assert.deepEqual(await keychain.list(), []);
      assert.equal(await keychain.get("hark/default/app_secret"), undefined);
      for (const [path, secret] of Object.entries(VALUES)) await keychain.set(path, secret);
      for (const [path, secret] of Object.entries(VALUES)) {
        assert.equal(await keychain.get(path), secret, path);
      }
      assert.equal((await keychain.get("hark/big/user_token"))?.length, 4096);
      assert.deepEqual(await keychain.list(), Object.keys(VALUES).sort());
    } finally {
      await service.stop();
    }
  },
}));

Deno.test(requires(SECRET_SERVICE_PROGRAMS, {
  name: "LinuxKeychain overwrites in place and deletes through a real Secret Service",
  ignore: !linux,
  async fn() {
    const service = await startSecretService();
    try {
      const keychain = new LinuxKeychain(realContext(), { env: service.env });
      await keychain.set("hark/default/app_secret", "first");
      await keychain.set("hark/default/app_secret", "second\n");
      assert.equal(await keychain.get("hark/default/app_secret"), "second\n");
      assert.deepEqual(await keychain.list(), ["hark/default/app_secret"]);
      // One item, not two: the Secret Service replaced it.
      const search = await new Deno.Command("secret-tool", {
        args: ["search", "--all", "service", "hark"],
        env: service.env,
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(new TextDecoder().decode(search.stdout).match(/^\[\//gm)?.length, 1);

      assert.equal(await keychain.delete("hark/default/app_secret"), true);
      assert.equal(await keychain.delete("hark/default/app_secret"), false);
      assert.equal(await keychain.get("hark/default/app_secret"), undefined);
      assert.deepEqual(await keychain.list(), []);
    } finally {
      await service.stop();
    }
  },
}));

Deno.test(requires(SECRET_SERVICE_PROGRAMS, {
  name: "LinuxKeychain reports a locked keyring with a clear error in bounded time",
  ignore: !linux,
  async fn() {
    const service = await startSecretService();
    try {
      const keychain = new LinuxKeychain(realContext(), { env: service.env });
      await keychain.set("hark/default/app_secret", "s3cret-locked");
      await lockLoginCollection(service.env);
      for (
        const call of [
          () => keychain.get("hark/default/app_secret"),
          () => keychain.set("hark/default/other", "s3cret-locked"),
          () => keychain.delete("hark/default/app_secret"),
        ]
      ) {
        const started = Date.now();
        await assert.rejects(call, (error: unknown) => {
          assert.ok(error instanceof KeychainError, String(error));
          assert.equal(error.backend, "linux");
          assert.match(error.message, /linux keychain.*locked/);
          assert.match(error.recovery.suggestion, /HARK_KEYCHAIN=file/);
          assert.doesNotMatch(error.message, /s3cret/);
          return true;
        });
        assert.ok(Date.now() - started < 5_000, "answered within 5 s");
      }
      // Listing reads attributes only, which a locked keyring still shows.
      assert.deepEqual(await keychain.list(), ["hark/default/app_secret"]);
    } finally {
      await service.stop();
    }
  },
}));

Deno.test(requires(["dbus-daemon", "secret-tool"], {
  name: "LinuxKeychain reports a bus with no Secret Service with a clear error",
  ignore: !linux,
  async fn() {
    const service = await startSecretService({ keyring: false });
    try {
      const keychain = new LinuxKeychain(realContext(), { env: service.env });
      const started = Date.now();
      await assert.rejects(() => keychain.set("hark/default/app_secret", "x"), (error) => {
        assert.ok(error instanceof KeychainError, String(error));
        assert.match(error.message, /no Secret Service is reachable/);
        assert.match(error.recovery.suggestion, /HARK_KEYCHAIN=file/);
        assert.match(error.recovery.suggestion, /HARK_USER_ACCESS_TOKEN/);
        return true;
      });
      assert.ok(Date.now() - started < 5_000);
    } finally {
      await service.stop();
    }
  },
}));

Deno.test(requires(["secret-tool"], {
  name: "LinuxKeychain fails fast and clearly without a D-Bus session",
  ignore: !linux,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const base: Record<string, string> = {
        ...Deno.env.toObject(),
        HOME: dir,
        XDG_RUNTIME_DIR: dir,
      };
      delete base.DISPLAY;
      const noBus = { ...base };
      delete noBus.DBUS_SESSION_BUS_ADDRESS;
      const deadBus = { ...base, DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(dir, "no-bus")}` };
      for (const env of [noBus, deadBus]) {
        const keychain = new LinuxKeychain(realContext(), { env });
        const started = Date.now();
        await assert.rejects(() => keychain.set("hark/default/app_secret", "x"), (error) => {
          assert.ok(error instanceof KeychainError, String(error));
          assert.match(error.message, /no Secret Service is reachable on the D-Bus session bus/);
          return true;
        });
        assert.ok(Date.now() - started < 5_000);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
}));

Deno.test(requires(["secret-tool"], {
  name: "LinuxKeychain gives up on a bus that never answers within its timeout",
  ignore: !linux,
  async fn() {
    const dir = await Deno.makeTempDir();
    const socket = join(dir, "silent-bus");
    const listener = Deno.listen({ transport: "unix", path: socket });
    const connections: Deno.Conn[] = [];
    const accepting = (async () => {
      for await (const conn of listener) connections.push(conn); // accept, never answer
    })();
    try {
      const env = { ...Deno.env.toObject(), DBUS_SESSION_BUS_ADDRESS: `unix:path=${socket}` };
      const keychain = new LinuxKeychain(realContext(), { env, timeoutMs: 1_000 });
      const started = Date.now();
      await assert.rejects(() => keychain.get("hark/default/app_secret"), (error) => {
        assert.ok(error instanceof KeychainError, String(error));
        assert.match(error.message, /did not answer within 1 s/);
        assert.match(error.recovery.suggestion, /HARK_KEYCHAIN=file/);
        return true;
      });
      assert.ok(Date.now() - started < 4_000);
    } finally {
      listener.close();
      await accepting.catch(() => {});
      for (const conn of connections) conn.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
}));

Deno.test(requires(SECRET_SERVICE_PROGRAMS, {
  name: "LinuxKeychain reads what secret-tool stored and secret-tool reads what it stored",
  ignore: !linux,
  async fn() {
    const service = await startSecretService();
    try {
      const tool = (args: string[], stdin?: string) =>
        realContext().run("secret-tool", args, { env: service.env, stdin });
      const stored = await tool(
        [
          "store",
          "--label=hark/default/app_secret",
          "service",
          "hark",
          "account",
          "default/app_secret",
        ],
        "from secret-tool ü",
      );
      assert.equal(stored.code, 0, stored.stderr);
      // No secret-tool on its PATH: only the in-process client can answer.
      const keychain = new LinuxKeychain(realContext(), {
        env: { ...service.env, PATH: "/nonexistent" },
      });
      assert.equal(await keychain.get("hark/default/app_secret"), "from secret-tool ü");
      await keychain.set("hark/work/user_token", "from hark\n");
      const lookup = await tool(["lookup", "service", "hark", "account", "work/user_token"]);
      assert.equal(lookup.stdout, "from hark\n");
      assert.deepEqual(await keychain.list(), ["hark/default/app_secret", "hark/work/user_token"]);
      assert.equal(await keychain.delete("hark/default/app_secret"), true);
      assert.equal(
        (await tool(["lookup", "service", "hark", "account", "default/app_secret"])).stdout,
        "",
      );
      await keychain.close();
    } finally {
      await service.stop();
    }
  },
}));

Deno.test(requires([...SECRET_SERVICE_PROGRAMS, "dbus-monitor"], {
  name: "LinuxKeychain never sends a secret over the bus in the clear",
  ignore: !linux,
  async fn() {
    const service = await startSecretService();
    const monitor = new Deno.Command("dbus-monitor", {
      args: ["--address", service.address],
      env: service.env,
      clearEnv: true,
      stdout: "piped",
      stderr: "null",
    }).spawn();
    try {
      await new Promise((resolve) => setTimeout(resolve, 300)); // the monitor subscribes
      const secret = "s3cret-on-the-bus";
      const keychain = new LinuxKeychain(realContext(), { env: service.env });
      await keychain.set("hark/default/app_secret", secret);
      assert.equal(await keychain.get("hark/default/app_secret"), secret);
      await keychain.close();
      await new Promise((resolve) => setTimeout(resolve, 300));
      monitor.kill("SIGTERM");
      const seen = new TextDecoder().decode((await monitor.output()).stdout);
      const bytes = Array.from(
        new TextEncoder().encode(secret),
        (b) => b.toString(16).padStart(2, "0"),
      );
      assert.doesNotMatch(seen, new RegExp(secret));
      assert.ok(
        !seen.replace(/\s+/g, " ").includes(bytes.join(" ")),
        "the secret's bytes on the bus",
      );
      // The monitor saw the exchange, so its silence about the secret means something.
      assert.match(seen, /dh-ietf1024-sha256-aes128-cbc-pkcs7/);
      assert.match(seen, /member=GetSecret/);
      assert.match(seen, /member=CreateItem/);
    } finally {
      try {
        monitor.kill("SIGTERM");
      } catch {
        // Already stopped.
      }
      await monitor.status;
      await service.stop();
    }
  },
}));

Deno.test(requires(SECRET_SERVICE_PROGRAMS, {
  name: "LinuxKeychain keeps working when the Secret Service starts or restarts after its " +
    "first call, as a secret-tool per call did (a long-running hark mcp)",
  ignore: !linux,
  async fn() {
    const service = await startSecretService({ keyring: false });
    let keyring: Deno.ChildProcess | undefined;
    const stopKeyring = async () => {
      keyring?.kill("SIGTERM");
      await keyring?.status;
      keyring = undefined;
    };
    try {
      const keychain = new LinuxKeychain(realContext(), {
        env: { ...service.env, PATH: "/nonexistent" },
      });
      await assert.rejects(
        () => keychain.set("hark/default/app_secret", "first"),
        /no Secret Service is reachable/,
      );
      keyring = await startKeyring(service.env);
      await keychain.set("hark/default/app_secret", "first");
      assert.equal(await keychain.get("hark/default/app_secret"), "first");
      await stopKeyring();
      keyring = await startKeyring(service.env);
      assert.equal(await keychain.get("hark/default/app_secret"), "first");
      await keychain.set("hark/default/app_secret", "second");
      assert.equal(await keychain.get("hark/default/app_secret"), "second");
      await keychain.close();
    } finally {
      await stopKeyring();
      await service.stop();
    }
  },
}));

Deno.test(requires(SECRET_SERVICE_PROGRAMS, {
  name: "LinuxKeychain reads ahead the paths prepare() names: the first get takes the read, a " +
    "set drops it",
  ignore: !linux,
  async fn() {
    const service = await startSecretService({ keyring: false });
    let keyring: Deno.ChildProcess | undefined = await startKeyring(service.env);
    const stopKeyring = async () => {
      keyring?.kill("SIGTERM");
      await keyring?.status;
      keyring = undefined;
    };
    const env = { ...service.env, PATH: "/nonexistent" };
    const path = "hark/default/user_token";
    try {
      await new LinuxKeychain(realContext(), { env }).set(path, "read ahead");
      const ahead = new LinuxKeychain(realContext(), { env });
      await ahead.prepare([path]);
      // The service is gone: only the read made ahead can answer, and only once.
      await stopKeyring();
      assert.equal(await ahead.get(path), "read ahead");
      await assert.rejects(() => ahead.get(path), /no Secret Service is reachable/);
      await ahead.close();

      keyring = await startKeyring(service.env);
      const written = new LinuxKeychain(realContext(), { env });
      await written.prepare([path]);
      await written.set(path, "written after");
      assert.equal(await written.get(path), "written after");
      await written.close();
    } finally {
      await stopKeyring();
      await service.stop();
    }
  },
}));

Deno.test(requires(SECRET_SERVICE_PROGRAMS, {
  name: "LinuxKeychain: a get right after prepare() takes the read ahead, so a later get (the " +
    "re-read under the refresh lock) reads afresh what another process wrote meanwhile",
  ignore: !linux,
  async fn() {
    // Found by review: the read ahead used to be registered after the client loaded, so a get in
    // between read by itself and the read ahead then answered the re-read with the old token.
    const service = await startSecretService();
    const env = { ...service.env, PATH: "/nonexistent" };
    const path = "hark/default/user_token";
    try {
      await new LinuxKeychain(realContext(), { env }).set(path, "RT1");
      const mine = new LinuxKeychain(realContext(), { env });
      const prepared = mine.prepare([path]); // openSession
      assert.equal(await mine.get(path), "RT1"); // the token provider, right after
      await prepared;
      const other = new LinuxKeychain(realContext(), { env });
      await other.set(path, "RT2"); // another process refreshes and rotates the token
      await other.close();
      assert.equal(await mine.get(path), "RT2");
      await mine.close();
    } finally {
      await service.stop();
    }
  },
}));
