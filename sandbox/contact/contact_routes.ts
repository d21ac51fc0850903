/**
 * The contact routes of the sandbox: user search (search v1) and one user's profile
 * (contact v3 `users/:user_id`).
 *
 * Search v1 is not in the Node SDK; it follows Lark's "搜索用户" doc
 * (open.feishu.cn/document/ukTMukTMukTM/uMTM4UjLzEDO14yMxgTN). The profile follows the SDK's
 * `contact.v3.user.get` types and Lark's contact-v3 user get doc, including its field
 * permissions: a user token sees `email`, `mobile` and `user_id` only with the scope that
 * unlocks each field. `time_zone` (an IANA name, absent when the person set none) is in the
 * SDK's types but not in the doc's field list, which names no scope for it: the sandbox gives
 * it with the profile's base scopes.
 *
 * @module
 */

import { findUser, type Incoming, larkOk, type SandboxContext } from "../core/context.ts";
import { convertOpenId, userIdType } from "../im/im_common.ts";
import {
  CONTACT_ERRORS,
  fieldViolation,
  larkFail,
  notAnOption,
  required,
} from "../core/lark_errors.ts";
import type { Caller, Route, RouteScopes } from "../core/route.ts";
import type { SeedUser } from "../core/seed_data.ts";

/**
 * A user's profile: lark-cli `+get-user` declares contact:user.basic_profile:readonly for users
 * and contact:user.base:readonly / contact:contact.base:readonly for bots; Lark's doc adds
 * contact:contact:readonly_as_app (and contact:contact:readonly and
 * contact:contact:access_as_app, which lark-cli's scope registry does not know).
 */
export const USER_GET_SCOPES: RouteScopes = {
  user: [
    "contact:user.basic_profile:readonly",
    "contact:user.base:readonly",
    "contact:contact.base:readonly",
  ],
  bot: [
    "contact:user.base:readonly",
    "contact:contact.base:readonly",
    "contact:contact:readonly_as_app",
  ],
};

/** The contact routes. */
export const CONTACT_ROUTES: Route[] = [
  {
    method: "GET",
    pattern: /^\/open-apis\/search\/v1\/user$/,
    scopes: { user: ["contact:user:search"] },
    userOnly: true,
    handle: searchUser,
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

function getUser(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  [userId]: string[],
): Response {
  const type = userIdType(incoming.url);
  if (type instanceof Response) return type;
  const departmentType = incoming.url.searchParams.get("department_id_type") ??
    "open_department_id";
  if (!DEPARTMENT_ID_TYPES.includes(departmentType)) {
    return notAnOption("department_id_type", departmentType, DEPARTMENT_ID_TYPES);
  }
  if (userId.trim() === "") return larkFail(CONTACT_ERRORS.invalidParam);
  const user = findUser(ctx, userId, type);
  if (!user) return larkFail(CONTACT_ERRORS.invalidUserId);
  // Tenant tokens: the sandbox's app has every field permission.
  const scopes = caller.record.kind === "user" ? caller.record.scopes : undefined;
  const may = (scope: string) => !scopes || scopes.includes(scope);
  const departments = user.department_ids.map((id) =>
    departmentType === "open_department_id" ? id : `D${id.slice(3, 11)}`
  );
  const profile: Record<string, unknown> = { union_id: user.union_id };
  if (may("contact:user.employee_id:readonly")) profile.user_id = user.user_id;
  Object.assign(profile, { open_id: user.open_id, name: user.name, en_name: user.en_name });
  if (may("contact:user.email:readonly")) profile.email = user.email;
  if (may("contact:user.phone:readonly")) profile.mobile = user.mobile;
  Object.assign(profile, {
    mobile_visible: true,
    gender: user.gender,
    avatar: avatarOf(user),
    status: {
      is_frozen: false,
      is_resigned: user.resigned,
      is_activated: !user.resigned,
      is_exited: false,
      is_unjoin: false,
    },
    department_ids: departments,
  });
  if (user.leader_open_id) profile.leader_user_id = convertOpenId(ctx, user.leader_open_id, type);
  Object.assign(profile, {
    city: user.city,
    country: user.country,
    work_station: "",
    join_time: user.join_time,
    is_tenant_manager: user === ctx.users[0],
    employee_no: user.employee_no,
    employee_type: 1,
    orders: [{
      department_id: departments[0],
      user_order: 0,
      department_order: 0,
      is_primary_dept: true,
    }],
    ...(user.time_zone === undefined ? {} : { time_zone: user.time_zone }),
    job_title: user.job_title,
  });
  return larkOk({ user: profile });
}
