import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import { loadServices } from "../shortcuts/services.ts";
import { type AnyShortcut, defineShortcut } from "../shortcuts/definition.ts";
import { param } from "../shortcuts/param.ts";
import { TIME_INPUT_FORMS } from "../time/mod.ts";
import {
  botOnly,
  everyType,
  fakeGroups,
  keyed,
  remove,
  rewrite,
  save,
  streamed,
  write,
} from "../../tests/support/fake_shortcuts.ts";
import {
  argumentNameOf,
  flagsToArguments,
  type McpTool,
  shortcutTool,
  toolNameOf,
} from "./tool_schema.ts";

const OPTIONS = { timeZone: "Europe/Paris" };
const EVERY_TYPE_ARGUMENTS = [
  "name",
  "count",
  "loud",
  "color",
  "when",
  "notes_file",
  "timezone",
];

/**
 * A strict JSON Schema validator: an unknown keyword or a bad schema fails to compile. One for
 * the file: building an Ajv compiles its meta-schemas, and one per schema made the registry's
 * check take 14 s; a schema without `$id` is compiled on its own and as strictly all the same.
 */
const AJV = new Ajv2020({ strict: true, allErrors: true });
function validator() {
  return AJV;
}

Deno.test("toolNameOf() and argumentNameOf() drop the plus sign and turn dashes into underscores", () => {
  assert.equal(toolNameOf({ service: "calendar", verb: "+agenda" }), "calendar_agenda");
  assert.equal(toolNameOf({ service: "contact", verb: "+search-user" }), "contact_search_user");
  assert.equal(argumentNameOf({ name: "chat-id" }), "chat_id");
  assert.equal(argumentNameOf({ name: "query" }), "query");
});

Deno.test("flagsToArguments() rewrites the shortcut's own flags and leaves others", () => {
  assert.equal(
    flagsToArguments("give one of --chat-id, --user-id (not --format); --as bot; --yes", [
      "chat-id",
      "user-id",
    ]),
    "give one of chat_id, user_id (not --format); as bot; yes",
  );
});

Deno.test("shortcutTool() maps every parameter type to JSON Schema", () => {
  const { tool, params, takesAs, takesDryRun, needsYes } = shortcutTool(everyType, OPTIONS);
  assert.equal(tool.name, "demo_every_type");
  assert.equal(tool.title, "hark demo +every-type");
  const props = tool.inputSchema.properties!;
  assert.deepEqual(Object.keys(props), [...EVERY_TYPE_ARGUMENTS, "as"]);
  assert.deepEqual(props.name, { type: "string", description: "a name" });
  assert.deepEqual(props.count, { type: "integer", description: "how many", default: 2 });
  assert.deepEqual(props.loud, { type: "boolean", description: "shout" });
  assert.deepEqual(props.color, { type: "string", description: "a colour", enum: ["red", "blue"] });
  assert.equal(props.when.type, "string");
  assert.equal(props.when.default, "today");
  assert.equal(
    props.when.description,
    `a moment; with name. Accepts ${TIME_INPUT_FORMS}; local times are read in timezone when ` +
      "given, else in Europe/Paris",
  );
  assert.equal(props.notes_file.type, "string");
  assert.equal(
    props.notes_file.description,
    "a notes file. Local files are off unless hark mcp runs with --files <folder>: until then " +
      "this argument is refused",
  );
  assert.equal(
    shortcutTool(everyType, { ...OPTIONS, files: "/data/files" }).tool.inputSchema.properties!
      .notes_file.description,
    'a notes file. A path on the machine hark runs on, inside "/data/files" (relative paths ' +
      "start there)",
  );
  assert.equal(
    shortcutTool(everyType, { ...OPTIONS, files: "/data/files" }).tool.inputSchema.properties!
      .name.description,
    "a name",
    "other arguments say nothing of files",
  );
  assert.deepEqual(props.as, {
    type: "string",
    enum: ["user", "bot"],
    default: "user",
    description: "who acts: user (the signed-in person) or bot (the app)",
  });
  assert.deepEqual(tool.inputSchema.required, ["name"]);
  assert.equal(tool.inputSchema.additionalProperties, false);
  assert.deepEqual([...params.keys()], EVERY_TYPE_ARGUMENTS);
  assert.equal(params.get("notes_file")?.name, "notes-file");
  assert.deepEqual([takesAs, takesDryRun, needsYes], [true, false, false]);
  assert.match(tool.description, /^Echo every kind of parameter \(see when\)\. /);
  assert.match(tool.description, /only reads and changes nothing/);
});

Deno.test("shortcutTool() hints and extra arguments follow the effect", () => {
  const read = shortcutTool(streamed, OPTIONS).tool;
  assert.deepEqual(read.annotations, {
    title: "hark demo +list",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  });
  assert.equal(read.inputSchema.required, undefined, "no required parameter, no empty list");
  assert.deepEqual(
    Object.keys(read.inputSchema.properties!),
    ["prefix", "limit", "page_token", "fields"],
    "user only: no as; a listing pages",
  );
  assert.match(read.inputSchema.properties!.prefix.description!, /^the ids' prefix$/);

  const posted = shortcutTool(write, OPTIONS);
  assert.deepEqual(posted.tool.annotations, {
    title: "hark demo +post",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  });
  assert.deepEqual(Object.keys(posted.tool.inputSchema.properties!), ["text", "as", "dry_run"]);
  assert.deepEqual(posted.tool.inputSchema.properties!.dry_run.default, false);
  assert.match(posted.tool.description, /pass dry_run: true first/);
  assert.match(posted.tool.description, /no further effect/);

  const removed = shortcutTool(remove, OPTIONS);
  assert.deepEqual(removed.tool.annotations, {
    title: "hark demo +remove",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  });
  assert.deepEqual(Object.keys(removed.tool.inputSchema.properties!), [
    "note_id",
    "dry_run",
    "yes",
  ]);
  assert.equal(removed.needsYes, true);
  assert.match(removed.tool.description, /runs only with yes: true/);
});

Deno.test("shortcutTool(): a tool that writes a file is no read-only tool; replacing needs yes", () => {
  const saved = shortcutTool(save, { ...OPTIONS, files: "/data/files" });
  assert.deepEqual(saved.tool.annotations, {
    title: "hark demo +save",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: true,
  });
  assert.deepEqual([saved.writesFiles, saved.needsYes, saved.replaceSwitches], [
    true,
    false,
    ["force"],
  ]);
  assert.deepEqual(Object.keys(saved.tool.inputSchema.properties!), [
    "output",
    "force",
    "dry_run",
    "yes",
  ]);
  assert.equal(
    saved.tool.inputSchema.properties!.yes.description,
    "confirm replacing a file already there (force: true): without yes: true no file is replaced",
  );
  assert.match(
    saved.tool.description,
    /writes a file on the machine hark runs on, only inside the folder the person gave hark and never a hidden one; it replaces a file already there only with force: true and yes: true/,
  );
});

Deno.test("shortcutTool(): a destructive write asks for yes; a keyed one says how retries go", () => {
  const rewritten = shortcutTool(rewrite, OPTIONS);
  assert.equal(rewritten.tool.annotations.destructiveHint, true);
  assert.equal(rewritten.needsYes, true);
  assert.equal(
    rewritten.tool.inputSchema.properties!.yes.description,
    "confirm the change, which may overwrite or remove data: without yes: true nothing is changed",
  );
  assert.match(
    rewritten.tool.description,
    /can overwrite or remove what was there with no way back: it runs only with yes: true/,
  );

  const said = shortcutTool(keyed, OPTIONS);
  assert.equal(said.keyArgument, "idempotency_key");
  assert.equal(said.tool.annotations.idempotentHint, true);
  assert.match(
    said.tool.description,
    /Identical calls within 10 minutes are applied once: unless idempotency_key is given, hark derives it from the arguments, the profile and the identity; give a new idempotency_key to do the same again on purpose\./,
  );
  assert.doesNotMatch(said.tool.description, /no further effect/);
  assert.match(
    said.tool.inputSchema.properties!.idempotency_key.description!,
    /^the idempotency key: the service applies one key once\. Default: derived from/,
  );
});

Deno.test("shortcutTool() drops as when the server fixes the identity", () => {
  const { tool, takesAs } = shortcutTool(everyType, { ...OPTIONS, identity: "bot" });
  assert.equal(takesAs, false);
  assert.equal(tool.inputSchema.properties!.as, undefined);
  assert.match(tool.description, /Acts as the app's bot\./);
  assert.match(shortcutTool(botOnly, OPTIONS).tool.description, /Acts as the app's bot\./);
  assert.match(
    shortcutTool(everyType, OPTIONS).tool.description,
    /Acts as the signed-in user; as: "bot" acts as the app's bot\./,
  );
});

Deno.test("shortcutTool() uses a shortcut's own yes parameter as the confirmation", () => {
  // A variant of a shortcut as the registry holds it: the parameters are a named list.
  const withYes: AnyShortcut = {
    ...remove,
    verb: "+purge",
    params: [...remove.params, { name: "yes", type: "bool", description: "do not ask" }],
  };
  const { tool, params } = shortcutTool(withYes, OPTIONS);
  assert.deepEqual(tool.inputSchema.properties!.yes, {
    type: "boolean",
    description: "do not ask",
  });
  assert.equal(params.get("yes")?.name, "yes");
});

Deno.test("shortcutTool() refuses two parameters with one argument name", () => {
  const clash = defineShortcut({
    service: "demo",
    verb: "+list",
    description: "List items page by page",
    examples: ["hark demo +list"],
    scopes: { user: ["demo:read"] },
    effect: "read",
    params: {
      "chat-id": param.string({ description: "a" }),
      chat_id: param.string({ description: "b" }),
    },
    requests: () => [],
  });
  assert.throws(
    () => shortcutTool(clash, OPTIONS),
    /demo \+list: two arguments are named "chat_id"/,
  );
});

function allTools(groups: Awaited<ReturnType<typeof loadServices>>): McpTool[] {
  return groups.flatMap((g) => g.shortcuts).flatMap((s) => [
    shortcutTool(s, OPTIONS).tool,
    shortcutTool(s, { ...OPTIONS, identity: "user" }).tool,
  ]);
}

Deno.test("every tool of the registry and of the fakes has a valid input schema", async () => {
  const tools = [...allTools(await loadServices()), ...allTools(fakeGroups())];
  assert.ok(tools.length >= 10);
  for (const tool of tools) {
    assert.match(tool.name, /^[a-z][a-z0-9_]{0,63}$/, tool.name);
    assert.ok(tool.description.length > 20, tool.name);
    const validate = validator().compile(tool.inputSchema);
    assert.equal(validate({}), (tool.inputSchema.required ?? []).length === 0, tool.name);
    assert.equal(validate({ no_such_argument: 1 }), false, tool.name);
    // Every result is an object: a page, the command's JSON, or a dry run's requests.
    const output = validator().compile(tool.outputSchema);
    assert.equal(output({ dry_run: true, requests: [{ method: "GET", url: "u" }] }), true);
    assert.equal(output({ items: [{ id: 1 }], has_more: false }), true, tool.name);
    assert.equal(output([]), false, tool.name);
    const recovery = { suggestion: "s", command: "hark x --help" };
    assert.equal(output({ error: { code: 2, type: "t", message: "m", recovery } }), true);
    for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
      if (schema.default === undefined) continue;
      const one = { type: "object", properties: { [name]: schema } };
      assert.ok(
        validator().compile(one)({ [name]: schema.default }),
        `${tool.name}.${name}: default`,
      );
    }
  }
});

Deno.test("a listing tool's output schema takes a page and nothing else; other tools take any object", () => {
  const listing = validator().compile(shortcutTool(streamed, OPTIONS).tool.outputSchema);
  assert.equal(listing({ items: [], has_more: true, page_token: "h1.x" }), true);
  assert.equal(listing({ items: [] }), false, "has_more is always there");
  assert.equal(listing({ items: [], has_more: false, total: 3 }), false);
  // A tool error's envelope, whole.
  const error = { code: 2, type: "validation", message: "m", recovery: { suggestion: "s" } };
  assert.equal(listing({ error }), false, "a recovery has a command");
  const object = validator().compile(shortcutTool(everyType, OPTIONS).tool.outputSchema);
  assert.equal(object({ name: "a" }), true);
});

Deno.test("the generated schemas accept what a caller sends and reject wrong types", () => {
  const validate = validator().compile(shortcutTool(everyType, OPTIONS).tool.inputSchema);
  assert.ok(validate({ name: "a", count: 3, loud: true, color: "red", when: "+2d", as: "bot" }));
  assert.equal(validate({ name: "a", count: 1.5 }), false);
  assert.equal(validate({ name: "a", loud: "yes" }), false);
  assert.equal(validate({ name: "a", color: "green" }), false);
  assert.equal(validate({ name: "a", as: "admin" }), false);
  assert.equal(validate({ count: 1 }), false);
});
