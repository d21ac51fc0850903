/**
 * Scopes end to end: a plain `auth login` asks for exactly the user scopes the shortcuts
 * declare, a sign-in that is granted less says which scopes and which shortcuts, and
 * `auth check` checks a shortcut by name. `auth check` runs as a real hark process (the wiring);
 * the shortcuts after a plain sign-in run in process (the same command code).
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

Deno.test("a plain sign-in reads what +get-user, the listings' sender names and +find-time show", async () => {
  // The sandbox refuses contact:user.basic_profile:readonly on users/:user_id, as Lark's user get
  // doc does: a sign-in must carry one of its API permissions and the field permissions.
  const world = await startWorld({ sandbox: { startDay: "2026-03-02" } });
  try {
    const login = await world.signIn();
    assert.equal(login.code, 0, login.stderr);
    const person = world.sb.users[4];
    const shown = await world.runInProcess([
      "contact",
      "+get-user",
      "--user-id",
      person.open_id,
      "--json",
    ]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.stderr, "", "no field is missing");
    const profile = JSON.parse(shown.stdout);
    assert.equal(profile.name, person.name);
    assert.equal(profile.email, person.email);
    assert.equal(profile.user_id, person.user_id);
    assert.deepEqual(profile.department_ids, person.department_ids);

    // +get (mget) leaves senders unnamed: basic_batch names them, ten people a call.
    const chat = world.sb.chats[0].chat_id;
    const listed = await world.runInProcess([
      "im",
      "+messages",
      "--chat-id",
      chat,
      "--limit",
      "30",
      "--json",
    ]);
    assert.equal(listed.code, 0, listed.stderr);
    const ids = JSON.parse(listed.stdout).map((m: { message_id: string }) => m.message_id);
    await world.clearRequests();
    const got = await world.runInProcess(["im", "+get", "--message-id", ids.join(","), "--json"]);
    assert.equal(got.code, 0, got.stderr);
    assert.doesNotMatch(got.stderr, /sender names/);
    const rows: { sender: { id: string; sender_type: string; sender_name?: string } }[] = JSON
      .parse(got.stdout);
    const people = new Set(
      rows.filter((r) => r.sender.sender_type === "user").map((r) => r.sender.id),
    );
    assert.ok(people.size > 1, "several people wrote in the chat");
    for (const row of rows.filter((r) => r.sender.sender_type === "user")) {
      assert.ok(row.sender.sender_name, `${row.sender.id} has no name`);
    }
    const lookups = (await world.requestLog()).filter((r) => r.path.includes("/contact/v3/"));
    assert.deepEqual(
      lookups.map((r) => `${r.method} ${r.path}`),
      Array(Math.ceil(people.size / 10)).fill("POST /open-apis/contact/v3/users/basic_batch"),
    );

    // +find-time reads each person's zone from their profile.
    const auckland = world.sb.users.find((u) => u.time_zone === "Pacific/Auckland")!;
    const found = await world.runInProcess([
      "calendar",
      "+find-time",
      "--attendees",
      auckland.open_id,
      "--duration",
      "30m",
      "--working-hours",
      "07:00-21:00",
      "--start",
      "2026-03-09",
      "--end",
      "2026-03-13",
      "--json",
    ]);
    assert.equal(found.code, 0, found.stderr);
    assert.doesNotMatch(found.stderr, /time zone/);
    assert.equal(JSON.parse(found.stdout)[0].attendee_zones[auckland.open_id], "Pacific/Auckland");
  } finally {
    await world.close();
  }
});

Deno.test("a plain sign-in can send and reply as the user: Lark needs im:message beside send_as_user", async () => {
  // Lark's message create and reply docs: as a user, im:message and im:message.send_as_user both.
  const world = await startWorld();
  try {
    const login = await world.signIn();
    assert.equal(login.code, 0, login.stderr);
    assert.ok(JSON.parse(login.stdout).scopes.includes("im:message"));
    const chat = world.sb.chats[0].chat_id;
    const sent = await world.runInProcess([
      "im",
      "+send",
      "--chat-id",
      chat,
      "--text",
      "hi",
      "--json",
    ]);
    assert.equal(sent.code, 0, sent.stderr);
    const id = JSON.parse(sent.stdout).message_id;
    const replied = await world.runInProcess([
      "im",
      "+reply",
      "--message-id",
      id,
      "--text",
      "re",
      "--json",
    ]);
    assert.equal(replied.code, 0, replied.stderr);
    const check = await world.runInProcess(["auth", "check", "im", "+send", "--json"]);
    assert.equal(check.code, 0, check.stderr);
    assert.deepEqual(JSON.parse(check.stdout).requested, ["im:message", "im:message.send_as_user"]);
    // The upload goes with the app's tenant token: a sign-in cannot show the app's im:resource.
    assert.deepEqual(JSON.parse(check.stdout).tenant_calls, [{
      shortcut: "im +send",
      when: "--image, --file, --audio, --video or --cover (the upload)",
      scopes: ["im:resource"],
    }]);
    assert.match(
      check.stderr,
      /^warning: With --image, --file, --audio, --video or --cover \(the upload\), im \+send calls Lark with the app's tenant token: the app must have im:resource enabled/,
    );
  } finally {
    await world.close();
  }
});
