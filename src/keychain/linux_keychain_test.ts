import assert from "node:assert/strict";
import { createTestContext } from "../../tests/support/test_context.ts";
import {
  assertNoSecretInArgv,
  type ExpectedRun,
  notFoundError,
  scriptedRun,
  timedOutError,
} from "../../tests/support/scripted_run.ts";
import { ExitCode } from "../errors/exit_code.ts";
import { ValidationError } from "../errors/mod.ts";
import { KeychainError } from "./keychain.ts";
import { LINUX_MAX_SECRET_BYTES, LinuxKeychain, parseSearchAccounts } from "./linux_keychain.ts";

const SECRET = 's3cr3t "quoted"\nsecond line\n';

// Outputs recorded from secret-tool 0.21 against gnome-keyring 46.
const SEARCH_STDOUT = `[/3]
label = hark/default/b
secret = noline
created = 2026-11-21 14:50:44
modified = 2026-11-21 14:50:44
schema = org.freedesktop.Secret.Generic
[/2]
label = hark/default/app_secret
secret = a
attribute.account = forged/by_a_secret
b

created = 2026-11-21 14:50:44
modified = 2026-11-21 14:50:44
schema = org.freedesktop.Secret.Generic
`;
const SEARCH_STDERR = `attribute.account = default/b
attribute.service = hark
attribute.account = default/app_secret
attribute.service = hark
`;
const LOCKED_CREATE = "secret-tool: Cannot create an item in a locked collection\n";
const NO_DISPLAY = "secret-tool: Cannot autolaunch D-Bus without X11 $DISPLAY\n";
const NO_SOCKET = "secret-tool: Could not connect: No such file or directory\n";
const NO_SERVICE =
  "secret-tool: The name org.freedesktop.secrets was not provided by any .service files\n";
const NO_COLLECTION =
  "secret-tool: Object does not exist at path “/org/freedesktop/secrets/collection/login”\n";
const ITEM_HEADER = "[/1]\nlabel = hark/default/app_secret\ncreated = 2026-11-21 14:50:45\n";

function setup(expected: ExpectedRun[]) {
  const runner = scriptedRun(expected);
  const ctx = createTestContext({ run: runner.run });
  return { ctx, runner, keychain: new LinuxKeychain(ctx) };
}

const lookup = (account: string): Omit<ExpectedRun, "result"> => ({
  cmd: "secret-tool",
  args: ["lookup", "service", "hark", "account", account],
});
const search = (account: string): Omit<ExpectedRun, "result"> => ({
  cmd: "secret-tool",
  args: ["search", "service", "hark", "account", account],
});

Deno.test("LinuxKeychain.set() sends the secret on stdin of secret-tool store", async () => {
  const { ctx, runner, keychain } = setup([{
    cmd: "secret-tool",
    args: [
      "store",
      "--label=hark/default/app_secret",
      "service",
      "hark",
      "account",
      "default/app_secret",
    ],
    stdin: SECRET,
  }]);
  await keychain.set("hark/default/app_secret", SECRET);
  runner.verify();
  assert.equal(ctx.runs[0].options.timeoutMs, 5_000);
  assertNoSecretInArgv(ctx.runs, [SECRET]);
});

Deno.test("LinuxKeychain.get() returns stdout of lookup exactly, trailing newline kept", async () => {
  const { runner, keychain } = setup([
    { ...lookup("default/app_secret"), result: { stdout: SECRET } },
  ]);
  assert.equal(await keychain.get("hark/default/app_secret"), SECRET);
  runner.verify();
});

Deno.test("LinuxKeychain.get() returns undefined when lookup and search find nothing", async () => {
  const { runner, keychain } = setup([
    { ...lookup("work/user_token"), result: { code: 1 } },
    { ...search("work/user_token"), result: { code: 0 } },
  ]);
  assert.equal(await keychain.get("hark/work/user_token"), undefined);
  runner.verify();
});

Deno.test("LinuxKeychain.get() reports a locked item that lookup silently skips", async () => {
  const { runner, keychain } = setup([
    { ...lookup("default/app_secret"), result: { code: 1 } },
    { ...search("default/app_secret"), result: { stdout: ITEM_HEADER } },
  ]);
  await assert.rejects(() => keychain.get("hark/default/app_secret"), (error) => {
    assert.ok(error instanceof KeychainError);
    assert.equal(
      error.message,
      'Cannot read "hark/default/app_secret" in the linux keychain (Secret Service): ' +
        "the keyring is locked",
    );
    assert.match(error.recovery.suggestion, /HARK_KEYCHAIN=file/);
    return true;
  });
  runner.verify();
});

Deno.test("LinuxKeychain.set() maps secret-tool's errors to clear keychain errors", async () => {
  const cases: [string, RegExp][] = [
    [LOCKED_CREATE, /the keyring is locked$/],
    [NO_DISPLAY, /no Secret Service is reachable on the D-Bus session bus \(secret-tool: Cannot/],
    [NO_SOCKET, /no Secret Service is reachable/],
    [NO_SERVICE, /no Secret Service is reachable/],
    [NO_COLLECTION, /the keyring has no default collection/],
    ["secret-tool: something else\n", /secret-tool exited with code 1: secret-tool: something/],
  ];
  for (const [stderr, message] of cases) {
    const { runner, keychain } = setup([{
      cmd: "secret-tool",
      args: ["store", "--label=hark/x", "service", "hark", "account", "x"],
      stdin: "value",
      result: { code: 1, stderr },
    }]);
    await assert.rejects(() => keychain.set("hark/x", "value"), (error) => {
      assert.ok(error instanceof KeychainError, String(error));
      assert.equal(error.backend, "linux");
      assert.match(error.message, /^Cannot write "hark\/x" in the linux keychain/);
      assert.match(error.message, message);
      assert.match(error.recovery.suggestion, /HARK_KEYCHAIN=file/);
      return true;
    });
    runner.verify();
  }
});

Deno.test("LinuxKeychain turns a missing secret-tool and a hang into keychain errors", async () => {
  const missing = setup([{ ...lookup("x"), error: notFoundError("secret-tool") }]);
  await assert.rejects(() => missing.keychain.get("hark/x"), (error) => {
    assert.ok(error instanceof KeychainError);
    assert.equal(error.message, 'Cannot use the linux keychain: "secret-tool" was not found');
    assert.match(error.recovery.suggestion, /libsecret-tools.*HARK_KEYCHAIN=file/);
    return true;
  });
  const hung = setup([{ ...lookup("x"), error: timedOutError("secret-tool", 5000) }]);
  await assert.rejects(() => hung.keychain.get("hark/x"), (error) => {
    assert.ok(error instanceof KeychainError);
    assert.match(error.message, /"secret-tool" did not answer within 5 s/);
    return true;
  });
});

Deno.test("LinuxKeychain.delete() clears, and tells an absent item from a locked one", async () => {
  const clear = {
    cmd: "secret-tool",
    args: ["clear", "service", "hark", "account", "default/app_secret"],
  };
  const deleted = setup([{ ...clear, result: { code: 0 } }]);
  assert.equal(await deleted.keychain.delete("hark/default/app_secret"), true);
  deleted.runner.verify();

  const absent = setup([
    { ...clear, result: { code: 1 } },
    { ...search("default/app_secret"), result: { code: 0 } },
  ]);
  assert.equal(await absent.keychain.delete("hark/default/app_secret"), false);
  absent.runner.verify();

  const locked = setup([
    { ...clear, result: { code: 1 } },
    { ...search("default/app_secret"), result: { stdout: ITEM_HEADER } },
  ]);
  await assert.rejects(() => locked.keychain.delete("hark/default/app_secret"), /locked/);
  locked.runner.verify();
});

Deno.test("LinuxKeychain.list() reads accounts from stderr, never from secrets on stdout", async () => {
  const { runner, keychain } = setup([{
    cmd: "secret-tool",
    args: ["search", "--all", "service", "hark"],
    result: { stdout: SEARCH_STDOUT, stderr: SEARCH_STDERR },
  }]);
  assert.deepEqual(await keychain.list(), ["hark/default/app_secret", "hark/default/b"]);
  runner.verify();
});

Deno.test("parseSearchAccounts() falls back to stdout and skips invalid paths", () => {
  assert.deepEqual(
    parseSearchAccounts({
      stdout: "attribute.account = default/x\nattribute.account = bad path\n" +
        "attribute.account = default/x\n",
      stderr: "",
    }),
    ["hark/default/x"],
  );
  assert.deepEqual(parseSearchAccounts({ stdout: "", stderr: "" }), []);
});

Deno.test("LinuxKeychain passes its env option to every secret-tool call", async () => {
  const env = { DBUS_SESSION_BUS_ADDRESS: "unix:path=/tmp/bus", PATH: "/usr/bin" };
  const runner = scriptedRun([{ ...lookup("x"), result: { stdout: "v" } }]);
  const ctx = createTestContext({ run: runner.run });
  assert.equal(await new LinuxKeychain(ctx, { env, timeoutMs: 1234 }).get("hark/x"), "v");
  assert.deepEqual(ctx.runs[0].options.env, env);
  assert.equal(ctx.runs[0].options.timeoutMs, 1234);
});

Deno.test("LinuxKeychain rejects malformed paths before running anything", async () => {
  const { ctx, keychain } = setup([]);
  await assert.rejects(() => keychain.set("other/x", "v"), /Invalid keychain path "other\/x"/);
  assert.equal(ctx.runs.length, 0);
});

/** A context whose bus is a Unix socket, so the in-process client is chosen; any connection fails the test. */
function inProcessSetup() {
  const connects: string[] = [];
  const ctx = {
    ...createTestContext({ env: { DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/bus" } }),
    connectUnix(path: string): Promise<never> {
      connects.push(path);
      throw new Error(`Unexpected connection to ${path}`);
    },
  };
  return { connects, keychain: new LinuxKeychain(ctx) };
}

Deno.test("LinuxKeychain refuses a malformed path as a usage error on the in-process path too", async () => {
  const { connects, keychain } = inProcessSetup();
  for (
    const call of [
      () => keychain.get("bad path"),
      () => keychain.set("other/x", "v"),
      () => keychain.delete("hark/a b"),
    ]
  ) {
    await assert.rejects(call, (error) => {
      assert.ok(error instanceof ValidationError, String(error));
      assert.equal(error.code, ExitCode.Validation);
      assert.match(error.message, /^Invalid keychain path "/);
      return true;
    });
  }
  assert.deepEqual(connects, []);
});

Deno.test("LinuxKeychain.set() refuses a secret over 1 MiB, which it could not read back", async () => {
  const big = "é".repeat(LINUX_MAX_SECRET_BYTES / 2) + "x";
  const { connects, keychain } = inProcessSetup();
  const secretTool = setup([]);
  for (const k of [keychain, secretTool.keychain]) {
    await assert.rejects(() => k.set("hark/default/app_secret", big), (error) => {
      assert.ok(error instanceof KeychainError, String(error));
      assert.equal(
        error.message,
        'Cannot write "hark/default/app_secret" in the linux keychain (Secret Service): ' +
          `the value has ${LINUX_MAX_SECRET_BYTES + 1} bytes, more than the ` +
          `${LINUX_MAX_SECRET_BYTES} hark stores`,
      );
      assert.equal(error.recovery.suggestion, "Store a shorter value");
      return true;
    });
  }
  assert.deepEqual(connects, []);
  assert.equal(secretTool.ctx.runs.length, 0);
});
