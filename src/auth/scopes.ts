/**
 * The spec's rule for a scope's shape, and the one scope every sign-in asks for. Which scopes a
 * shortcut needs is declared by the shortcut (`src/shortcuts/`).
 *
 * @module
 */

import { ValidationError } from "../errors/mod.ts";

/** Keep a refresh token; always requested at sign-in. */
export const SCOPE_OFFLINE = "offline_access";

/**
 * Checks a scope: `<service>:<resource>:<action>`, or fewer parts; empty, no colon, an empty
 * part, white space, or more than three colon-separated parts is invalid.
 *
 * @param scope the scope as typed
 * @returns the scope
 * @throws {ValidationError} naming the scope
 */
export function checkScope(scope: string): string {
  const parts = scope.split(":");
  if (
    scope.length === 0 || parts.length < 2 || parts.length > 3 ||
    parts.some((p) => !/^[A-Za-z0-9_.-]+$/.test(p))
  ) {
    throw new ValidationError(
      `Invalid scope ${JSON.stringify(scope)}: expected <service>:<resource>:<action>, ` +
        "such as calendar:calendar:readonly",
      { param: "--scope" },
    );
  }
  return scope;
}

/**
 * Splits `--scope` values given repeatedly or separated by spaces or commas, checks each, and
 * removes duplicates.
 *
 * @param values the raw values
 * @throws {ValidationError} naming the first bad scope
 */
export function parseScopes(values: string[]): string[] {
  const scopes: string[] = [];
  for (const value of values) {
    const parts = value.split(/[\s,]+/).filter((p) => p.length > 0);
    if (parts.length === 0) checkScope(value.trim());
    for (const part of parts) if (!scopes.includes(checkScope(part))) scopes.push(part);
  }
  return scopes;
}

/**
 * Whether `granted` satisfies `wanted`: the scope itself, a scope the API accepts instead of it
 * (`alternatives`, from its doc's "any one of"), or for a `…:readonly` scope the read-write
 * scope it is part of (`calendar:calendar` covers `calendar:calendar:readonly`).
 *
 * @param granted the granted scopes
 * @param wanted the scope asked for
 * @param alternatives scopes accepted instead of a wanted one, by the wanted one
 */
export function scopeGranted(
  granted: readonly string[],
  wanted: string,
  alternatives: Readonly<Record<string, readonly string[]>> = {},
): boolean {
  return [wanted, ...alternatives[wanted] ?? []].some((scope) =>
    granted.includes(scope) ||
    (scope.endsWith(":readonly") && granted.includes(scope.slice(0, -":readonly".length)))
  );
}
