/**
 * Masking of secrets in output.
 *
 * @module
 */

/**
 * Masks a secret for display: the first four characters of a long value, then `…` and the
 * length; short values are masked whole.
 *
 * @param secret the secret
 * @example
 * ```ts
 * maskSecret("u-abcdefghijkl"); // "u-ab…(14 chars)"
 * ```
 */
export function maskSecret(secret: string): string {
  if (secret.length < 12) return "****";
  return `${secret.slice(0, 4)}…(${secret.length} chars)`;
}
