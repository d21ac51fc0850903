import assert from "node:assert/strict";
import { KNOWN_SCOPES, OFFLINE_ACCESS, unknownScopes } from "./lark_scopes.ts";

Deno.test("KNOWN_SCOPES holds every scope the calendar, contact and IM routes and shortcuts use", () => {
  const needed = [
    // calendar (lark-cli shortcuts/calendar, meta_data.json)
    "calendar:calendar",
    "calendar:calendar:read",
    "calendar:calendar:readonly",
    "calendar:calendar.calendar:readonly",
    "calendar:calendar.event:read",
    "calendar:calendar.event:create",
    "calendar:calendar.event:update",
    "calendar:calendar.event:delete",
    "calendar:calendar.event:writeonly",
    "calendar:calendar.event:reply",
    "calendar:calendar.free_busy:read",
    // contact (shortcuts/contact)
    "contact:user:search",
    "contact:user.base:readonly",
    "contact:user.basic_profile:readonly",
    "contact:contact.base:readonly",
    // im (shortcuts/im: send, reply, messages list/get, resources, chats)
    "im:message",
    "im:message.send_as_user",
    "im:message:send_as_bot",
    "im:message:readonly",
    "im:message.group_msg",
    "im:message.group_msg:get_as_user",
    "im:message.p2p_msg:get_as_user",
    "im:message.p2p_msg:readonly",
    "im:chat",
    "im:chat:read",
    "im:chat:readonly",
    "im:chat:create",
    "im:chat:create_by_user",
    "im:chat:update",
    "im:resource",
    "im:resource:upload",
    "search:message",
    OFFLINE_ACCESS,
  ];
  assert.deepEqual(needed.filter((s) => !KNOWN_SCOPES.has(s)), []);
  assert.ok(KNOWN_SCOPES.size > 1100);
});

Deno.test("unknownScopes() names each unknown scope once, in order", () => {
  assert.deepEqual(
    unknownScopes(["im:message:send", "calendar:calendar.event:read", "im:message:send", "x:y"]),
    ["im:message:send", "x:y"],
  );
  assert.deepEqual(unknownScopes([]), []);
});
