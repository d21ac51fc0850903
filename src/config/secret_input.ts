/**
 * SecretInput values: `@keychain:<path>`, `@env:<VAR>`, `@plain:<text>` or a bare string.
 *
 * @module
 */

import type { Context } from "../context.ts";
import type { Config } from "./config.ts";
import { ValidationError } from "../errors/mod.ts";
import { KeychainError } from "../keychain/keychain.ts";

/** The name of an environment variable a SecretInput may name. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A parsed SecretInput. */
export type SecretInput =
  | { kind: "keychain"; path: string }
  | { kind: "env"; name: string }
  | { kind: "plain"; text: string }
  | { kind: "bare"; text: string };

/**
 * Parses a SecretInput string.
 *
 * @param value the configured value
 */
export function parseSecretInput(value: string): SecretInput {
  if (value.startsWith("@keychain:")) return { kind: "keychain", path: value.slice(10) };
  if (value.startsWith("@env:")) return { kind: "env", name: value.slice(5) };
  if (value.startsWith("@plain:")) return { kind: "plain", text: value.slice(7) };
  return { kind: "bare", text: value };
}

/**
 * Whether a value is a reference (`@keychain:` or `@env:`) rather than a literal secret.
 *
 * @param value the configured value
 */
export function isSecretReference(value: string): boolean {
  const kind = parseSecretInput(value).kind;
  return kind === "keychain" || kind === "env";
}

/**
 * Resolves a SecretInput to the secret. Nothing is printed: how the secret is kept may deserve
 * a warning, which {@link secretWarnings} gives the caller to show.
 *
 * @param ctx the context
 * @param value the configured value
 * @param what what the value is, for messages, such as `apps.default.app_secret`
 * @throws {ValidationError} when the variable's name is malformed, or the variable or keychain
 *   entry is missing
 * @throws {KeychainError} when the keychain cannot be used
 */
export async function resolveSecretInput(
  ctx: Context,
  value: string,
  what: string,
): Promise<string> {
  const input = parseSecretInput(value);
  switch (input.kind) {
    case "env": {
      if (!ENV_NAME.test(input.name)) {
        throw new ValidationError(
          `Invalid ${what} ${JSON.stringify(value.slice(0, 80))}: "@env:" must be followed by ` +
            "the name of an environment variable (letters, digits and _)",
          {
            param: what,
            suggestion: `Name the variable that holds the secret, such as @env:LARK_APP_SECRET`,
            command: `hark config set ${what} @env:LARK_APP_SECRET`,
          },
        );
      }
      const secret = ctx.env.get(input.name);
      if (secret === undefined || secret === "") {
        throw new ValidationError(
          `Cannot resolve ${what}: the environment variable "${input.name}" is not set`,
          { param: what, suggestion: `Set ${input.name}, or change ${what}` },
        );
      }
      return secret;
    }
    case "keychain": {
      const secret = await ctx.keychain.get(input.path);
      if (secret === undefined) {
        throw new KeychainError(
          ctx.keychain.backend,
          `Cannot resolve ${what}: no keychain entry "${input.path}" in the ${ctx.keychain.backend} keychain`,
          {
            suggestion: "Store the secret again with hark config init",
            command: "hark config init",
          },
        );
      }
      return secret;
    }
    case "plain":
    case "bare":
      return input.text;
  }
}

/**
 * Warnings about the secrets a profile keeps in the config file, for the caller to print: a bare
 * literal (plaintext on disk, with no prefix saying it was meant) always, and a `@plain:` value
 * while `CI` is set, as the spec asks. Each names the key and how to move the secret out; none
 * holds the secret.
 *
 * @param env the environment (`CI`)
 * @param config the loaded config
 * @param profile the profile in use
 * @returns the warnings, without the `warning: ` prefix; empty when all is well
 * @example
 * ```ts
 * secretWarnings(ctx.env, { apps: { default: { app_secret: "s3cret" } } }, "default");
 * // ['apps.default.app_secret holds a secret in plaintext in the config file; move it …']
 * ```
 */
export function secretWarnings(env: Context["env"], config: Config, profile: string): string[] {
  const flag = profile === "default" ? "" : ` --profile ${profile}`;
  const fields: [string, unknown, string][] = [
    [
      `apps.${profile}.app_secret`,
      config.apps?.[profile]?.app_secret,
      `move it to the keychain with "hark config init --force${flag}" (it asks for the secret ` +
      `again), or refer to a variable with "hark config set apps.${profile}.app_secret ` +
      `@env:<VARIABLE>"`,
    ],
    [
      `users.${profile}.access_token`,
      config.users?.[profile]?.access_token,
      `sign in again with "hark auth login${flag}", which keeps the token in the keychain`,
    ],
  ];
  const warnings: string[] = [];
  for (const [key, value, fix] of fields) {
    if (typeof value !== "string" || value === "") continue;
    const kind = parseSecretInput(value).kind;
    if (kind === "bare") {
      warnings.push(`${key} holds a secret in plaintext in the config file; ${fix}`);
    } else if (kind === "plain" && env.get("CI")) {
      warnings.push(
        `${key} is a @plain: secret; keep secrets in the keychain or in @env: in CI (${fix})`,
      );
    }
  }
  return warnings;
}
