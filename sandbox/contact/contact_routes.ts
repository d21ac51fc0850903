/**
 * The contact routes of the sandbox: user search (search v1), one user's profile (contact v3
 * `users/:user_id`), several users' profiles (`users/batch`) and several users' names
 * (`users/basic_batch`).
 *
 * Search v1 is not in the Node SDK; it follows Lark's "搜索用户" doc
 * (open.feishu.cn/document/ukTMukTMukTM/uMTM4UjLzEDO14yMxgTN). The profiles follow the SDK's
 * `contact.v3.user.get` and `contact.v3.user.batch` types and Lark's contact-v3 user get doc
 * (reference/contact-v3/user/get): any one of four API permissions opens them, as either
 * identity, and the sensitive fields come only with their field permission (or one of the three
 * broad API permissions, which the doc lists among the field permissions too): a user token
 * must carry it, a tenant token's app must have it enabled. `time_zone` (an IANA name, absent
 * when the person set none) is in the SDK's types but not in the doc's field list, which names no
 * scope for it: the sandbox gives it with the profile. `users/batch` takes at most 50 ids
 * (lark-mcp 0.5.1 `contact.v3.user.batch`: "The maximum number of user IDs ... is 50") and
 * leaves out the ids it does not know. `users/basic_batch` answers names only, for
 * `contact:user.basic_profile:readonly`, and does not check the contacts range (SDK doc comment
 * of `contact.v3.user.basicBatch`); lark-cli sends it at most 10 ids, as the user only
 * (`shortcuts/im/convert_lib/helpers.go`), and so does the sandbox take them. `users/batch_get_id`
 * turns emails and mobiles into ids, for the tenant token only.
 *
 * @module
 */

import { findUser, type Incoming, larkOk, type SandboxContext } from "../core/context.ts";
import { convertOpenId, idOf, userIdType } from "../im/im_common.ts";
import {
  CONTACT_ERRORS,
  fieldViolation,
  larkFail,
  notAnOption,
  required,
} from "../core/lark_errors.ts";
import {
  type Caller,
  jsonBody,
  type Route,
  type RouteScopes,
  type UserIdType,
} from "../core/route.ts";
import type { SeedUser } from "../core/seed_data.ts";

/**
 * The API permissions of a profile, any one of which opens it (Lark's contact-v3 user get doc,
 * "开启任一权限即可"). `contact:user.basic_profile:readonly` is not among them: it opens
 * `users/basic_batch` only.
 */
export const PROFILE_API_SCOPES = [
  "contact:contact.base:readonly",
  "contact:contact:access_as_app",
  "contact:contact:readonly",
  "contact:contact:readonly_as_app",
] as const;

/** A profile, one (`users/:user_id`) or several (`users/batch`). */
export const USER_GET_SCOPES: RouteScopes = {
  user: PROFILE_API_SCOPES,
  bot: PROFILE_API_SCOPES,
};

/** Names only (`users/basic_batch`), as the user. */
export const BASIC_BATCH_SCOPES: RouteScopes = {
  user: ["contact:user.basic_profile:readonly"],
};

/**
 * `users/batch_get_id` (emails or mobiles to ids): the tenant token only (lark-mcp 0.5.1
 * `contact.v3.user.batchGetId` lists the bot alone), with `contact:user.id:readonly`.
 */
export const BATCH_GET_ID_SCOPES: RouteScopes = { bot: ["contact:user.id:readonly"] };
/** The most emails, and the most mobiles, `users/batch_get_id` takes (lark-mcp 0.5.1: 50). */
export const BATCH_GET_ID_MAX = 50;

/** The most ids `users/batch` takes. */
export const USER_BATCH_MAX = 50;
/** The most ids `users/basic_batch` takes. */
export const BASIC_BATCH_MAX = 10;

/**
 * The field permissions of the profile fields the sandbox gives (Lark's user get doc, field
 * overview): a field is left out without its scope.
 */
const FIELD_SCOPES = {
  user_id: "contact:user.employee_id:readonly",
  name: "contact:user.base:readonly",
  en_name: "contact:user.base:readonly",
  avatar: "contact:user.base:readonly",
  email: "contact:user.email:readonly",
  mobile: "contact:user.phone:readonly",
  department_ids: "contact:user.department:readonly",
  orders: "contact:user.department:readonly",
} as const;

/** The API permissions the doc lists among the field permissions too: they unlock every field. */
const BROAD_SCOPES = [
  "contact:contact:access_as_app",
  "contact:contact:readonly",
  "contact:contact:readonly_as_app",
];

/** The contact routes. */
export const CONTACT_ROUTES: Route[] = [
  {
    method: "GET",
    pattern: /^\/open-apis\/search\/v1\/user$/,
    scopes: { user: ["contact:user:search"] },
    userOnly: true,
    handle: searchUser,
  },
  // Before `users/:user_id`, which would take "batch" for an id.
  {
    method: "GET",
    pattern: /^\/open-apis\/contact\/v3\/users\/batch$/,
    scopes: USER_GET_SCOPES,
    handle: batchUsers,
  },
  {
    method: "POST",
    pattern: /^\/open-apis\/contact\/v3\/users\/batch_get_id$/,
    scopes: BATCH_GET_ID_SCOPES,
    tenantOnly: true,
    handle: batchGetId,
  },
  {
    method: "POST",
    pattern: /^\/open-apis\/contact\/v3\/users\/basic_batch$/,
    scopes: BASIC_BATCH_SCOPES,
    userOnly: true,
    handle: basicBatch,
  },
  {
    method: "GET",
    pattern: /^\/open-apis\/contact\/v3\/users\/([^/]+)$/,
    scopes: USER_GET_SCOPES,
    handle: getUser,
  },
];

function searchUser(ctx: SandboxContext, incoming: Incoming): Response {
  const q = incoming.url.searchParams;
  const query = (q.get("query") ?? "").trim().toLowerCase();
  if (query === "") return required("query");
  const sizeText = q.get("page_size") ?? "20";
  const pageSize = Number(sizeText);
  if (!/^\d+$/.test(sizeText) || pageSize < 1 || pageSize > 200) {
    return fieldViolation("page_size", "the value must be from 1 to 200", sizeText);
  }
  const tokenText = q.get("page_token") ?? "";
  let offset = 0;
  if (tokenText !== "") {
    const m = /^p(\d+)$/.exec(safeAtob(tokenText));
    if (!m) return fieldViolation("page_token", "the page_token is invalid", tokenText);
    offset = Number(m[1]);
  }
  const matches = ctx.users.filter((u) =>
    u.name.toLowerCase().includes(query) || u.en_name.toLowerCase().includes(query) ||
    u.email.toLowerCase().split("@")[0].includes(query)
  );
  const page = matches.slice(offset, offset + pageSize);
  const hasMore = offset + pageSize < matches.length;
  const data: Record<string, unknown> = {
    users: page.map((u) => ({
      name: u.name,
      open_id: u.open_id,
      user_id: u.user_id,
      department_ids: u.department_ids,
      avatar: avatarOf(u),
    })),
    has_more: hasMore,
  };
  if (hasMore) data.page_token = btoa(`p${offset + pageSize}`);
  return larkOk(data);
}

function safeAtob(text: string): string {
  try {
    return atob(text);
  } catch {
    return "";
  }
}

function avatarOf(user: SeedUser) {
  return {
    avatar_72: `${user.avatar_url}?s=72`,
    avatar_240: `${user.avatar_url}?s=240`,
    avatar_640: `${user.avatar_url}?s=640`,
    avatar_origin: user.avatar_url,
  };
}

const DEPARTMENT_ID_TYPES = ["department_id", "open_department_id"];

/** Reads `department_id_type`, or answers Lark's field violation. */
function departmentIdType(url: URL): string | Response {
  const value = url.searchParams.get("department_id_type") ?? "open_department_id";
  return DEPARTMENT_ID_TYPES.includes(value)
    ? value
    : notAnOption("department_id_type", value, DEPARTMENT_ID_TYPES);
}

function getUser(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  [userId]: string[],
): Response {
  const type = userIdType(incoming.url);
  if (type instanceof Response) return type;
  const departmentType = departmentIdType(incoming.url);
  if (departmentType instanceof Response) return departmentType;
  if (userId.trim() === "") return larkFail(CONTACT_ERRORS.invalidParam);
  const user = findUser(ctx, userId, type);
  if (!user) return larkFail(CONTACT_ERRORS.invalidUserId);
  return larkOk({ user: profileOf(ctx, caller, user, type, departmentType) });
}

function batchUsers(ctx: SandboxContext, incoming: Incoming, caller: Caller): Response {
  const type = userIdType(incoming.url);
  if (type instanceof Response) return type;
  const departmentType = departmentIdType(incoming.url);
  if (departmentType instanceof Response) return departmentType;
  const ids = incoming.url.searchParams.getAll("user_ids");
  if (ids.length === 0) return required("user_ids");
  if (ids.length > USER_BATCH_MAX) {
    return fieldViolation("user_ids", `the max len is ${USER_BATCH_MAX}`);
  }
  const items = ids.flatMap((id) => {
    const user = findUser(ctx, id, type);
    return user ? [profileOf(ctx, caller, user, type, departmentType)] : [];
  });
  return larkOk({ items });
}

/**
 * Emails and mobiles to ids (SDK `contact.v3.user.batchGetId`): one `user_list` entry per value
 * asked, with `user_id` (in `user_id_type`) and `status` when a person has it, the value alone
 * when nobody does; people who left count only with `include_resigned`.
 */
function batchGetId(ctx: SandboxContext, incoming: Incoming): Response {
  const type = userIdType(incoming.url);
  if (type instanceof Response) return type;
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  const lists: Record<"emails" | "mobiles", string[]> = { emails: [], mobiles: [] };
  for (const field of ["emails", "mobiles"] as const) {
    const value = body[field];
    if (value === undefined) continue;
    if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
      return fieldViolation(field, `${field} must be a list of strings`);
    }
    if (value.length > BATCH_GET_ID_MAX) {
      return fieldViolation(field, `the max len is ${BATCH_GET_ID_MAX}`);
    }
    lists[field] = value;
  }
  const resigned = body.include_resigned === true;
  const entry = (user: SeedUser | undefined, key: "email" | "mobile", value: string) =>
    user && (resigned || !user.resigned)
      ? {
        user_id: idOf(user, type),
        [key]: value,
        status: {
          is_frozen: false,
          is_resigned: user.resigned,
          is_activated: !user.resigned,
          is_exited: false,
          is_unjoin: false,
        },
      }
      : { [key]: value };
  const byEmail = (email: string) =>
    ctx.users.find((u) => u.email.toLowerCase() === email.toLowerCase());
  const user_list = [
    ...lists.emails.map((email) => entry(byEmail(email), "email", email)),
    ...lists.mobiles.map((mobile) =>
      entry(ctx.users.find((u) => u.mobile === mobile), "mobile", mobile)
    ),
  ];
  return larkOk({ user_list });
}

function basicBatch(ctx: SandboxContext, incoming: Incoming): Response {
  const type = userIdType(incoming.url);
  if (type instanceof Response) return type;
  const body = jsonBody(incoming);
  if (body instanceof Response) return body;
  const ids = body.user_ids;
  if (ids === undefined) return required("user_ids");
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string")) {
    return fieldViolation("user_ids", "user_ids must be a list of strings");
  }
  if (ids.length === 0) return required("user_ids");
  if (ids.length > BASIC_BATCH_MAX) {
    return fieldViolation("user_ids", `the max len is ${BASIC_BATCH_MAX}`);
  }
  // The SDK's `basicBatch` answer: `user_id` is the id in `user_id_type`, the name, its i18n.
  const users = ids.flatMap((id) => {
    const user = findUser(ctx, id, type);
    return user
      ? [{ user_id: id, name: user.name, i18n_name: { zh_cn: user.name, en_us: user.en_name } }]
      : [];
  });
  return larkOk({ users });
}

/**
 * A profile as the caller may read it: the fields whose field permission the caller lacks are
 * left out (a user token must carry the scope, which the app must still have enabled; a tenant
 * token's app must have it enabled).
 */
function profileOf(
  ctx: SandboxContext,
  caller: Caller,
  user: SeedUser,
  type: UserIdType,
  departmentType: string,
): Record<string, unknown> {
  const holds = (scope: string) =>
    ctx.appScopes.has(scope) &&
    (caller.record.kind === "tenant" || caller.record.scopes.includes(scope));
  const may = (field: keyof typeof FIELD_SCOPES) =>
    holds(FIELD_SCOPES[field]) || BROAD_SCOPES.some(holds);
  const departments = user.department_ids.map((id) =>
    departmentType === "open_department_id" ? id : `D${id.slice(3, 11)}`
  );
  const profile: Record<string, unknown> = { union_id: user.union_id };
  if (may("user_id")) profile.user_id = user.user_id;
  profile.open_id = user.open_id;
  if (may("name")) profile.name = user.name;
  if (may("en_name")) profile.en_name = user.en_name;
  if (may("email")) profile.email = user.email;
  if (may("mobile")) profile.mobile = user.mobile;
  profile.mobile_visible = true;
  profile.gender = user.gender;
  if (may("avatar")) profile.avatar = avatarOf(user);
  profile.status = {
    is_frozen: false,
    is_resigned: user.resigned,
    is_activated: !user.resigned,
    is_exited: false,
    is_unjoin: false,
  };
  if (may("department_ids")) profile.department_ids = departments;
  if (user.leader_open_id) profile.leader_user_id = convertOpenId(ctx, user.leader_open_id, type);
  Object.assign(profile, {
    city: user.city,
    country: user.country,
    work_station: "",
    join_time: user.join_time,
    is_tenant_manager: user === ctx.users[0],
    employee_no: user.employee_no,
    employee_type: 1,
  });
  if (may("orders")) {
    profile.orders = [{
      department_id: departments[0],
      user_order: 0,
      department_order: 0,
      is_primary_dept: true,
    }];
  }
  if (user.time_zone !== undefined) profile.time_zone = user.time_zone;
  profile.job_title = user.job_title;
  return profile;
}
