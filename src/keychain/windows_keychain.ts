/**
 * The Windows keychain: the Credential Manager (generic credentials, target `hark/<path after
 * hark/>`, that is the full keychain path) through PowerShell calling `CredWriteW`, `CredReadW`,
 * `CredDeleteW` and `CredEnumerateW`.
 *
 * PowerShell runs a fixed script (passed with `-EncodedCommand`; it holds no secret) that reads
 * its operations from stdin, one a line, and answers one line per operation on stdout:
 *
 * | stdin line | stdout line |
 * |---|---|
 * | `read <target>` | `ok <blob base64 or -> <comment or ->` or `err <win32 code>` |
 * | `write <target> <comment or -> <blob base64 or ->` | `ok` or `err <win32 code>` |
 * | `delete <target>` | `ok` or `err <win32 code>` |
 * | `enum <filter>` | `ok <target> <target> …` or `err <win32 code>` |
 *
 * Secrets are stored as UTF-8 bytes. A credential blob holds at most 2 560 bytes, so a longer
 * value is split: the main credential holds the first 2 560 bytes with the comment
 * `hark:parts=<n>`, and the credentials `<target>#2` … `<target>#<n>` hold the rest. Values over
 * {@link WINDOWS_MAX_SECRET_BYTES} are refused with a clear error; nothing is ever truncated.
 *
 * @module
 */

import type { Context, RunResult } from "../context.ts";
import { runTool } from "./_run_tool.ts";
import {
  checkKeychainPath,
  firstLine,
  type Keychain,
  KeychainError,
  WAYS_OUT,
} from "./keychain.ts";

const BACKEND = "windows";
const POWERSHELL = "powershell.exe";
const INSTALL = "Windows PowerShell 5.1 (powershell.exe on the PATH)";
/** `CRED_MAX_CREDENTIAL_BLOB_SIZE`: the largest blob of one credential. */
export const CREDENTIAL_BLOB_LIMIT = 2_560;
/** The most parts one secret is split into. */
const MAX_PARTS = 26;
/** The largest secret, in UTF-8 bytes. */
export const WINDOWS_MAX_SECRET_BYTES = CREDENTIAL_BLOB_LIMIT * MAX_PARTS;
const PARTS_COMMENT = /^hark:parts=(\d+)$/;
const ERROR_NOT_FOUND = 1168;
const ERROR_NO_SUCH_LOGON_SESSION = 1312;

/**
 * The fixed PowerShell script. It contains no secret: the operations and the secrets arrive on
 * stdin.
 */
export const WINDOWS_SCRIPT = `$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
Add-Type -TypeDefinition @'
using System;
using System.Runtime.InteropServices;
using System.Text;
public static class HarkCredentials {
  [StructLayout(LayoutKind.Sequential, CharSet = CharSet.Unicode)]
  public struct CREDENTIAL {
    public int Flags;
    public int Type;
    public string TargetName;
    public string Comment;
    public System.Runtime.InteropServices.ComTypes.FILETIME LastWritten;
    public int CredentialBlobSize;
    public IntPtr CredentialBlob;
    public int Persist;
    public int AttributeCount;
    public IntPtr Attributes;
    public string TargetAlias;
    public string UserName;
  }
  [DllImport("advapi32.dll", CharSet = CharSet.Unicode, SetLastError = true)]
  static extern bool CredWriteW(ref CREDENTIAL credential, int flags);
  [DllImport("advapi32.dll", CharSet = CharSet.Unicode, SetLastError = true)]
  static extern bool CredReadW(string target, int type, int flags, out IntPtr credential);
  [DllImport("advapi32.dll", CharSet = CharSet.Unicode, SetLastError = true)]
  static extern bool CredDeleteW(string target, int type, int flags);
  [DllImport("advapi32.dll", CharSet = CharSet.Unicode, SetLastError = true)]
  static extern bool CredEnumerateW(string filter, int flags, out int count, out IntPtr list);
  [DllImport("advapi32.dll")]
  static extern void CredFree(IntPtr buffer);
  static string Failed() { return "err " + Marshal.GetLastWin32Error(); }
  static string Token(string text) { return String.IsNullOrEmpty(text) ? "-" : text; }
  public static string Run(string line) {
    string[] f = line.Split(' ');
    if (f[0] == "read") return Read(f[1]);
    if (f[0] == "write") return Write(f[1], f[2], f[3]);
    if (f[0] == "delete") return CredDeleteW(f[1], 1, 0) ? "ok" : Failed();
    if (f[0] == "enum") return Enumerate(f[1]);
    return "err 87";
  }
  static string Read(string target) {
    IntPtr p;
    if (!CredReadW(target, 1, 0, out p)) return Failed();
    try {
      CREDENTIAL c = (CREDENTIAL)Marshal.PtrToStructure(p, typeof(CREDENTIAL));
      byte[] blob = new byte[c.CredentialBlobSize];
      if (blob.Length > 0) Marshal.Copy(c.CredentialBlob, blob, 0, blob.Length);
      return "ok " + Token(Convert.ToBase64String(blob)) + " " + Token(c.Comment);
    } finally { CredFree(p); }
  }
  static string Write(string target, string comment, string data) {
    byte[] blob = data == "-" ? new byte[0] : Convert.FromBase64String(data);
    CREDENTIAL c = new CREDENTIAL();
    c.Type = 1;
    c.TargetName = target;
    c.Comment = comment == "-" ? null : comment;
    c.CredentialBlobSize = blob.Length;
    c.CredentialBlob = Marshal.AllocHGlobal(Math.Max(blob.Length, 1));
    c.Persist = 2;
    c.UserName = "hark";
    try {
      Marshal.Copy(blob, 0, c.CredentialBlob, blob.Length);
      return CredWriteW(ref c, 0) ? "ok" : Failed();
    } finally { Marshal.FreeHGlobal(c.CredentialBlob); }
  }
  static string Enumerate(string filter) {
    int count;
    IntPtr list;
    if (!CredEnumerateW(filter, 0, out count, out list)) {
      int code = Marshal.GetLastWin32Error();
      return code == 1168 ? "ok" : "err " + code;
    }
    try {
      StringBuilder answer = new StringBuilder("ok");
      for (int i = 0; i < count; i++) {
        IntPtr item = Marshal.ReadIntPtr(list, i * IntPtr.Size);
        CREDENTIAL c = (CREDENTIAL)Marshal.PtrToStructure(item, typeof(CREDENTIAL));
        answer.Append(' ').Append(c.TargetName);
      }
      return answer.ToString();
    } finally { CredFree(list); }
  }
}
'@
$answer = New-Object System.Text.StringBuilder
foreach ($line in [Console]::In.ReadToEnd().Split([char]10)) {
  $line = $line.Trim()
  if ($line -ne '') { [void]$answer.Append([HarkCredentials]::Run($line)).Append([char]10) }
}
[Console]::Out.Write($answer.ToString())
`;

let windowsArgsMade: readonly string[] | undefined;

/**
 * The arguments of every PowerShell call: fixed, with no secret in them. Made on first use:
 * encoding the script costs a few milliseconds, which loading this module (on every system,
 * when the bundle puts it beside code others use) must not.
 */
export function windowsArgs(): string[] {
  windowsArgsMade ??= [
    "-NoLogo",
    "-NoProfile",
    "-NonInteractive",
    "-ExecutionPolicy",
    "Bypass",
    "-EncodedCommand",
    encodeCommand(WINDOWS_SCRIPT),
  ];
  return [...windowsArgsMade];
}

/** Options of {@link WindowsKeychain}. */
export interface WindowsKeychainOptions {
  /** Milliseconds before a PowerShell call is abandoned; default 20 000 (it compiles C#). */
  timeoutMs?: number;
}

/** The answer to one operation line. */
type Answer = { ok: true; fields: string[] } | { ok: false; code: number };

/**
 * A {@link Keychain} on the Windows Credential Manager, through PowerShell.
 *
 * @example
 * ```ts
 * const keychain = new WindowsKeychain(ctx);
 * await keychain.set("hark/default/app_secret", "s3cret");
 * ```
 */
export class WindowsKeychain implements Keychain {
  /** The backend's name. */
  readonly backend = BACKEND;
  readonly #ctx: Context;
  readonly #timeoutMs: number;

  /**
   * Creates the keychain; nothing runs until the first call.
   *
   * @param ctx the context whose `run` starts PowerShell
   * @param options timeout
   */
  constructor(ctx: Context, options: WindowsKeychainOptions = {}) {
    this.#ctx = ctx;
    this.#timeoutMs = options.timeoutMs ?? 20_000;
  }

  /** {@inheritDoc Keychain.get} */
  async get(path: string): Promise<string | undefined> {
    const target = checkKeychainPath(path);
    const answers = await this.#call("read", path, [
      `read ${target}`,
      ...partTargets(target, MAX_PARTS).map((t) => `read ${t}`),
    ]);
    const main = answers[0];
    if (!main.ok) {
      if (main.code === ERROR_NOT_FOUND) return undefined;
      throw win32Failure("read", path, main.code);
    }
    const count = Number(PARTS_COMMENT.exec(main.fields[1] ?? "")?.[1] ?? 1);
    const chunks = [fromToken(main.fields[0])];
    for (let i = 1; i < count; i++) {
      const part = answers[i];
      if (!part?.ok) {
        throw new KeychainError(
          BACKEND,
          `Cannot read "${path}" from the windows keychain: part ${i + 1} of ${count} is missing`,
          { suggestion: "Store the secret again" },
        );
      }
      chunks.push(fromToken(part.fields[0]));
    }
    const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    return new TextDecoder().decode(bytes);
  }

  /** {@inheritDoc Keychain.set} */
  async set(path: string, secret: string): Promise<void> {
    const target = checkKeychainPath(path);
    const bytes = new TextEncoder().encode(secret);
    if (bytes.length > WINDOWS_MAX_SECRET_BYTES) {
      throw new KeychainError(
        BACKEND,
        `Cannot write "${path}" to the windows keychain: the value has ${bytes.length} bytes, ` +
          `more than the ${WINDOWS_MAX_SECRET_BYTES} hark stores ` +
          `(${MAX_PARTS} credentials of ${CREDENTIAL_BLOB_LIMIT} bytes)`,
        { suggestion: "Store a shorter value" },
      );
    }
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += CREDENTIAL_BLOB_LIMIT) {
      chunks.push(bytes.subarray(i, i + CREDENTIAL_BLOB_LIMIT));
    }
    if (chunks.length === 0) chunks.push(bytes);
    const targets = [target, ...partTargets(target, chunks.length)];
    const comment = chunks.length > 1 ? `hark:parts=${chunks.length}` : "-";
    // Parts first, the main credential last; then the parts of a longer previous value go.
    const writes = targets.map((t, i) =>
      `write ${t} ${i === 0 ? comment : "-"} ${toToken(chunks[i])}`
    )
      .reverse();
    const stale = partTargets(target, MAX_PARTS).slice(chunks.length - 1).map((t) => `delete ${t}`);
    const answers = await this.#call("write", path, [...writes, ...stale]);
    for (const answer of answers.slice(0, writes.length)) {
      if (!answer.ok) throw win32Failure("write", path, answer.code);
    }
  }

  /** {@inheritDoc Keychain.delete} */
  async delete(path: string): Promise<boolean> {
    const target = checkKeychainPath(path);
    const answers = await this.#call("delete", path, [
      `delete ${target}`,
      ...partTargets(target, MAX_PARTS).map((t) => `delete ${t}`),
    ]);
    const main = answers[0];
    if (main.ok) return true;
    if (main.code === ERROR_NOT_FOUND) return false;
    throw win32Failure("delete", path, main.code);
  }

  /** {@inheritDoc Keychain.list} */
  async list(): Promise<string[]> {
    const [answer] = await this.#call("list", "hark/", ["enum hark/*"]);
    if (!answer.ok) throw win32Failure("list", "hark/", answer.code);
    return parseTargets(answer.fields);
  }

  async #call(action: string, path: string, lines: string[]): Promise<Answer[]> {
    const result = await runTool(this.#ctx, POWERSHELL, windowsArgs(), {
      backend: BACKEND,
      stdin: lines.join("\n") + "\n",
      timeoutMs: this.#timeoutMs,
      install: INSTALL,
    });
    const answers = result.code === 0 ? parseAnswers(result.stdout) : [];
    if (answers.length !== lines.length) throw scriptFailure(action, path, result);
    return answers;
  }
}

/**
 * The answers of the PowerShell script, one per non-empty stdout line.
 *
 * @param stdout the script's standard output
 * @returns `ok` with its fields, or `err` with the Win32 error code
 */
export function parseAnswers(stdout: string): Answer[] {
  return stdout.split(/\r?\n/).filter((l) => l.trim() !== "").map((line) => {
    const [status, ...fields] = line.trim().split(" ");
    if (status === "ok") return { ok: true, fields };
    return { ok: false, code: Number(fields[0]) };
  });
}

/**
 * The keychain paths among credential targets: those that are keychain paths, without the part
 * credentials of split values.
 */
export function parseTargets(targets: string[]): string[] {
  const paths = new Set<string>();
  for (const target of targets) {
    try {
      paths.add(checkKeychainPath(target));
    } catch {
      // Another program's credential, or a part of a split value.
    }
  }
  return [...paths].sort();
}

/** The UTF-16LE base64 form PowerShell's `-EncodedCommand` takes. */
export function encodeCommand(script: string): string {
  const bytes = new Uint8Array(script.length * 2);
  for (let i = 0; i < script.length; i++) {
    const code = script.charCodeAt(i);
    bytes[2 * i] = code & 0xff;
    bytes[2 * i + 1] = code >> 8;
  }
  return bytes.toBase64();
}

function partTargets(target: string, count: number): string[] {
  const targets: string[] = [];
  for (let i = 2; i <= count; i++) targets.push(`${target}#${i}`);
  return targets;
}

function toToken(bytes: Uint8Array): string {
  return bytes.length === 0 ? "-" : bytes.toBase64();
}

function fromToken(token: string | undefined): Uint8Array {
  return token === undefined || token === "-" ? new Uint8Array(0) : Uint8Array.fromBase64(token);
}

function win32Failure(action: string, path: string, code: number): KeychainError {
  const where = `Cannot ${action} "${path}" in the windows keychain (Credential Manager)`;
  if (code === ERROR_NO_SUCH_LOGON_SESSION) {
    return new KeychainError(
      BACKEND,
      `${where}: this session has no Credential Manager (error 1312, no logon session; ` +
        "common over SSH and in services)",
      { suggestion: `Run hark in an interactive sign-in session, ${WAYS_OUT}` },
    );
  }
  if (code === 5) {
    return new KeychainError(BACKEND, `${where}: access denied (error 5)`, {
      suggestion: `Check the Credential Manager's permissions, ${WAYS_OUT}`,
    });
  }
  return new KeychainError(BACKEND, `${where}: Win32 error ${code}`);
}

function scriptFailure(action: string, path: string, result: RunResult): KeychainError {
  const detail = firstLine(
    result.stderr.replace(/^#< CLIXML\s*$/m, "").replace(/<[^>]+>/g, " "),
    `exit code ${result.code}`,
  );
  return new KeychainError(
    BACKEND,
    `Cannot ${action} "${path}" in the windows keychain (Credential Manager): PowerShell ` +
      `exited with code ${result.code}: ${detail}`,
  );
}
