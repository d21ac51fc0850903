import assert from "node:assert/strict";
import type { RunOptions, RunResult } from "../context.ts";
import { createTestContext } from "../../tests/support/test_context.ts";
import {
  assertNoSecretInArgv,
  notFoundError,
  scriptedRun,
} from "../../tests/support/scripted_run.ts";
import { KeychainError } from "./keychain.ts";
import { MacosKeychain, parseDumpKeychain } from "./macos_keychain.ts";

// Messages and exit codes as /usr/bin/security prints them (macOS 14).
const NOT_FOUND =
  "security: SecKeychainSearchCopyNext: The specified item could not be found in the keychain.\n";
const INTERACTION = "security: SecKeychainItemCopyContent: User interaction is not allowed.\n";
const NO_DEFAULT = "security: SecKeychainCopyDefault: A default keychain could not be found.\n";

const DUMP_ITEM = (service: string, account: string) =>
  `keychain: "/Users/runner/Library/Keychains/login.keychain-db"
version: 512
class: "genp"
attributes:
    0x00000007 <blob>="${service}"
    0x00000008 <blob>=<NULL>
    "acct"<blob>="${account}"
    "cdat"<timedate>=0x32303236313132313039303030305A00  "20261121090000Z\\000"
    "crtr"<uint32>=<NULL>
    "icmt"<blob>=<NULL>
    "labl"<blob>="${service}"
    "mdat"<timedate>=0x32303236313132313039303030305A00  "20261121090000Z\\000"
    "svce"<blob>="${service}"
    "type"<uint32>=<NULL>
`;
const DUMP_INET = `keychain: "/Users/runner/Library/Keychains/login.keychain-db"
version: 512
class: "inet"
attributes:
    "acct"<blob>="default/app_secret"
    "srvr"<blob>="hark"
    "svce"<blob>="hark"
`;

/**
 * A stand-in for `/usr/bin/security` with an in-memory keychain: the same interactive line
 * parser (4 096-byte lines, double quotes, backslash escapes), messages and exit codes, and the
 * hex output of `-w` for values that are not printable ASCII.
 */
class FakeSecurity {
  readonly items = new Map<string, string>();
  /** The raw bytes of the longest `-i` line seen. */
  longestLine = 0;

  run = (cmd: string, args: string[], options: RunOptions): Promise<RunResult> => {
    assert.equal(cmd, "/usr/bin/security");
    if (args[0] !== "-i") return Promise.resolve(this.#command(args));
    assert.equal(args.length, 1);
    let stdout = "";
    let stderr = "";
    let code = 0;
    const input = options.stdin as string;
    for (const raw of input.split("\n").filter((l) => l !== "")) {
      this.longestLine = Math.max(this.longestLine, new TextEncoder().encode(raw).length + 1);
      // fgets(buffer, 4096): a longer line is cut, and its rest runs as a command of its own.
      const lines = raw.length + 1 > 4095 ? [raw.slice(0, 4095), raw.slice(4095)] : [raw];
      for (const line of lines) {
        const argv = splitLine(line);
        const result = this.#command(argv);
        stdout += result.stdout;
        stderr += result.stderr;
        code = result.code;
        if (code !== 0) stderr += `${argv[0]}: returned ${code}\n`;
      }
    }
    return Promise.resolve({ code, stdout, stderr });
  };

  #command(argv: string[]): RunResult {
    const [name, ...rest] = argv;
    const flags = parseFlags(rest);
    if (name === "find-generic-password") {
      const value = this.items.get(flags.a);
      if (value === undefined) return { code: 44, stdout: "", stderr: NOT_FOUND };
      const printable = /^[\x20-\x7e]*$/.test(value);
      const shown = printable ? value : new TextEncoder().encode(value).toHex();
      return { code: 0, stdout: `${shown}\n`, stderr: "" };
    }
    if (name === "add-generic-password") {
      assert.equal(flags.s, "hark");
      if (!("U" in flags) && this.items.has(flags.a)) {
        return {
          code: 45,
          stdout: "",
          stderr: "security: SecKeychainItemCreateFromContent (<default>): The specified item " +
            "already exists in the keychain.\n",
        };
      }
      this.items.set(flags.a, flags.w);
      return { code: 0, stdout: "", stderr: "" };
    }
    if (name === "delete-generic-password") {
      if (!this.items.delete(flags.a)) return { code: 44, stdout: "", stderr: NOT_FOUND };
      return {
        code: 0,
        stdout: DUMP_ITEM("hark", flags.a) + "password has been deleted.\n",
        stderr: "",
      };
    }
    if (name === "dump-keychain") {
      const blocks = [...this.items.keys()].map((a) => DUMP_ITEM("hark", a));
      return { code: 0, stdout: DUMP_ITEM("other", "x") + blocks.join("") + DUMP_INET, stderr: "" };
    }
    return { code: 1, stdout: "", stderr: `security: unknown command "${name}"\n` };
  }
}

/** The `split_line` parser of SecurityTool's interactive mode. */
function splitLine(line: string): string[] {
  const args: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (i < line.length && /\s/.test(line[i])) i++;
    if (i >= line.length) break;
    let arg = "";
    const quote = line[i] === '"' || line[i] === "'" ? line[i++] : undefined;
    while (i < line.length) {
      const ch = line[i];
      if (ch === "\\") {
        arg += line[i + 1] ?? "";
        i += 2;
        continue;
      }
      if (quote ? ch === quote : /\s/.test(ch)) {
        i++;
        break;
      }
      arg += ch;
      i++;
    }
    args.push(arg);
  }
  return args;
}

function parseFlags(args: string[]): Record<string, string> {
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const flag = args[i].slice(1);
    if (flag === "U" || flag === "w" && args[i + 1] === undefined) flags[flag] = "";
    else flags[flag] = args[++i];
  }
  return flags;
}

const VALUES: Record<string, string> = {
  "hark/default/app_secret": 'plain-ascii $ecret with spaces and "quotes" and \\',
  "hark/default/user_token": "ünïcødé 密钥 🔑",
  "hark/work/app_secret": "line one\nline two\n",
  "hark/work/user_token": "x".repeat(4096),
  "hark/big/user_token": "ü".repeat(20_000),
  "hark/empty/app_secret": "",
  "hark/tricky/app_secret": "hark-base64:not really",
};

Deno.test("MacosKeychain round-trips secrets byte for byte through security", async () => {
  const security = new FakeSecurity();
  const ctx = createTestContext({ run: security.run });
  const keychain = new MacosKeychain(ctx);
  for (const [path, secret] of Object.entries(VALUES)) await keychain.set(path, secret);
  for (const [path, secret] of Object.entries(VALUES)) {
    assert.equal(await keychain.get(path), secret, path);
  }
  assert.deepEqual(await keychain.list(), Object.keys(VALUES).sort());
  assert.ok(security.longestLine < 4096, `longest line ${security.longestLine}`);
  assert.ok(security.items.has("big/user_token#2"), "long values are split");
  assert.equal(security.items.get("default/app_secret"), VALUES["hark/default/app_secret"]);
  assertNoSecretInArgv(ctx.runs, Object.values(VALUES));
  for (const run of ctx.runs) assert.equal(run.options.timeoutMs, 10_000);
});

Deno.test("MacosKeychain updates in place and removes the parts of a longer old value", async () => {
  const security = new FakeSecurity();
  const keychain = new MacosKeychain(createTestContext({ run: security.run }));
  await keychain.set("hark/default/user_token", "a".repeat(10_000));
  assert.ok(security.items.has("default/user_token#4"));
  await keychain.set("hark/default/user_token", "short");
  assert.deepEqual([...security.items.keys()], ["default/user_token"]);
  assert.equal(await keychain.get("hark/default/user_token"), "short");
  assert.equal(await keychain.delete("hark/default/user_token"), true);
  assert.equal(await keychain.delete("hark/default/user_token"), false);
  await keychain.set("hark/default/user_token", "b".repeat(10_000));
  assert.equal(await keychain.delete("hark/default/user_token"), true);
  assert.equal(security.items.size, 0);
});

Deno.test("MacosKeychain.set() writes through security -i with the secret on stdin only", async () => {
  const secret = 'pa ss"w\\rd';
  const runner = scriptedRun([
    {
      cmd: "/usr/bin/security",
      args: ["find-generic-password", "-s", "hark", "-a", "default/app_secret", "-w"],
      result: { code: 44, stderr: NOT_FOUND },
    },
    {
      cmd: "/usr/bin/security",
      args: ["-i"],
      stdin: '"add-generic-password" "-U" "-s" "hark" "-a" "default/app_secret" "-l" ' +
        '"hark/default/app_secret" "-w" "pa ss\\"w\\\\rd"\n',
    },
  ]);
  const ctx = createTestContext({ run: runner.run });
  await new MacosKeychain(ctx).set("hark/default/app_secret", secret);
  runner.verify();
  assertNoSecretInArgv(ctx.runs, [secret]);
  assert.deepEqual(splitLine(ctx.runs[1].options.stdin as string).at(-1), secret);
});

Deno.test("MacosKeychain.get() reads with find-generic-password -w and strips one newline", async () => {
  const runner = scriptedRun([{
    cmd: "/usr/bin/security",
    args: ["find-generic-password", "-s", "hark", "-a", "default/app_secret", "-w"],
    result: { stdout: "s3cret \n" },
  }]);
  const keychain = new MacosKeychain(createTestContext({ run: runner.run }));
  assert.equal(await keychain.get("hark/default/app_secret"), "s3cret ");
  runner.verify();
});

Deno.test("MacosKeychain maps security's errors to clear keychain errors", async () => {
  const cases: [Partial<RunResult>, RegExp][] = [
    [{ code: 36, stderr: INTERACTION }, /the keychain is locked and cannot prompt here/],
    [{ code: 37, stderr: NO_DEFAULT }, /there is no default keychain/],
    [
      {
        code: 51,
        stderr: "security: SecKeychainItemCopyContent: The user name or passphrase you entered " +
          "is not correct.\n",
      },
      /access was denied/,
    ],
    [{ code: 1, stderr: "security: odd\n" }, /security exited with code 1: security: odd/],
  ];
  for (const [result, message] of cases) {
    const runner = scriptedRun([{
      cmd: "/usr/bin/security",
      args: ["find-generic-password", "-s", "hark", "-a", "default/app_secret", "-w"],
      result,
    }]);
    const keychain = new MacosKeychain(createTestContext({ run: runner.run }));
    await assert.rejects(() => keychain.get("hark/default/app_secret"), (error) => {
      assert.ok(error instanceof KeychainError, String(error));
      assert.equal(error.backend, "macos");
      assert.match(error.message, /^Cannot read "hark\/default\/app_secret" in the macos keychain/);
      assert.match(error.message, message);
      assert.match(error.recovery.suggestion, /HARK_KEYCHAIN=file/);
      return true;
    });
  }
  const missing = scriptedRun([{
    cmd: "/usr/bin/security",
    args: ["dump-keychain"],
    error: notFoundError("/usr/bin/security"),
  }]);
  await assert.rejects(
    () => new MacosKeychain(createTestContext({ run: missing.run })).list(),
    /Cannot use the macos keychain: "\/usr\/bin\/security" was not found/,
  );
});

Deno.test("MacosKeychain.set() refuses values over 64 KiB without running security", async () => {
  const ctx = createTestContext({ run: new FakeSecurity().run });
  await assert.rejects(
    () => new MacosKeychain(ctx).set("hark/x", "x".repeat(64 * 1024 + 1)),
    /the value has 65537 bytes, more than the 65536 hark stores/,
  );
  assert.equal(ctx.runs.length, 0);
});

Deno.test("parseDumpKeychain() keeps hark's generic passwords, not parts or other items", () => {
  const dump = DUMP_ITEM("hark", "default/app_secret") + DUMP_ITEM("hark", "default/token#2") +
    DUMP_ITEM("other", "default/x") + DUMP_INET + DUMP_ITEM("hark", "work/user_token");
  assert.deepEqual(parseDumpKeychain(dump), ["hark/default/app_secret", "hark/work/user_token"]);
  assert.deepEqual(parseDumpKeychain(""), []);
});
