/**
 * `hark contact +get-user`: a person's profile (name, email, departments, status) by open id,
 * union id or user id, as either identity, from `GET /open-apis/contact/v3/users/:user_id`. Lark
 * leaves out a field whose field permission the token lacks: a warning names it and the scope
 * (`profile_scopes.ts` has the facts).
 *
 * @module
 */

import type { ApiRequest } from "../../http/request.ts";
import { type JsonObject, objectField } from "../../json/fields.ts";
import type { Column } from "../../output/mod.ts";
import { badTimeWarning, epochMsOf, formatRfc3339InZone } from "../../time/mod.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { checkId, USER_ID, userIdTypeOf } from "./ids.ts";
import { missingFieldsWarning, PROFILE_READ_SCOPES, PROFILE_SCOPES } from "./profile_scopes.ts";

/** A profile as the contact API gives it. */
export interface UserProfile {
  open_id?: string;
  name?: string;
  email?: string;
  department_ids?: string[];
  status?: {
    is_frozen?: boolean;
    is_resigned?: boolean;
    is_activated?: boolean;
    is_exited?: boolean;
  };
  /** Unix seconds, as the service sent them (a number, or text). */
  join_time?: unknown;
  [key: string]: unknown;
}

const PARAMS = {
  "user-id": param.string({
    description: "the person: an open id (ou_…), a union id (on_…) or a user id",
    required: true,
    valueName: "<id>",
  }),
};

/** The values of `+get-user`. */
export type GetUserValues = ValuesOf<typeof PARAMS>;

/**
 * The request (`GET /open-apis/contact/v3/users/{user_id}`), its `user_id_type` told by the id.
 *
 * @param input the shortcut input
 */
export function getUserRequest(input: ShortcutInput<GetUserValues>): ApiRequest {
  return userRequest(checkId(input.values["user-id"], "--user-id", USER_ID));
}

/**
 * The profile request of one person (`GET /open-apis/contact/v3/users/{user_id}`), the id's kind
 * told by its prefix; either identity asks with the same scopes.
 *
 * @param id a checked user id, or a `{placeholder}` for a preview
 */
export function userRequest(id: string): ApiRequest {
  const path = /^\{\w+\}$/.test(id) ? id : encodeURIComponent(id);
  return {
    method: "GET",
    path: `/open-apis/contact/v3/users/${path}`,
    query: {
      user_id_type: userIdTypeOf(id.startsWith("{") ? "ou_" : id),
      department_id_type: "open_department_id",
    },
    scopes: [...PROFILE_READ_SCOPES],
  };
}

/**
 * A profile's state in one word: `resigned`, `frozen`, `inactive` (never signed in) or `active`.
 *
 * @param user the profile
 */
export function statusOf(user: JsonObject): string {
  const status = objectField(user, "status");
  if (!status) return "";
  if (status.is_resigned || status.is_exited) return "resigned";
  if (status.is_frozen) return "frozen";
  if (status.is_activated === false) return "inactive";
  return "active";
}

/**
 * The profile as output: Lark's fields, `join_time` in RFC 3339 in the user's zone; a
 * `join_time` that is not a time is left out, and `warn` told.
 *
 * @param user the profile
 * @param timeZone the zone
 * @param warn notes a warning (`input.warn`); default none
 */
export function profileRow(
  user: UserProfile,
  timeZone: string,
  warn: (message: string) => void = () => {},
): Record<string, unknown> {
  const row: Record<string, unknown> = { ...user };
  if (user.join_time === undefined) return row;
  const joined = epochMsOf(user.join_time, "s");
  if (joined === undefined) {
    warn(badTimeWarning("join_time", user.join_time));
    delete row.join_time;
  } else row.join_time = formatRfc3339InZone(joined, timeZone);
  return row;
}

/** The table columns of a profile. */
export const PROFILE_COLUMNS: Column<Record<string, unknown>>[] = [
  { header: "NAME", value: "name", priority: 6 },
  { header: "OPEN ID", value: "open_id", kind: "id", priority: 5 },
  { header: "EMAIL", value: "email", kind: "id", priority: 4 },
  { header: "STATUS", value: (row) => statusOf(row), priority: 3 },
  { header: "JOB TITLE", value: "job_title", priority: 1 },
  { header: "DEPARTMENTS", value: "department_ids", kind: "id", priority: 2 },
];

/** `contact +get-user`. */
export const getUser = defineShortcut({
  service: "contact",
  verb: "+get-user",
  description: "Show a person's profile: name, email, departments, status",
  examples: [
    "hark contact +get-user --user-id ou_123",
    "hark contact +get-user --user-id on_456 --json",
    "hark contact +get-user --user-id ou_123 --as bot",
  ],
  identities: ["user", "bot"],
  scopes: PROFILE_SCOPES,
  effect: "read",
  params: PARAMS,
  validate(input) {
    getUserRequest(input);
  },
  requests: (input) => [getUserRequest(input)],
  run: async (input, client) => objectField(await client.request(getUserRequest(input)), "user"),
  output(user, input) {
    const profile = user ?? {};
    const missing = missingFieldsWarning(profile, input);
    if (missing) input.warn(missing);
    return profileRow(profile, input.timeZone, input.warn);
  },
  columns: PROFILE_COLUMNS,
});
