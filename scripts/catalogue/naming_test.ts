import assert from "node:assert/strict";
import { buildRoot } from "../../src/cli/root.ts";
import {
  commandNames,
  HARK_COMMANDS,
  kebab,
  LARK_CLI_RESOURCES,
  SHARED_SERVICE_COMMANDS,
  unusedLarkCliNames,
} from "./naming.ts";

Deno.test("kebab() turns id parts into command words", () => {
  assert.equal(kebab("calendarEvent"), "calendar-event");
  assert.equal(kebab("instanceView"), "instance-view");
  assert.equal(kebab("speech_to_text"), "speech-to-text");
  assert.equal(kebab("batchGetID"), "batch-get-id");
  assert.equal(kebab("getV2"), "get-v2");
});

Deno.test("commandNames() applies the rule: kebab-case, lark-cli's name with the rule's as alias", () => {
  const names = commandNames([
    "calendar.v4.calendarEvent.instanceView",
    "calendar.v4.calendarAcl.create",
    "speech_to_text.v1.speech.fileRecognize",
  ]);
  assert.deepEqual(names.get("calendar.v4.calendarEvent.instanceView"), {
    command: ["calendar", "events", "instance-view"],
    resourceAliases: ["calendar-event"],
  });
  assert.deepEqual(names.get("calendar.v4.calendarAcl.create"), {
    command: ["calendar", "calendar-acl", "create"],
    resourceAliases: [],
  });
  assert.deepEqual(names.get("speech_to_text.v1.speech.fileRecognize")?.command, [
    "speech-to-text",
    "speech",
    "file-recognize",
  ]);
});

Deno.test("commandNames() marks a resource of an older version only when a newer one has it too", () => {
  const names = commandNames([
    "task.v1.task.create",
    "task.v2.task.create",
    "task.v1.taskCollaborator.list",
    "im.v1.message.create",
    "im.v2.feedCard.patch",
  ], {});
  assert.deepEqual(names.get("task.v1.task.create")?.command, ["task", "task-v1", "create"]);
  assert.deepEqual(names.get("task.v2.task.create")?.command, ["task", "task", "create"]);
  assert.deepEqual(names.get("task.v1.taskCollaborator.list")?.command[1], "task-collaborator");
  assert.deepEqual(names.get("im.v1.message.create")?.command[1], "message");
  assert.deepEqual(names.get("im.v2.feedCard.patch")?.command[1], "feed-card");
});

Deno.test("commandNames() gives a service named like a hark command the -api suffix", () => {
  const names = commandNames(["auth.v3.auth.whoAmI", "schema.v1.thing.get"], {});
  assert.deepEqual(names.get("auth.v3.auth.whoAmI")?.command, ["auth-api", "auth", "who-am-i"]);
  assert.deepEqual(names.get("schema.v1.thing.get")?.command[0], "schema-api");
});

Deno.test("commandNames() fails on a clash or a malformed id; unusedLarkCliNames() finds stale names", () => {
  assert.throws(
    () => commandNames(["x.v1.aB.get", "x.v1.a_b.get"], {}),
    /"hark x a-b" would name both x\.v1\.aB and x\.v1\.a_b/,
  );
  assert.throws(
    () => commandNames(["x.v1.thing.get", "x.v1.other.get"], { "x.v1.other": "thing" }),
    /would name both/,
  );
  assert.throws(() => commandNames(["x.v1.get"], {}), /expected <service>\.<version>/);
  assert.deepEqual(unusedLarkCliNames(["x.v1.a.get"], { "x.v1.b": "bs", "x.v1.a": "as" }), [
    "x.v1.b",
  ]);
  assert.throws(() => commandNames(["x.v1.a.help"], {}), /help/);
});

Deno.test("HARK_COMMANDS names every top-level command of hark", () => {
  const root = buildRoot([]);
  const names = (root.commands ?? []).map((c) => c.name)
    .filter((n) => !SHARED_SERVICE_COMMANDS.includes(n)).sort();
  assert.deepEqual([...HARK_COMMANDS].filter((n) => n !== "help").sort(), names);
});

Deno.test("LARK_CLI_RESOURCES names are kebab-case words", () => {
  for (const [id, name] of Object.entries(LARK_CLI_RESOURCES)) {
    assert.match(id, /^[a-z_]+\.v\d+\.[A-Za-z]+$/);
    assert.match(name, /^[a-z0-9]+(-[a-z0-9]+)*$/, id);
  }
});
