import assert from "node:assert/strict";
import { PermissionError } from "../errors/mod.ts";
import { type AuthStatus, checkScopes } from "./auth_status.ts";
import { scopeGranted } from "./scopes.ts";

const signedIn = (scopes: string[]): AuthStatus => ({
  profile: "default",
  state: "valid",
  usable: true,
  identity: "user",
  source: "keychain",
  user: null,
  scopes,
  expires_at: null,
  refresh_expires_at: null,
  refreshable: true,
});

// Lark's contact-v3 user get doc: any one of four API permissions opens a profile.
const PROFILE = {
  "contact:contact.base:readonly": [
    "contact:contact:readonly",
    "contact:contact:readonly_as_app",
    "contact:contact:access_as_app",
  ],
};

Deno.test("scopeGranted() takes the scope, a read-write scope over it, or an alternative", () => {
  assert.ok(scopeGranted(["calendar:calendar"], "calendar:calendar:readonly"));
  assert.ok(!scopeGranted(["calendar:calendar:readonly"], "calendar:calendar"));
  const wanted = "contact:contact.base:readonly";
  assert.ok(!scopeGranted(["contact:contact:readonly"], wanted), "no alternative given");
  assert.ok(scopeGranted(["contact:contact:readonly"], wanted, PROFILE));
  assert.ok(scopeGranted(["contact:contact"], wanted, PROFILE), "read-write over an alternative");
  assert.ok(!scopeGranted(["contact:user.basic_profile:readonly"], wanted, PROFILE));
});

Deno.test("checkScopes() counts an alternative as the scope it stands for", () => {
  const wanted = ["contact:contact.base:readonly", "contact:user.base:readonly"];
  const granted = signedIn(["contact:contact:readonly_as_app", "contact:user.base:readonly"]);
  assert.deepEqual(checkScopes(granted, wanted, PROFILE).missing, []);
  assert.throws(
    () => checkScopes(granted, wanted),
    (e: unknown) =>
      e instanceof PermissionError && e.message.includes('"contact:contact.base:readonly"'),
  );
});
