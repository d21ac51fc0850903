/**
 * The contact routes of the sandbox: user search.
 *
 * @module
 */

import { type Incoming, larkError, larkOk, type SandboxContext } from "./_context.ts";
import type { Route } from "./_route.ts";

/** Code for a field validation failure. */
export const FIELD_VALIDATION_FAILED = 99992402;

/** The contact routes. */
export const CONTACT_ROUTES: Route[] = [
  {
    method: "GET",
    pattern: /^\/open-apis\/search\/v1\/user$/,
    scopes: { user: ["contact:user:search"] },
    userOnly: true,
    handle: searchUser,
  },
];

function searchUser(ctx: SandboxContext, incoming: Incoming): Response {
  const q = incoming.url.searchParams;
  const invalid = (why: string) =>
    larkError(FIELD_VALIDATION_FAILED, `field validation failed: ${why}`);
  const query = (q.get("query") ?? "").trim().toLowerCase();
  if (query === "") return invalid("query is required");
  const sizeText = q.get("page_size") ?? "20";
  const pageSize = Number(sizeText);
  if (!/^\d+$/.test(sizeText) || pageSize < 1 || pageSize > 200) {
    return invalid(`page_size "${sizeText}" must be an integer from 1 to 200`);
  }
  const tokenText = q.get("page_token") ?? "";
  let offset = 0;
  if (tokenText !== "") {
    const m = /^p(\d+)$/.exec(safeAtob(tokenText));
    if (!m) return invalid(`page_token "${tokenText}" is invalid`);
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
      avatar: {
        avatar_72: `${u.avatar_url}?s=72`,
        avatar_240: `${u.avatar_url}?s=240`,
        avatar_640: `${u.avatar_url}?s=640`,
        avatar_origin: u.avatar_url,
      },
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
