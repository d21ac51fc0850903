/**
 * The `command` credential provider: `apps.<profile>.credential_command` (program and
 * arguments) prints `{"access_token": "...", "expires_at": ...}` on stdout, like AWS
 * `credential_process`. The program failing is an ordinary error (the next provider tries); a
 * malformed answer is a blocking one.
 *
 * @module
 */

import type { Context } from "../context.ts";
import {
  type Account,
  type Credential,
  type CredentialProvider,
  CredentialProviderError,
  type TokenSpec,
} from "./credential_provider.ts";
import { isObject } from "../json/fields.ts";
import { readJson } from "../json/read_json.ts";
import { serviceOf } from "./token_origin.ts";

/** How long the credential command may run, in ms. */
export const CREDENTIAL_COMMAND_TIMEOUT_MS = 30_000;

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
    if (!commandOf(spec)) return Promise.resolve(undefined);
    return Promise.resolve({ profile: spec.profile, identity: "user", source: "command" });
  }

  /**
   * {@inheritDoc CredentialProvider.resolveToken}
   *
   * @throws {CredentialProviderError} ordinary when the program cannot run, fails or prints an
   * expired token; blocking when its answer is malformed, the setting is not a list of strings,
   * or it prints again the token the service just rejected
   */
  async resolveToken(spec: TokenSpec): Promise<Credential | undefined> {
    const command = commandOf(spec);
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
    let result;
    try {
      result = await this.#ctx.run(program, args, { timeoutMs: CREDENTIAL_COMMAND_TIMEOUT_MS });
    } catch (error) {
      throw ordinary(`Cannot run the credential command "${program}": ${messageOf(error)}`, error);
    }
    if (result.code !== 0) {
      const detail = result.stderr.trim().split("\n")[0];
      throw ordinary(
        `The credential command "${program}" failed with exit code ${result.code}${
          detail ? `: ${detail}` : ""
        }`,
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

function commandOf(spec: TokenSpec): unknown {
  if (spec.identity !== "user") return undefined;
  return spec.config.apps?.[spec.profile]?.credential_command;
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
  const raw = value.expires_at;
  if (raw === undefined || raw === null) return { token: value.access_token.trim() };
  let expiresAt: number;
  if (typeof raw === "number" && Number.isFinite(raw)) expiresAt = raw * 1000;
  else if (typeof raw === "string" && /^\d+$/.test(raw)) expiresAt = Number(raw) * 1000;
  else if (typeof raw === "string" && /^\d{4}-\d{2}-\d{2}T/.test(raw)) expiresAt = Date.parse(raw);
  else throw malformed(`"expires_at" is neither RFC 3339 nor epoch seconds`);
  if (Number.isNaN(expiresAt)) throw malformed(`"expires_at" ${JSON.stringify(raw)} is not a time`);
  return { token: value.access_token.trim(), expiresAt };
}
