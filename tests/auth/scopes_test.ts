/**
 * Scopes end to end: a plain `auth login` asks for exactly the user scopes the shortcuts
 * declare, a sign-in that is granted less says which scopes and which shortcuts, and
 * `auth check` checks a shortcut by name.
 */

import assert from "node:assert/strict";
import { loadServices, userScopesOf } from "../../src/shortcuts/services.ts";
import { startWorld } from "../support/world.ts";

Deno.test("auth login asks for the union of the shortcuts' user scopes, and offline_access", async () => {
  const world = await startWorld();
  try {
    const login = await world.signIn();
    assert.equal(login.code, 0, login.stderr);
    const device = (await world.requestLog()).find((r) =>
      r.path === "/oauth/v1/device_authorization"
    );
    const asked = (device?.body?.scope ?? "").split(" ").sort();
    const expected = [...userScopesOf(await loadServices()), "offline_access"].sort();
    assert.deepEqual(asked, expected);
    assert.ok(!asked.includes("im:message:send"), "a scope Lark does not know would fail it all");
    const result = JSON.parse(login.stdout);
    assert.deepEqual(result.not_granted, []);
    assert.doesNotMatch(login.stderr, /not granted/);
  } finally {
    await world.close();
  }
});

Deno.test("a sign-in granted less names the missing scopes and the shortcuts that will fail", async () => {
  const services = await loadServices();
  const all = userScopesOf(services);
  // The app lacks the search scope: Lark grants the rest and leaves it out.
  const world = await startWorld({
    sandbox: { appScopes: [...all.filter((s) => s !== "contact:user:search"), "offline_access"] },
  });
  try {
    const login = await world.signIn();
    assert.equal(login.code, 0, login.stderr);
    const result = JSON.parse(login.stdout);
    assert.deepEqual(result.not_granted, ["contact:user:search"]);
    assert.deepEqual(result.affected_shortcuts, ["contact +search-user"]);
    assert.match(login.stderr, /not granted: contact:user:search; these shortcuts will fail/);
    assert.match(login.stderr, /contact \+search-user/);

    const ok = await world.run(["auth", "check", "calendar", "+agenda", "--json"]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(JSON.parse(ok.stdout).requested, ["calendar:calendar.event:read"]);
    const lacking = await world.run(["auth", "check", "contact", "+search-user", "--json"]);
    assert.equal(lacking.code, 1);
    const error = JSON.parse(lacking.stderr).error;
    assert.equal(error.type, "permission");
    assert.match(error.message, /contact:user:search/);
    const unknown = await world.run(["auth", "check", "calendar", "+agendaa", "--json"]);
    assert.equal(unknown.code, 2);
    assert.match(JSON.parse(unknown.stderr).error.recovery.suggestion, /\+agenda/);
  } finally {
    await world.close();
  }
});
