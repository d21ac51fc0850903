/**
 * SecretInput values: `@keychain:<path>`, `@env:<VAR>`, `@plain:<text>` or a bare string.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { ValidationError } from "../errors/mod.ts";
import { KeychainError } from "../keychain/keychain.ts";

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
 * Resolves a SecretInput to the secret. A `@plain:` value while `CI` is set writes a warning to
 * stderr.
 *
 * @param ctx the context
 * @param value the configured value
 * @param what what the value is, for messages, such as `apps.default.app_secret`
 * @throws {ValidationError} when the variable or keychain entry is missing
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
      if (ctx.env.get("CI")) {
        ctx.stderr.write(
          `warning: ${what} is a @plain: secret; keep secrets in the keychain or in @env: in CI\n`,
        );
      }
      return input.text;
    case "bare":
      return input.text;
  }
}
