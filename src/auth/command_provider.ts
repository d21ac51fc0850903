/**
 * The `command` credential provider: `apps.<profile>.credential_command` (program and
 * arguments) prints `{"access_token": "...", "expires_at": ...}` on stdout, like AWS
 * `credential_process`. The program failing is an ordinary error (the next provider tries); a
 * malformed answer is a blocking one. The program must be the user's own (or root's), and no
 * one else may be able to change it; it runs at most 30 s (with whatever it started), prints at
 * most 64 KiB, and its error output is never quoted (it may hold a secret).
 *
 * @module
 */

import type { Context } from "../context.ts";
import {
  type Account,
  type Credential,
  credentialCommandOf,
  type CredentialProvider,
  CredentialProviderError,
  type TokenSpec,
} from "./credential_provider.ts";
import { checkTrustedFile } from "../config/file_trust.ts";
import { HarkError } from "../errors/mod.ts";
import { isObject } from "../json/fields.ts";
import { joinPath } from "../path.ts";
import { readJson } from "../json/read_json.ts";
import { serviceOf } from "./token_origin.ts";
import { isTokenText } from "./token_source.ts";

/** How long the credential command may run, in ms; what it started is stopped with it. */
export const CREDENTIAL_COMMAND_TIMEOUT_MS = 30_000;

/** The most the credential command may print, on stdout and on stderr: 64 KiB. */
export const CREDENTIAL_COMMAND_MAX_OUTPUT = 64 * 1024;

/** Provides user tokens printed by a configured program. */
export class CommandProvider implements CredentialProvider {
  /** The provider's name. */
  readonly name = "command" as const;
  readonly #ctx: Context;

  /** @param ctx the context that runs the program */
  constructor(ctx: Context) {
    this.#ctx = ctx;
  }

  /** {@inheritDoc CredentialProvider.resolveAccount} */
  resolveAccount(spec: TokenSpec): Promise<Account | undefined> {
    if (!credentialCommandOf(spec)) return Promise.resolve(undefined);
    return Promise.resolve({ profile: spec.profile, identity: "user", source: "command" });
  }

  /**
   * {@inheritDoc CredentialProvider.resolveToken}
   *
   * @throws {CredentialProviderError} ordinary when the program cannot run, fails, runs out of
   * time or prints too much or an expired token; blocking when the program is not the user's
   * own (another user owns it or can write to it), its answer is malformed, the setting is not
   * a list of strings, or it prints again the token the service just rejected
   */
  async resolveToken(spec: TokenSpec): Promise<Credential | undefined> {
    const command = credentialCommandOf(spec);
    if (!command) return undefined;
    const setting = `apps.${spec.profile}.credential_command`;
    if (
      !Array.isArray(command) || command.length === 0 ||
      !command.every((s): s is string => typeof s === "string")
    ) {
      throw new CredentialProviderError(
        "command",
        `Invalid ${setting}: expected a list of strings, the program then its arguments`,
        {
          blocking: true,
          suggestion: `Set ${setting} to a JSON list such as ["vault-token", "--json"]`,
          command: "",
        },
      );
    }
    const [program, ...args] = command;
    // A program another user can change would hand them the sign-in: it must be the user's.
    const path = await locateProgram(this.#ctx, program);
    if (path !== undefined) {
      const info = await this.#ctx.fs.stat(path);
      if (info !== undefined) {
        try {
          await checkTrustedFile(this.#ctx, path, info, {
            what: `the credential command (${setting})`,
            param: setting,
            chmod: "go-w",
          });
        } catch (error) {
          // Blocking: no other credential quietly stands in for a refused program.
          if (!(error instanceof HarkError)) throw error;
          throw new CredentialProviderError("command", error.message, {
            blocking: true,
            suggestion: error.recovery.suggestion,
            command: error.recovery.command,
            cause: error,
          });
        }
      }
    }
    let result;
    try {
      result = await this.#ctx.run(path ?? program, args, {
        timeoutMs: CREDENTIAL_COMMAND_TIMEOUT_MS,
        maxOutputBytes: CREDENTIAL_COMMAND_MAX_OUTPUT,
      });
    } catch (error) {
      if (error instanceof Deno.errors.TimedOut) {
        throw ordinary(
          `The credential command "${program}" did not finish within ` +
            `${CREDENTIAL_COMMAND_TIMEOUT_MS / 1000} s: it was stopped, with what it started`,
          error,
        );
      }
      if (error instanceof RangeError) {
        const stream = /on (stdout|stderr)$/.exec(messageOf(error))?.[1] ?? "its output";
        throw ordinary(
          `The credential command "${program}" printed more than ` +
            `${CREDENTIAL_COMMAND_MAX_OUTPUT / 1024} KiB on ${stream}: it was stopped`,
          error,
        );
      }
      throw ordinary(`Cannot run the credential command "${program}": ${messageOf(error)}`, error);
    }
    if (result.code !== 0) {
      // Its error output may hold a secret (a token, a vault's answer): it is never shown.
      const withheld = result.stderr.trim() === ""
        ? ""
        : " (its error output is not shown: it may hold a secret; run the command yourself to " +
          "see it)";
      throw ordinary(
        `The credential command "${program}" failed with exit code ${result.code}${withheld}`,
      );
    }
    const token = parseAnswer(result.stdout, program);
    if (token.expiresAt !== undefined && this.#ctx.now() >= token.expiresAt) {
      throw ordinary(`The credential command "${program}" printed an expired token`);
    }
    const refresh = spec.refresh;
    if (typeof refresh === "object" && refresh.rejected === token.token) {
      throw new CredentialProviderError(
        "command",
        `The token from the credential command "${program}" was rejected as invalid or expired`,
        {
          blocking: true,
          suggestion: "Make the command print a fresh token",
          command: "",
        },
      );
    }
    // The program names no service: its token goes to the profile's.
    return {
      ...token,
      identity: "user",
      source: "command",
      origin: serviceOf(this.#ctx, spec).origin,
    };
  }
}

function ordinary(message: string, cause?: unknown): CredentialProviderError {
  return new CredentialProviderError("command", message, {
    blocking: false,
    suggestion: "Fix the credential command, or sign in",
    cause,
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Parses the program's answer: JSON `{"access_token": string, "expires_at"?: RFC 3339 or epoch
 * seconds}`.
 *
 * @param stdout what the program printed
 * @param program the program, for messages
 * @throws {CredentialProviderError} (blocking) when the answer is malformed
 */
export function parseAnswer(
  stdout: string,
  program: string,
): { token: string; expiresAt?: number } {
  const malformed = (why: string, cause?: unknown) =>
    new CredentialProviderError(
      "command",
      `Malformed answer from the credential command "${program}": ${why}`,
      {
        blocking: true,
        suggestion: 'The command must print {"access_token": "...", "expires_at": "<RFC 3339>"}',
        command: "",
        cause,
      },
    );
  let value: unknown;
  try {
    // readJson never quotes what it read: the answer holds a token.
    value = readJson(stdout, { source: `the answer of the credential command "${program}"` });
  } catch (error) {
    throw malformed(error instanceof Error ? error.message : "not JSON");
  }
  if (!isObject(value)) throw malformed("not a JSON object");
  if (typeof value.access_token !== "string" || value.access_token.trim() === "") {
    throw malformed('no "access_token" string');
  }
  const token = value.access_token.trim();
  if (!isTokenText(token)) {
    throw malformed(
      '"access_token" holds spaces, line breaks, control or non-ASCII characters, which no ' +
        "token has",
    );
  }
  const raw = value.expires_at;
  if (raw === undefined || raw === null) return { token };
  let expiresAt: number;
  if (typeof raw === "number" && Number.isFinite(raw)) expiresAt = raw * 1000;
  else if (typeof raw === "string" && /^\d+$/.test(raw)) expiresAt = Number(raw) * 1000;
  else if (typeof raw === "string" && /^\d{4}-\d{2}-\d{2}T/.test(raw)) expiresAt = Date.parse(raw);
  else throw malformed(`"expires_at" is neither RFC 3339 nor epoch seconds`);
  if (Number.isNaN(expiresAt)) throw malformed(`"expires_at" ${JSON.stringify(raw)} is not a time`);
  return { token, expiresAt };
}

/**
 * The file a program name runs: the name itself when it holds a `/` (a path), else the first
 * executable file of that name in `PATH`, as the system looks it up; `undefined` when none is
 * found (running it then reports the error). On Windows, where `PATHEXT` decides, the name is
 * left to the system.
 *
 * @param ctx the context (PATH, files)
 * @param program the program as configured
 */
export async function locateProgram(
  ctx: Pick<Context, "env" | "fs" | "os">,
  program: string,
): Promise<string | undefined> {
  if (ctx.os === "windows") return undefined;
  if (program.includes("/")) return program;
  for (const folder of (ctx.env.get("PATH") ?? "").split(":")) {
    if (folder === "") continue;
    const candidate = joinPath(ctx.os, folder, program);
    try {
      const info = await ctx.fs.stat(candidate);
      if (info?.isFile && (info.mode === undefined || (info.mode & 0o111) !== 0)) return candidate;
    } catch {
      // An unreadable folder of PATH: the next one.
    }
  }
  return undefined;
}
