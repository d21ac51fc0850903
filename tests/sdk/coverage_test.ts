/**
 * The SDK conformance suite covers every endpoint hark calls: each endpoint in {@link ENDPOINTS}
 * names the test of this folder that checks it against the official SDK (or, for what the SDK
 * lacks, against the documented shape), and every `/open-apis/` path written in hark's
 * shortcuts and sign-in code belongs to one of them. A new endpoint without a conformance test
 * fails here.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SDK_TESTS = fileURLToPath(new URL("./", import.meta.url));

/** One endpoint hark calls: method, path (`:name` for a path parameter), its conformance test. */
interface Endpoint {
  method: string;
  path: string;
  test: string;
}

const ENDPOINTS: Endpoint[] = [
  // Sign-in (src/auth).
  {
    method: "POST",
    path: "/oauth/v1/device_authorization",
    test: "SDK request: device authorization and the v2 token endpoint",
  },
  {
    method: "POST",
    path: "/open-apis/authen/v2/oauth/token",
    test: "SDK request: device authorization and the v2 token endpoint",
  },
  {
    method: "POST",
    path: "/open-apis/auth/v3/tenant_access_token/internal",
    test: "SDK: the tenant token the SDK fetches itself works",
  },
  {
    method: "GET",
    path: "/open-apis/authen/v1/user_info",
    test: "SDK: user_info with a device-flow user token",
  },
  // Calendar.
  {
    method: "GET",
    path: "/open-apis/calendar/v4/calendars",
    test: "SDK: calendars list, get and primary",
  },
  {
    method: "POST",
    path: "/open-apis/calendar/v4/calendars/:calendar_id/events",
    test: "SDK: event create, get, patch, instance_view and delete",
  },
  {
    method: "GET",
    path: "/open-apis/calendar/v4/calendars/:calendar_id/events/:event_id",
    test: "SDK: event create, get, patch, instance_view and delete",
  },
  {
    method: "PATCH",
    path: "/open-apis/calendar/v4/calendars/:calendar_id/events/:event_id",
    test: "SDK: event create, get, patch, instance_view and delete",
  },
  {
    method: "DELETE",
    path: "/open-apis/calendar/v4/calendars/:calendar_id/events/:event_id",
    test: "SDK: event create, get, patch, instance_view and delete",
  },
  {
    method: "GET",
    path: "/open-apis/calendar/v4/calendars/:calendar_id/events/instance_view",
    test: "SDK: event create, get, patch, instance_view and delete",
  },
  {
    method: "POST",
    path: "/open-apis/calendar/v4/calendars/:calendar_id/events/:event_id/attendees",
    test: "SDK: attendees create, list (and its iterator), batch_delete and reply",
  },
  {
    method: "GET",
    path: "/open-apis/calendar/v4/calendars/:calendar_id/events/:event_id/attendees",
    test: "SDK: attendees create, list (and its iterator), batch_delete and reply",
  },
  {
    method: "POST",
    path: "/open-apis/calendar/v4/calendars/:calendar_id/events/:event_id/attendees/batch_delete",
    test: "SDK: attendees create, list (and its iterator), batch_delete and reply",
  },
  {
    method: "POST",
    path: "/open-apis/calendar/v4/calendars/:calendar_id/events/:event_id/reply",
    test: "SDK: attendees create, list (and its iterator), batch_delete and reply",
  },
  {
    method: "POST",
    path: "/open-apis/calendar/v4/freebusy/list",
    test: "SDK: freebusy list and batch",
  },
  {
    method: "POST",
    path: "/open-apis/calendar/v4/freebusy/room_find",
    test: "SDK request: freebusy room_find and suggestion (not in the SDK)",
  },
  {
    method: "POST",
    path: "/open-apis/calendar/v4/freebusy/suggestion",
    test: "SDK request: freebusy room_find and suggestion (not in the SDK)",
  },
  // Contact.
  {
    method: "GET",
    path: "/open-apis/contact/v3/users/:user_id",
    test: "SDK: contact user get by every id type",
  },
  {
    method: "GET",
    path: "/open-apis/search/v1/user",
    test: "SDK request: search v1 user (not in the SDK)",
  },
  {
    method: "POST",
    path: "/open-apis/contact/v3/users/batch_get_id",
    test: "SDK: contact user batchGetId turns emails into open ids",
  },
  // IM.
  {
    method: "POST",
    path: "/open-apis/im/v1/messages",
    test: "SDK: message create, reply in thread, list (chat and thread), get and mget",
  },
  {
    method: "GET",
    path: "/open-apis/im/v1/messages",
    test: "SDK: message create, reply in thread, list (chat and thread), get and mget",
  },
  {
    method: "GET",
    path: "/open-apis/im/v1/messages/:message_id",
    test: "SDK: message create, reply in thread, list (chat and thread), get and mget",
  },
  {
    method: "GET",
    path: "/open-apis/im/v1/messages/mget",
    test: "SDK: message create, reply in thread, list (chat and thread), get and mget",
  },
  {
    method: "POST",
    path: "/open-apis/im/v1/messages/:message_id/reply",
    test: "SDK: message create, reply in thread, list (chat and thread), get and mget",
  },
  {
    method: "GET",
    path: "/open-apis/im/v1/messages/:message_id/resources/:file_key",
    test: "SDK: image and file create, and message resource get",
  },
  {
    method: "POST",
    path: "/open-apis/im/v1/images",
    test: "SDK: image and file create, and message resource get",
  },
  {
    method: "POST",
    path: "/open-apis/im/v1/files",
    test: "SDK: image and file create, and message resource get",
  },
  { method: "GET", path: "/open-apis/im/v1/chats", test: "SDK: chat list, search, create and get" },
  {
    method: "GET",
    path: "/open-apis/im/v1/chats/search",
    test: "SDK: chat list, search, create and get",
  },
  {
    method: "POST",
    path: "/open-apis/im/v1/chats",
    test: "SDK: chat list, search, create and get",
  },
  // Events (src/events): the long connection's endpoint, then its WebSocket.
  {
    method: "POST",
    path: "/callback/ws/endpoint",
    test: "SDK: the WSClient receives and answers the sandbox's events, whole and in parts",
  },
  {
    method: "PUT",
    path: "/open-apis/im/v1/chats/:chat_id",
    test: "SDK: chat update, and chat members get, create and delete",
  },
  {
    method: "GET",
    path: "/open-apis/im/v1/chats/:chat_id/members",
    test: "SDK: chat update, and chat members get, create and delete",
  },
  {
    method: "POST",
    path: "/open-apis/im/v1/chats/:chat_id/members",
    test: "SDK: chat update, and chat members get, create and delete",
  },
  {
    method: "DELETE",
    path: "/open-apis/im/v1/chats/:chat_id/members",
    test: "SDK: chat update, and chat members get, create and delete",
  },
  {
    method: "POST",
    path: "/open-apis/im/v1/messages/search",
    test: "SDK request: message search (not in the SDK)",
  },
  {
    method: "POST",
    path: "/open-apis/im/v1/chat_p2p/batch_query",
    test: "SDK request: the one-to-one chat lookup (not in the SDK)",
  },
  {
    method: "POST",
    path: "/open-apis/im/v2/chats/search",
    test: "SDK request: chat search v2 with filters (not in the SDK)",
  },
  {
    method: "POST",
    path: "/open-apis/im/v1/messages/:message_id/reactions",
    test: "SDK: reactions, pins, forward, read users, urgent and recall",
  },
  {
    method: "GET",
    path: "/open-apis/im/v1/messages/:message_id/reactions",
    test: "SDK: reactions, pins, forward, read users, urgent and recall",
  },
  {
    method: "DELETE",
    path: "/open-apis/im/v1/messages/:message_id/reactions/:reaction_id",
    test: "SDK: reactions, pins, forward, read users, urgent and recall",
  },
  {
    method: "POST",
    path: "/open-apis/im/v1/pins",
    test: "SDK: reactions, pins, forward, read users, urgent and recall",
  },
  {
    method: "GET",
    path: "/open-apis/im/v1/pins",
    test: "SDK: reactions, pins, forward, read users, urgent and recall",
  },
  {
    method: "DELETE",
    path: "/open-apis/im/v1/pins/:message_id",
    test: "SDK: reactions, pins, forward, read users, urgent and recall",
  },
  {
    method: "POST",
    path: "/open-apis/im/v1/messages/:message_id/forward",
    test: "SDK: reactions, pins, forward, read users, urgent and recall",
  },
  {
    method: "DELETE",
    path: "/open-apis/im/v1/messages/:message_id",
    test: "SDK: reactions, pins, forward, read users, urgent and recall",
  },
  {
    method: "GET",
    path: "/open-apis/im/v1/messages/:message_id/read_users",
    test: "SDK: reactions, pins, forward, read users, urgent and recall",
  },
  {
    method: "PATCH",
    path: "/open-apis/im/v1/messages/:message_id/urgent_app",
    test: "SDK: reactions, pins, forward, read users, urgent and recall",
  },
  {
    method: "PATCH",
    path: "/open-apis/im/v1/messages/:message_id/urgent_sms",
    test: "SDK: reactions, pins, forward, read users, urgent and recall",
  },
  {
    method: "PATCH",
    path: "/open-apis/im/v1/messages/:message_id/urgent_phone",
    test: "SDK: reactions, pins, forward, read users, urgent and recall",
  },
];

/** The non-test source files of the given folders. */
async function sources(...folders: string[]): Promise<string[]> {
  const files: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) files.push(path);
    }
  };
  for (const folder of folders) await walk(join(ROOT, folder));
  return files;
}

/** The paths written in code (not in comments): string and template literals, holes as `:x`. */
function writtenPaths(text: string): string[] {
  const code = text.split("\n").filter((line) => !/^\s*(\*|\/\/)/.test(line)).join("\n");
  return [...code.matchAll(/["`](\/open-apis\/[^"`]*)["`]/g)].map((m) =>
    m[1].replace(/\$\{[^}]*\}/g, ":x")
  );
}

/** Whether `written` (possibly a prefix that code extends) fits the endpoint's path. */
function fits(written: string, endpoint: string): boolean {
  const a = written.replace(/\/$/, "").split("/");
  const b = endpoint.split("/");
  if (a.length > b.length) return false;
  return a.every((part, i) => part === b[i] || b[i].startsWith(":") || part === ":x");
}

Deno.test("the SDK conformance suite names a test for every endpoint hark calls", async () => {
  const titles: string[] = [];
  for await (const entry of Deno.readDir(SDK_TESTS)) {
    if (!entry.name.endsWith("_test.ts")) continue;
    const text = await Deno.readTextFile(join(SDK_TESTS, entry.name));
    titles.push(...[...text.matchAll(/Deno\.test\(\s*"([^"]+)"/g)].map((m) => m[1]));
  }
  for (const endpoint of ENDPOINTS) {
    assert.ok(
      titles.some((title) => title.startsWith(endpoint.test)),
      `${endpoint.method} ${endpoint.path}: no test "${endpoint.test}…" in tests/sdk`,
    );
  }
  const unlisted: string[] = [];
  for (const file of await sources("src/shortcuts", "src/auth")) {
    for (const path of writtenPaths(await Deno.readTextFile(file))) {
      if (!ENDPOINTS.some((e) => fits(path, e.path))) {
        unlisted.push(`${relative(ROOT, file)}: ${path}`);
      }
    }
  }
  assert.deepEqual(unlisted, [], "endpoints hark calls without a conformance test");
});
