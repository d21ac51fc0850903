import assert from "node:assert/strict";
import type { RunOptions, RunResult } from "../context.ts";
import { createTestContext } from "../../tests/support/test_context.ts";
import {
  assertNoSecretInArgv,
  scriptedRun,
  timedOutError,
} from "../../tests/support/scripted_run.ts";
import { KeychainError } from "./keychain.ts";
import {
  CREDENTIAL_BLOB_LIMIT,
  encodeCommand,
  parseAnswers,
  parseTargets,
  WINDOWS_SCRIPT,
  windowsArgs,
  WindowsKeychain,
} from "./windows_keychain.ts";

// What Windows PowerShell 5.1 prints on stderr when its output is redirected: a progress record.
const CLIXML_NOISE = '#< CLIXML\r\n<Objs Version="1.1.0.1" ' +
  'xmlns="http://schemas.microsoft.com/powershell/2004/04"><Obj S="progress" RefId="0">' +
  '<TN RefId="0"><T>System.Management.Automation.PSCustomObject</T></TN><MS>' +
  '<S N="Activity">Preparing modules for first use.</S></MS></Obj></Objs>\r\n';
// What it prints when Add-Type cannot compile (here: no .NET compiler in a locked-down image).
const ADD_TYPE_FAILURE = "Add-Type : Cannot add type. Compilation errors occurred.\r\n" +
  "At line:3 char:1\r\n+ Add-Type -TypeDefinition @'\r\n+ ~~~~~~~~~~~~~~~~~~~~~~~~~~~\r\n" +
  "    + CategoryInfo          : InvalidData: (:) [Add-Type], InvalidOperationException\r\n" +
  "    + FullyQualifiedErrorId : COMPILER_ERRORS,Microsoft.PowerShell.Commands.AddTypeCommand\r\n";

/**
 * A stand-in for `powershell.exe` running {@link WINDOWS_SCRIPT}: a credential store that, like
 * the Credential Manager, refuses blobs over 2 560 bytes, answers `CRLF` lines, and prints
 * PowerShell's CLIXML progress noise on stderr.
 */
class FakePowerShell {
  readonly credentials = new Map<string, { blob: Uint8Array; comment: string }>([
    ["harkless/other", { blob: new Uint8Array([1]), comment: "-" }],
    ["git:https://github.com", { blob: new Uint8Array([2]), comment: "-" }],
  ]);
  /** Set to a Win32 code to fail every operation with it. */
  failWith: number | undefined;

  run = (cmd: string, args: string[], options: RunOptions): Promise<RunResult> => {
    assert.equal(cmd, "powershell.exe");
    assert.deepEqual(args, windowsArgs());
    const answers: string[] = [];
    for (const line of (options.stdin as string).split("\n").filter((l) => l !== "")) {
      answers.push(this.failWith ? `err ${this.failWith}` : this.#operation(line.split(" ")));
    }
    return Promise.resolve({
      code: 0,
      stdout: answers.map((a) => `${a}\r\n`).join(""),
      stderr: CLIXML_NOISE,
    });
  };

  #operation([op, target, ...rest]: string[]): string {
    if (op === "read") {
      const found = this.credentials.get(target);
      if (!found) return "err 1168";
      return `ok ${found.blob.length ? found.blob.toBase64() : "-"} ${found.comment}`;
    }
    if (op === "write") {
      const blob = rest[1] === "-" ? new Uint8Array(0) : Uint8Array.fromBase64(rest[1]);
      if (blob.length > 2560) return "err 87";
      this.credentials.set(target, { blob, comment: rest[0] });
      return "ok";
    }
    if (op === "delete") return this.credentials.delete(target) ? "ok" : "err 1168";
    if (op === "enum") {
      const prefix = target.slice(0, -1);
      const names = [...this.credentials.keys()].filter((n) => n.startsWith(prefix));
      return ["ok", ...names].join(" ");
    }
    return "err 87";
  }
}

const VALUES: Record<string, string> = {
  "hark/default/app_secret": "plain",
  "hark/default/user_token": "ünïcødé 密钥 🔑 \"quotes\" 'single' $env:PATH `tick`",
  "hark/work/app_secret": "line one\r\nline two\n",
  "hark/work/user_token": "y".repeat(4096),
  "hark/big/user_token": "€".repeat(10_000),
  "hark/edge/user_token": "z".repeat(CREDENTIAL_BLOB_LIMIT),
  "hark/empty/app_secret": "",
};

Deno.test("WindowsKeychain round-trips secrets byte for byte, splitting long ones", async () => {
  const powershell = new FakePowerShell();
  const ctx = createTestContext({ run: powershell.run, os: "windows" });
  const keychain = new WindowsKeychain(ctx);
  for (const [path, secret] of Object.entries(VALUES)) await keychain.set(path, secret);
  for (const [path, secret] of Object.entries(VALUES)) {
    assert.equal(await keychain.get(path), secret, path);
  }
  assert.deepEqual(await keychain.list(), Object.keys(VALUES).sort());
  assert.equal(powershell.credentials.get("hark/work/user_token")?.comment, "hark:parts=2");
  assert.ok(powershell.credentials.has("hark/big/user_token#12"));
  assert.equal(powershell.credentials.get("hark/edge/user_token")?.comment, "-");
  assertNoSecretInArgv(ctx.runs, Object.values(VALUES));
  for (const run of ctx.runs) assert.equal(run.options.timeoutMs, 20_000);
});

Deno.test("WindowsKeychain removes the parts of a longer old value and deletes all", async () => {
  const powershell = new FakePowerShell();
  const keychain = new WindowsKeychain(createTestContext({ run: powershell.run }));
  await keychain.set("hark/default/user_token", "a".repeat(6000));
  assert.ok(powershell.credentials.has("hark/default/user_token#3"));
  await keychain.set("hark/default/user_token", "short");
  assert.ok(!powershell.credentials.has("hark/default/user_token#2"));
  assert.equal(await keychain.get("hark/default/user_token"), "short");
  await keychain.set("hark/default/user_token", "b".repeat(6000));
  assert.equal(await keychain.delete("hark/default/user_token"), true);
  assert.equal(await keychain.delete("hark/default/user_token"), false);
  assert.deepEqual([...powershell.credentials.keys()], [
    "harkless/other",
    "git:https://github.com",
  ]);
  assert.equal(await keychain.get("hark/default/user_token"), undefined);
});

Deno.test("WindowsKeychain.set() sends the exact operations on stdin, the secret only there", async () => {
  const secret = "s3cret ü";
  const blob = new TextEncoder().encode(secret).toBase64();
  const deletes = Array.from({ length: 25 }, (_, i) => `delete hark/default/app_secret#${i + 2}`);
  const runner = scriptedRun([{
    cmd: "powershell.exe",
    args: windowsArgs(),
    stdin: [`write hark/default/app_secret - ${blob}`, ...deletes].join("\n") + "\n",
    result: { stdout: ["ok", ...deletes.map(() => "err 1168")].join("\r\n") + "\r\n" },
  }]);
  const ctx = createTestContext({ run: runner.run });
  await new WindowsKeychain(ctx).set("hark/default/app_secret", secret);
  runner.verify();
  assertNoSecretInArgv(ctx.runs, [secret]);
});

Deno.test("windowsArgs() pass the fixed script encoded, never -Command with data", () => {
  assert.deepEqual(windowsArgs().slice(0, 6), [
    "-NoLogo",
    "-NoProfile",
    "-NonInteractive",
    "-ExecutionPolicy",
    "Bypass",
    "-EncodedCommand",
  ]);
  const bytes = Uint8Array.fromBase64(windowsArgs()[6]);
  assert.equal(new TextDecoder("utf-16le").decode(bytes), WINDOWS_SCRIPT);
  assert.equal(encodeCommand("ab"), "YQBiAA==");
  for (const api of ["CredWriteW", "CredReadW", "CredDeleteW", "CredEnumerateW", "[Console]::In"]) {
    assert.ok(WINDOWS_SCRIPT.includes(api), api);
  }
});

Deno.test("WindowsKeychain maps Win32 errors to clear keychain errors", async () => {
  const powershell = new FakePowerShell();
  powershell.failWith = 1312;
  const keychain = new WindowsKeychain(createTestContext({ run: powershell.run }));
  await assert.rejects(() => keychain.get("hark/default/app_secret"), (error) => {
    assert.ok(error instanceof KeychainError, String(error));
    assert.equal(error.backend, "windows");
    assert.match(error.message, /^Cannot read "hark\/default\/app_secret" in the windows keychain/);
    assert.match(error.message, /no Credential Manager \(error 1312/);
    assert.match(error.recovery.suggestion, /HARK_KEYCHAIN=file/);
    return true;
  });
  powershell.failWith = 5;
  await assert.rejects(() => keychain.list(), /access denied \(error 5\)/);
  powershell.failWith = 1783;
  await assert.rejects(() => keychain.delete("hark/x"), /Win32 error 1783/);
});

Deno.test("WindowsKeychain reports a failing PowerShell and a hang clearly", async () => {
  const failing = scriptedRun([{
    cmd: "powershell.exe",
    args: windowsArgs(),
    stdin: "enum hark/*\n",
    result: { code: 1, stderr: ADD_TYPE_FAILURE },
  }]);
  await assert.rejects(
    () => new WindowsKeychain(createTestContext({ run: failing.run })).list(),
    /PowerShell exited with code 1: Add-Type : Cannot add type\. Compilation errors occurred\./,
  );
  const hung = scriptedRun([{
    cmd: "powershell.exe",
    args: windowsArgs(),
    stdin: "enum hark/*\n",
    error: timedOutError("powershell.exe", 20_000),
  }]);
  await assert.rejects(
    () => new WindowsKeychain(createTestContext({ run: hung.run })).list(),
    /"powershell.exe" did not answer within 20 s/,
  );
});

Deno.test("WindowsKeychain.set() refuses values it cannot store, never truncating", async () => {
  const ctx = createTestContext({ run: new FakePowerShell().run });
  await assert.rejects(
    () => new WindowsKeychain(ctx).set("hark/x", "x".repeat(26 * 2560 + 1)),
    /the value has 66561 bytes, more than the 66560 hark stores \(26 credentials of 2560 bytes\)/,
  );
  assert.equal(ctx.runs.length, 0);
});

Deno.test("parseAnswers() and parseTargets() read the script's lines", () => {
  assert.deepEqual(parseAnswers("ok\r\nerr 1168\r\nok YQ== -\r\n"), [
    { ok: true, fields: [] },
    { ok: false, code: 1168 },
    { ok: true, fields: ["YQ==", "-"] },
  ]);
  assert.deepEqual(parseTargets(["hark/b", "hark/a#2", "hark/a", "other"]), ["hark/a", "hark/b"]);
});
