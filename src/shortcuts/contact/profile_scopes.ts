/**
 * What reading people's profiles and names takes from Lark, and the warning for the fields Lark
 * left out for lack of a field permission.
 *
 * Facts:
 * - `GET /open-apis/contact/v3/users/:user_id` (Lark doc reference/contact-v3/user/get): any one
 *   of contact:contact.base:readonly, contact:contact:access_as_app, contact:contact:readonly,
 *   contact:contact:readonly_as_app opens it; its sensitive fields come only with their field
 *   permission (name and avatar contact:user.base:readonly, email contact:user.email:readonly,
 *   departments contact:user.department:readonly, user_id contact:user.employee_id:readonly),
 *   or with one of the three broad API permissions, which the doc lists among the field
 *   permissions too. contact:user.basic_profile:readonly does not open it.
 * - `GET /open-apis/contact/v3/users/batch`: the same profiles, at most 50 ids a call (Node SDK
 *   `contact.v3.user.batch`; lark-mcp 0.5.1 `contact.v3.user.batch` schema), user and tenant
 *   tokens (lark-mcp `accessTokens`); lark-cli looks up bot senders with it
 *   (`shortcuts/im/convert_lib/helpers.go`, `batchResolveUsers`).
 * - `POST /open-apis/contact/v3/users/basic_batch`: names only, whatever the contacts range
 *   (SDK doc comment of `contact.v3.user.basicBatch`), for
 *   contact:user.basic_profile:readonly; lark-cli looks up user senders with it, at most 10 ids
 *   a call (`batchResolveByBasicContact`), and declares that scope for it.
 *
 * @module
 */

import type { Identity } from "../../auth/identity.ts";
import { scopeGranted } from "../../auth/scopes.ts";
import { loginCommand } from "../../errors/mod.ts";
import type { ShortcutInput, ShortcutScopes } from "../definition.ts";

/** The API permission hark asks for to read profiles (the least of Lark's four). */
export const PROFILE_API_SCOPE = "contact:contact.base:readonly";

/** The field permission of a profile's name (and avatar). */
export const NAME_SCOPE = "contact:user.base:readonly";

/** The permission of `users/basic_batch`: names only. */
export const BASIC_PROFILE_SCOPE = "contact:user.basic_profile:readonly";

/** The API permissions the doc lists among the field permissions too: they unlock every field. */
const BROAD_SCOPES = [
  "contact:contact:readonly",
  "contact:contact:readonly_as_app",
  "contact:contact:access_as_app",
] as const;

/** A profile field that needs its own field permission, as `+get-user` shows it. */
export interface GuardedField {
  /** The field in Lark's profile. */
  field: string;
  /** How a warning names it. */
  label: string;
  /** Its field permission. */
  scope: string;
}

/** The fields `+get-user` shows that Lark gives only with their field permission. */
export const GUARDED_FIELDS: readonly GuardedField[] = [
  { field: "email", label: "email", scope: "contact:user.email:readonly" },
  { field: "department_ids", label: "departments", scope: "contact:user.department:readonly" },
  { field: "user_id", label: "user id", scope: "contact:user.employee_id:readonly" },
];

/**
 * Scopes Lark takes instead of those of {@link PROFILE_READ_SCOPES}: the other three API
 * permissions of a profile, which also unlock the name.
 */
export const READ_ALTERNATIVES: Readonly<Record<string, readonly string[]>> = {
  [PROFILE_API_SCOPE]: BROAD_SCOPES,
  [NAME_SCOPE]: BROAD_SCOPES,
};

/** {@link READ_ALTERNATIVES}, and the broad API permissions for each guarded field's. */
export const PROFILE_ALTERNATIVES: Readonly<Record<string, readonly string[]>> = {
  ...READ_ALTERNATIVES,
  ...Object.fromEntries(GUARDED_FIELDS.map((f) => [f.scope, BROAD_SCOPES])),
};

/** What reading one profile takes, per identity: the API permission and the name's. */
export const PROFILE_READ_SCOPES: readonly string[] = [PROFILE_API_SCOPE, NAME_SCOPE];

/** `+get-user`'s scopes: read a profile; email, departments and user id optional. */
export const PROFILE_SCOPES: ShortcutScopes = {
  user: PROFILE_READ_SCOPES,
  bot: PROFILE_READ_SCOPES,
  optional: {
    user: GUARDED_FIELDS.map((f) => f.scope),
    bot: GUARDED_FIELDS.map((f) => f.scope),
  },
  alternatives: PROFILE_ALTERNATIVES,
};

/**
 * What looking up senders' names takes, per identity: `basic_batch` as the user, `users/batch`
 * as the bot.
 */
export const NAME_LOOKUP_SCOPES: Readonly<Record<Identity, readonly string[]>> = {
  user: [BASIC_PROFILE_SCOPE],
  bot: PROFILE_READ_SCOPES,
};

/**
 * The warning for the guarded fields a profile lacks, or `undefined`. A field is named unless
 * the token is known to carry its scope (then the person simply has none): as the user, the
 * scopes the sign-in was granted (unknown for a token from the environment); as the bot, never
 * known to hark (the app's are in the developer console).
 *
 * @param user the profile as Lark gave it
 * @param input the shortcut input (identity, config, profile)
 */
export function missingFieldsWarning(
  user: Readonly<Record<string, unknown>>,
  input: Pick<ShortcutInput<unknown>, "identity" | "config" | "profile">,
): string | undefined {
  const granted = input.identity === "user"
    ? input.config.users?.[input.profile]?.scopes
    : undefined;
  const missing = GUARDED_FIELDS.filter((f) =>
    user[f.field] === undefined &&
    !(granted !== undefined && scopeGranted(granted, f.scope, PROFILE_ALTERNATIVES))
  );
  if (missing.length === 0) return undefined;
  const scopes = missing.map((f) => f.scope);
  const fix = input.identity === "user"
    ? `sign in granting ${scopes.length === 1 ? "it" : "them"}: ${
      loginCommand(scopes, input.profile)
    }`
    : `enable ${scopes.length === 1 ? "it" : "them"} for the app in the developer console`;
  return `Not shown: ${missing.map((f) => f.label).join(", ")}. Lark leaves ` +
    `${missing.length === 1 ? "it" : "them"} out without ${scopes.join(", ")}; ${fix}`;
}
