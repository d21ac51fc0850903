/**
 * What an error answer says about scopes: the scope names it lists (checked to look like Lark's),
 * the one to ask for among alternatives, and the developer console pages that grant them.
 *
 * @module
 */

import type { ApiErrorBody, CallerFacts } from "./api_code_map.ts";

/**
 * Lark's scope syntax: two or three colon-separated parts of letters, digits, `_`, `.` and `-`
 * (`calendar:calendar.event:read`, `im:message`), at most {@link MAX_SCOPE_LENGTH} characters.
 */
const SCOPE = /^[\w.-]+(:[\w.-]+){1,2}$/;
/** The longest scope name taken from an answer (Lark's are under 60 characters). */
export const MAX_SCOPE_LENGTH = 128;

/**
 * Whether `text` has the shape of a Lark scope name ({@link SCOPE}). A scope the service names
 * ends up in a recovery command that people and agents run: anything else is dropped.
 *
 * @param text a candidate scope
 */
export function isScopeName(text: unknown): text is string {
  return typeof text === "string" && text.length <= MAX_SCOPE_LENGTH && SCOPE.test(text);
}

/**
 * Reads the scopes of a permission error from `error.permission_violations[].subject`, else from
 * a bracketed list in the message (`... one of these privileges: [a, b]`). Lark lists
 * alternatives: any one of them grants access. Only names with the shape of a scope are kept
 * ({@link isScopeName}): the service's text is not trusted to be one.
 *
 * @param body the service's answer
 */
export function neededScopes(body: ApiErrorBody): string[] {
  const violations = Array.isArray(body.error?.permission_violations)
    ? body.error.permission_violations
    : [];
  const fromViolations = violations.map((v) => v?.subject).filter(isScopeName);
  if (fromViolations.length > 0) return [...new Set(fromViolations)];
  const match = /\[([^\]]+)\]/.exec(typeof body.msg === "string" ? body.msg : "");
  if (!match) return [];
  return [...new Set(match[1].split(/[,\s]+/).filter(isScopeName))];
}

/**
 * The one scope to ask for among alternatives: one the call is known to need (the shortcut's
 * declaration names Lark's current fine-grained scope), else the first the service listed.
 *
 * @param alternatives the service's alternatives, in its order
 * @param declared the scopes the call declares
 */
export function recommendedScope(
  alternatives: readonly string[],
  declared: readonly string[] = [],
): string | undefined {
  return alternatives.find((s) => declared.includes(s)) ?? alternatives[0];
}

/**
 * The developer console's scope-application page of an app on the profile's own domain, as
 * lark-cli's `enrichPermissionError` builds it: `<origin>/page/scope-apply?clientID=<app
 * id>&scopes=<scope>`; the console's app list when the app id is unknown.
 *
 * @param caller who made the call
 * @param scope the scope to apply for
 */
export function consoleUrl(caller: CallerFacts | undefined, scope: string | undefined): string {
  const origin = caller?.serviceOrigin ?? "https://open.larksuite.com";
  if (!caller?.appId) return `${origin}/app`;
  const query = new URLSearchParams({ clientID: caller.appId });
  if (scope) query.set("scopes", scope);
  return `${origin}/page/scope-apply?${query}`;
}

/**
 * The developer console's page of the profile's app, on the profile's own domain
 * (`<origin>/app/<app id>`); the console's app list when the app id is unknown.
 *
 * @param caller who made the call
 */
export function appPageUrl(caller: CallerFacts | undefined): string {
  const origin = caller?.serviceOrigin ?? "https://open.larksuite.com";
  return caller?.appId ? `${origin}/app/${encodeURIComponent(caller.appId)}` : `${origin}/app`;
}
