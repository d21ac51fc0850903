/**
 * Masking of secrets in output.
 *
 * @module
 */

/**
 * The shortest secret whose first characters are shown: below it, four characters would be a
 * good part of the secret.
 */
export const MASK_PREFIX_MIN_LENGTH = 20;

/**
 * Masks a secret for display: the first four characters of a long value (enough to tell a user
 * token `u-…` from a tenant token `t-…`), then `…`; a shorter value is masked whole. The length
 * is never shown: it narrows a guess too.
 *
 * @param secret the secret
 * @example
 * ```ts
 * maskSecret("u-abcdefghijklmnopqrstuv"); // "u-ab…"
 * maskSecret("s3cret"); // "****"
 * ```
 */
export function maskSecret(secret: string): string {
  if (secret.length < MASK_PREFIX_MIN_LENGTH) return "****";
  return `${secret.slice(0, 4)}…`;
}
