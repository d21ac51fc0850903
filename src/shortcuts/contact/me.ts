/**
 * `hark contact +me`: the signed-in user (`GET /open-apis/authen/v1/user_info`).
 *
 * @module
 */

import type { ApiRequest } from "../../http/request.ts";
import { defineShortcut } from "../definition.ts";

/** The request; a user token says who it belongs to without any scope. */
export const USER_INFO_REQUEST: ApiRequest = {
  method: "GET",
  path: "/open-apis/authen/v1/user_info",
};

/** `contact +me`. */
export const me = defineShortcut({
  service: "contact",
  verb: "+me",
  description: "Show who you are signed in as: name, email and ids",
  examples: ["hark contact +me", "hark contact +me --json"],
  identities: ["user"],
  scopes: { user: [] },
  effect: "read",
  params: {},
  requests: () => [USER_INFO_REQUEST],
  run: (_input, client) => client.request(USER_INFO_REQUEST),
  columns: [
    { header: "NAME", value: "name", priority: 5 },
    { header: "OPEN ID", value: "open_id", kind: "id", priority: 4 },
    { header: "EMAIL", value: "email", kind: "id", priority: 3 },
    { header: "USER ID", value: "user_id", kind: "id", priority: 2 },
    { header: "UNION ID", value: "union_id", kind: "id", priority: 1 },
  ],
});
