import assert from "node:assert/strict";
import { createTestContext } from "../../tests/support/test_context.ts";
import { ApiError, AuthError } from "../errors/mod.ts";
import { parseConfig } from "../config/config_file.ts";
import { CommandProvider } from "./command_provider.ts";
import {
  type Credential,
  type CredentialProvider,
  CredentialProviderError,
  resolveToken,
  type TokenSpec,
} from "./credential_provider.ts";
import { EnvProvider } from "./env_provider.ts";

const spec: TokenSpec = { identity: "user", profile: "default", config: {}, configPath: "/x" };

function fake(
  name: "env" | "command" | "keychain",
  behaviour: () => Promise<Credential | undefined>,
  calls: string[],
): CredentialProvider {
  return {
    name,
    resolveAccount: () => Promise.resolve(undefined),
    resolveToken: () => {
      calls.push(name);
      return behaviour();
    },
  };
}

const token = (t: string, source: "env" | "command" | "keychain"): Credential => ({
  token: t,
  identity: "user",
  source,
});

Deno.test("resolveToken() skips a provider that has no value and tries the next", async () => {
  const calls: string[] = [];
  const { value, provider } = await resolveToken([
    fake("env", () => Promise.resolve(undefined), calls),
    fake("keychain", () => Promise.resolve(token("k", "keychain")), calls),
  ], spec);
  assert.equal(value.token, "k");
  assert.equal(provider.name, "keychain");
  assert.deepEqual(calls, ["env", "keychain"]);
});

Deno.test("resolveToken() tries the next provider after an ordinary error", async () => {
  const calls: string[] = [];
  const ordinary = new CredentialProviderError("command", "failed", { blocking: false });
  const { value } = await resolveToken([
    fake("command", () => Promise.reject(ordinary), calls),
    fake("keychain", () => Promise.resolve(token("k", "keychain")), calls),
  ], spec);
  assert.equal(value.token, "k");
  assert.deepEqual(calls, ["command", "keychain"]);
});

Deno.test("resolveToken() stops the chain at a blocking error", async () => {
  const calls: string[] = [];
  const blocking = new CredentialProviderError("command", "malformed", { blocking: true });
  await assert.rejects(
    resolveToken([
      fake("command", () => Promise.reject(blocking), calls),
      fake("keychain", () => Promise.resolve(token("k", "keychain")), calls),
    ], spec),
    (e) => e === blocking,
  );
  assert.deepEqual(calls, ["command"]);
});

Deno.test("resolveToken() returns the first valid credential and asks no further", async () => {
  const calls: string[] = [];
  const { value } = await resolveToken([
    fake("env", () => Promise.resolve(token("e", "env")), calls),
    fake("keychain", () => Promise.resolve(token("k", "keychain")), calls),
  ], spec);
  assert.equal(value.token, "e");
  assert.deepEqual(calls, ["env"]);
});

Deno.test("resolveToken() fails with the first ordinary error, else 'Not signed in'", async () => {
  const first = new ApiError("first");
  await assert.rejects(
    resolveToken([
      fake("command", () => Promise.reject(first), []),
      fake("keychain", () => Promise.reject(new ApiError("second")), []),
    ], spec),
    (e) => e === first,
  );
  await assert.rejects(
    resolveToken([fake("keychain", () => Promise.resolve(undefined), [])], spec),
    (e) => e instanceof AuthError && /Not signed in to profile "default"/.test(e.message),
  );
});

Deno.test("EnvProvider reads HARK_USER_ACCESS_TOKEN and HARK_TENANT_ACCESS_TOKEN", async () => {
  const ctx = createTestContext({
    env: { HARK_USER_ACCESS_TOKEN: "u-env", HARK_TENANT_ACCESS_TOKEN: "t-env" },
  });
  const provider = new EnvProvider(ctx);
  assert.deepEqual(await provider.resolveToken(spec), {
    ...token("u-env", "env"),
    origin: "https://open.larksuite.com",
  });
  assert.equal((await provider.resolveToken({ ...spec, identity: "bot" }))?.token, "t-env");
  assert.equal(await new EnvProvider(createTestContext()).resolveToken(spec), undefined);
});

Deno.test("EnvProvider refuses a token with a line break, space or control character inside", async () => {
  for (const value of ["u-abc\r\nX-Evil: 1", "u-a b", "u-\u0000x", "u-ünï"]) {
    for (
      const [identity, variable] of [["user", "HARK_USER_ACCESS_TOKEN"], [
        "bot",
        "HARK_TENANT_ACCESS_TOKEN",
      ]] as const
    ) {
      const ctx = createTestContext({ env: { [variable]: value } });
      await assert.rejects(
        new EnvProvider(ctx).resolveToken({ ...spec, identity }),
        (e) =>
          e instanceof CredentialProviderError && e.blocking &&
          e.message === `The token in ${variable} holds spaces, line breaks, control or ` +
              "non-ASCII characters, which no token has" &&
          !e.message.includes(value),
        JSON.stringify(value),
      );
    }
  }
  // Around it, whitespace (a trailing newline from a file) is trimmed as before.
  const ctx = createTestContext({ env: { HARK_USER_ACCESS_TOKEN: " u-env\r\n" } });
  assert.equal((await new EnvProvider(ctx).resolveToken(spec))?.token, "u-env");
});

Deno.test("EnvProvider blocks when its token was rejected (it cannot be refreshed)", async () => {
  const ctx = createTestContext({ env: { HARK_USER_ACCESS_TOKEN: "u-env" } });
  await assert.rejects(
    new EnvProvider(ctx).resolveToken({ ...spec, refresh: { rejected: "u-env" } }),
    (e) =>
      e instanceof CredentialProviderError && e.blocking &&
      /HARK_USER_ACCESS_TOKEN/.test(e.message),
  );
});

Deno.test("EnvProvider sends its token only to HARK_BASE_URL, never where a config points", async () => {
  const feishu: TokenSpec = {
    ...spec,
    config: { apps: { default: { base_url: "https://open.feishu.cn" } } },
  };
  const bare = createTestContext({ env: { HARK_USER_ACCESS_TOKEN: "u-env" } });
  await assert.rejects(
    new EnvProvider(bare).resolveToken(feishu),
    (e) =>
      e instanceof CredentialProviderError && e.blocking &&
      /goes only to HARK_BASE_URL, which is not set/.test(e.message) &&
      /HARK_BASE_URL=https:\/\/open\.feishu\.cn/.test(e.recovery.suggestion),
  );
  const pointed = createTestContext({
    env: { HARK_USER_ACCESS_TOKEN: "u-env", HARK_BASE_URL: "https://open.feishu.cn/" },
  });
  const credential = await new EnvProvider(pointed).resolveToken(feishu);
  assert.equal(credential?.origin, "https://open.feishu.cn");
});

function commandSpec(): TokenSpec {
  return {
    ...spec,
    config: { apps: { default: { credential_command: ["vault-token", "--json"] } } },
  };
}

Deno.test("CommandProvider runs the configured program and reads its JSON answer", async () => {
  const ctx = createTestContext({
    run: () =>
      Promise.resolve({
        code: 0,
        stdout: '{"access_token":"u-cmd","expires_at":"2026-11-21T12:00:00Z"}',
        stderr: "",
      }),
  });
  const credential = await new CommandProvider(ctx).resolveToken(commandSpec());
  assert.deepEqual(credential, {
    token: "u-cmd",
    identity: "user",
    source: "command",
    expiresAt: Date.UTC(2026, 10, 21, 12),
    origin: "https://open.larksuite.com",
  });
  assert.deepEqual(ctx.runs.map((r) => [r.cmd, r.args]), [["vault-token", ["--json"]]]);
  const epoch = createTestContext({
    run: () =>
      Promise.resolve({
        code: 0,
        stdout: '{"access_token":"u","expires_at":1900000000}',
        stderr: "",
      }),
  });
  assert.equal((await new CommandProvider(epoch).resolveToken(commandSpec()))?.expiresAt, 1.9e12);
});

Deno.test("CommandProvider: a failing program is ordinary, a malformed answer blocking", async () => {
  const failing = createTestContext({
    run: () => Promise.resolve({ code: 1, stdout: "", stderr: "vault sealed: u-SECRET\n" }),
  });
  await assert.rejects(
    new CommandProvider(failing).resolveToken(commandSpec()),
    (e) => e instanceof CredentialProviderError && !e.blocking && /exit code 1/.test(e.message),
  );
  for (
    const stdout of ["not json", "[]", '{"token":"x"}', '{"access_token":"x","expires_at":"soon"}']
  ) {
    const malformed = createTestContext({
      run: () => Promise.resolve({ code: 0, stdout, stderr: "" }),
    });
    await assert.rejects(
      new CommandProvider(malformed).resolveToken(commandSpec()),
      (e) =>
        e instanceof CredentialProviderError && e.blocking && /Malformed answer/.test(e.message),
    );
  }
});

Deno.test("CommandProvider refuses a token with a line break inside, blocking", async () => {
  const ctx = createTestContext({
    run: () =>
      Promise.resolve({ code: 0, stdout: '{"access_token":"u-a\\r\\nX-Evil: 1"}', stderr: "" }),
  });
  await assert.rejects(
    new CommandProvider(ctx).resolveToken(commandSpec()),
    (e) =>
      e instanceof CredentialProviderError && e.blocking &&
      /"access_token" holds spaces, line breaks, control or non-ASCII characters/.test(e.message),
  );
});

Deno.test("CommandProvider never quotes the program's error output, and bounds what it reads", async () => {
  const ctx = createTestContext({
    run: () =>
      Promise.resolve({ code: 2, stdout: "", stderr: "token u-LEAKED-0123456789 expired\n" }),
  });
  await assert.rejects(new CommandProvider(ctx).resolveToken(commandSpec()), (e) => {
    assert.ok(e instanceof CredentialProviderError);
    assert.equal(
      e.message,
      'The credential command "vault-token" failed with exit code 2 (its error output is not ' +
        "shown: it may hold a secret; run the command yourself to see it)",
    );
    return true;
  });
  assert.deepEqual(ctx.runs[0].options, { timeoutMs: 30_000, maxOutputBytes: 65_536 });
  for (
    const [error, message] of [
      [
        new Deno.errors.TimedOut('"vault-token" did not finish within 30000 ms'),
        'The credential command "vault-token" did not finish within 30 s: it was stopped, with ' +
        "what it started",
      ],
      [
        new RangeError('"vault-token" printed more than 65536 bytes on stdout'),
        'The credential command "vault-token" printed more than 64 KiB on stdout: it was stopped',
      ],
    ] as const
  ) {
    const failing = createTestContext({ run: () => Promise.reject(error) });
    await assert.rejects(
      new CommandProvider(failing).resolveToken(commandSpec()),
      (e) => e instanceof CredentialProviderError && !e.blocking && e.message === message,
    );
  }
});

Deno.test("CommandProvider refuses a credential_command that is not a list of strings", async () => {
  for (const command of ["vault-token", [], ["vault-token", 3], { program: "x" }]) {
    const ctx = createTestContext();
    // A hand-edited file can hold any JSON there.
    const text = JSON.stringify({ apps: { default: { credential_command: command } } });
    const bad: TokenSpec = { ...spec, config: parseConfig(text, "/c.json") };
    await assert.rejects(new CommandProvider(ctx).resolveToken(bad), (e: unknown) => {
      assert.ok(e instanceof CredentialProviderError, String(e));
      assert.equal(e.blocking, true);
      assert.equal(e.code, 3);
      assert.match(
        e.message,
        /Invalid apps\.default\.credential_command: expected a list of strings/,
      );
      return true;
    });
    assert.equal(ctx.runs.length, 0, JSON.stringify(command));
  }
});

Deno.test("CommandProvider is skipped when no command is configured or for the bot", async () => {
  const ctx = createTestContext();
  assert.equal(await new CommandProvider(ctx).resolveToken(spec), undefined);
  assert.equal(
    await new CommandProvider(ctx).resolveToken({ ...commandSpec(), identity: "bot" }),
    undefined,
  );
  assert.equal(ctx.runs.length, 0);
});
