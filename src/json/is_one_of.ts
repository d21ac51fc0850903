/**
 * Membership in a readonly list of literals as a type guard, so that checking a value against
 * `["table", "json"] as const` also narrows it, without asserting its type.
 *
 * @module
 */

/**
 * Whether a value is one of a list's elements; narrows it to the list's element type.
 *
 * @param list the allowed values, usually a readonly tuple `as const`
 * @param value any value
 * @example
 * ```ts
 * const FORMATS = ["table", "json"] as const;
 * const raw: unknown = "json";
 * if (isOneOf(FORMATS, raw)) raw; // "table" | "json"
 * ```
 */
export function isOneOf<T>(list: readonly T[], value: unknown): value is T {
  // `includes` on a `readonly T[]` takes only a `T`; `some` compares any value.
  return list.some((element) => element === value);
}
