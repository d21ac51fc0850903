import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { createTestContext } from "../../../tests/support/test_context.ts";
import { buildRoot } from "../root.ts";
import { buildSchema, type HarkSchema, selectSchema, type ShortcutSchema } from "./describe.ts";
import { runSchema } from "./run_schema.ts";

const root = buildRoot();

Deno.test("buildSchema() lists global flags, system commands and every shortcut", async () => {
  const schema = await buildSchema(root);
  assert.equal(schema.name, "hark");
  assert.ok(schema.global_options.some((o) => o.name === "dry-run" && o.type === "bool"));
  assert.deepEqual(
    schema.global_options.find((o) => o.name === "as")?.allowed,
    ["user", "bot"],
  );
  assert.ok(schema.commands.some((c) => c.name === "config"));
  assert.ok(schema.commands.some((c) => c.name === "schema"));
  assert.ok(!schema.commands.some((c) => c.name === "calendar"), "services are listed apart");
  assert.deepEqual(
    schema.services.map((s) => [s.name, s.shortcuts.map((x) => x.verb)]),
    [
      ["calendar", [
        "+agenda",
        "+calendars",
        "+create",
        "+delete",
        "+find-time",
        "+freebusy",
        "+get",
        "+room-find",
        "+rsvp",
        "+suggestion",
        "+update",
      ]],
      ["contact", ["+search-user", "+get-user", "+me"]],
      [
        "im",
        [
          "+send",
          "+reply",
          "+messages",
          "+messages-search",
          "+thread",
          "+get",
          "+download",
          "+reactions",
          "+reaction-add",
          "+reaction-remove",
          "+pins",
          "+pin",
          "+unpin",
          "+forward",
          "+recall",
          "+message-read-users",
          "+urgent",
          "+chats",
          "+chat-create",
          "+chat-update",
          "+chat-members",
          "+chat-members-add",
          "+chat-members-remove",
        ],
      ],
    ],
  );
});

Deno.test("the schema of a shortcut gives types, required, defaults, allowed, identities, scopes", async () => {
  const send = selectSchema(await buildSchema(root), "im", "+send") as ShortcutSchema;
  assert.deepEqual(send.identities, ["user", "bot"]);
  assert.deepEqual(send.scopes, {
    user: ["im:message.send_as_user", "im:message"],
    bot: ["im:message:send_as_bot"],
  });
  assert.equal(send.effect, "write");
  assert.equal(send.idempotent, true);
  const msgType = send.params.find((p) => p.name === "msg-type")!;
  assert.equal(msgType.type, "enum");
  assert.ok(msgType.allowed!.includes("interactive"));
  assert.equal(msgType.env, "HARK_IM_MSG_TYPE");
  // Parameters naming local files say so (hark mcp confines them to --files).
  assert.equal(send.params.find((p) => p.name === "file")?.local_path, "read");
  assert.equal(msgType.local_path, undefined);
  const download = selectSchema(await buildSchema(root), "im", "+download") as ShortcutSchema;
  assert.equal(download.params.find((p) => p.name === "output")?.local_path, "write");
  const agenda = selectSchema(await buildSchema(root), "calendar", "agenda") as ShortcutSchema;
  assert.deepEqual(agenda.params.find((p) => p.name === "calendar-id"), {
    name: "calendar-id",
    flag: "--calendar-id",
    type: "string",
    description: "the calendar",
    required: false,
    default: "primary",
    env: "HARK_CALENDAR_CALENDAR_ID",
  });
  const create = selectSchema(await buildSchema(root), "calendar", "+create") as ShortcutSchema;
  assert.equal(create.params.find((p) => p.name === "summary")?.required, true);
  const end = create.params.find((p) => p.name === "end");
  assert.equal(end?.required, false);
  assert.deepEqual(end?.required_unless, ["duration"]);
  assert.ok(create.examples.length > 0);
});

Deno.test("selectSchema() finds a service, a system command and a sub-command", async () => {
  const schema = await buildSchema(root);
  assert.equal((selectSchema(schema, "contact") as { name: string }).name, "contact");
  const config = selectSchema(schema, "config") as HarkSchema["commands"][number];
  assert.equal(config.name, "config");
  const set = selectSchema(schema, "config", "set") as HarkSchema["commands"][number];
  assert.equal(set.name, "config set");
  assert.ok(set.arguments.length > 0);
});

Deno.test("selectSchema() lists the known names for an unknown one", async () => {
  const schema = await buildSchema(root);
  assert.throws(
    () => selectSchema(schema, "mail"),
    (e: unknown) =>
      e instanceof ValidationError && /calendar, contact, im/.test(e.recovery.suggestion),
  );
  assert.throws(
    () => selectSchema(schema, "calendar", "+list"),
    (e: unknown) =>
      e instanceof ValidationError &&
      e.recovery.suggestion.includes("+agenda, +calendars, +create, +delete, +find-time"),
  );
});

Deno.test("runSchema() writes JSON to stdout", async () => {
  const out = createTestContext();
  await runSchema(out, root, ["calendar", "+freebusy"]);
  assert.equal(JSON.parse(out.stdout.text()).name, "calendar +freebusy");
});

Deno.test("the schema of +get-user gives both identities' scopes, the optional ones and Lark's alternatives", async () => {
  const getUser = selectSchema(await buildSchema(root), "contact", "+get-user") as ShortcutSchema;
  // Lark's contact-v3 user get doc: an API permission (any one of four) and the name's field
  // permission, as either identity; email, departments and user id each need their own.
  const read = ["contact:contact.base:readonly", "contact:user.base:readonly"];
  assert.deepEqual(getUser.scopes, { user: read, bot: read });
  const fields = [
    "contact:user.email:readonly",
    "contact:user.department:readonly",
    "contact:user.employee_id:readonly",
  ];
  assert.deepEqual(getUser.optional_scopes, { user: fields, bot: fields });
  assert.deepEqual(getUser.scope_alternatives?.["contact:contact.base:readonly"], [
    "contact:contact:readonly",
    "contact:contact:readonly_as_app",
    "contact:contact:access_as_app",
  ]);
  const messages = selectSchema(await buildSchema(root), "im", "+messages") as ShortcutSchema;
  assert.deepEqual(messages.optional_scopes, {
    user: ["contact:user.basic_profile:readonly"],
    bot: read,
  });
});

Deno.test("the schema of +send and +reply names the app's upload scope, whatever the identity", async () => {
  const schema = await buildSchema(root);
  for (const verb of ["+send", "+reply"]) {
    const shortcut = selectSchema(schema, "im", verb) as ShortcutSchema;
    // Lark's image and file create docs: the tenant token alone, im:resource or
    // im:resource:upload.
    assert.deepEqual(shortcut.tenant_calls, {
      when: "--image, --file, --audio, --video or --cover (the upload)",
      scopes: ["im:resource"],
    });
    assert.deepEqual(shortcut.scope_alternatives?.["im:resource"], ["im:resource:upload"]);
  }
});
