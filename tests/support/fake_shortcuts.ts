/**
 * Small fake shortcut definitions for the MCP tests: every parameter type, each effect, a stream
 * and a shortcut that asks for confirmation, so the generator and the runner are tested against
 * definitions that are not the registry's.
 *
 * @module
 */

import { ValidationError } from "../../src/errors/mod.ts";
import { type AnyShortcut, defineShortcut } from "../../src/shortcuts/definition.ts";
import { param } from "../../src/shortcuts/param.ts";
import type { ServiceGroup } from "../../src/shortcuts/services.ts";

/** A read shortcut with every parameter type. */
export const everyType = defineShortcut({
  service: "demo",
  verb: "+every-type",
  description: "Echo every kind of parameter (see --when)",
  examples: ["hark demo +every-type --name a"],
  identities: ["user", "bot"],
  scopes: { user: ["demo:read"], bot: ["demo:read"] },
  effect: "read",
  params: {
    name: param.string({ description: "a name", required: true }),
    count: param.int({ description: "how many", default: 2 }),
    loud: param.bool({ description: "shout" }),
    color: param.enumOf(["red", "blue"], { description: "a colour" }),
    when: param.datetime({ description: "a moment; with --name", default: "today" }),
    "notes-file": param.file({ description: "a notes file" }),
    timezone: param.string({ description: "the zone" }),
  },
  requests: (input) => [{
    method: "GET",
    path: "/open-apis/demo/echo",
    query: { name: input.values.name },
  }],
  async run(input, client) {
    await client.request(this.requests(input)[0]);
    const { when } = input.values;
    input.warn("Echoes are loud");
    return {
      name: input.values.name,
      count: input.values.count,
      loud: input.values.loud ?? false,
      color: input.values.color ?? null,
      when: when.kind === "instant" ? when.epochMs : when.date,
      notes: input.values["notes-file"]?.text ?? null,
      identity: input.identity,
    };
  },
});

/** A user-only read shortcut that streams its rows in two batches. */
export const streamed = defineShortcut({
  service: "demo",
  verb: "+list",
  description: "List items page by page",
  examples: ["hark demo +list"],
  scopes: { user: ["demo:read"] },
  effect: "read",
  params: { prefix: param.string({ description: "the ids' prefix", default: "i" }) },
  requests: () => [{ method: "GET", path: "/open-apis/demo/items" }],
  async *stream(input, client) {
    await client.request({ method: "GET", path: "/open-apis/demo/items" });
    yield [{ id: `${input.values.prefix}1` }, { id: `${input.values.prefix}2` }];
    yield [{ id: `${input.values.prefix}3` }];
  },
});

/** A write shortcut with an idempotency key. */
export const write: AnyShortcut = defineShortcut({
  service: "demo",
  verb: "+post",
  description: "Post a note",
  examples: ["hark demo +post --text hi"],
  identities: ["user", "bot"],
  scopes: { user: ["demo:write"], bot: ["demo:write"] },
  effect: "write",
  idempotent: true,
  params: { text: param.string({ description: "the note", required: true }) },
  validate(input) {
    if (input.values.text.trim() === "") {
      throw new ValidationError('Invalid value "" for --text: expected the note', {
        param: "--text",
      });
    }
  },
  requests: (input) => [{
    method: "POST",
    path: "/open-apis/demo/notes",
    body: { text: input.values.text },
    idempotencyKey: "k1",
  }],
  run: (input, client) => client.request<Record<string, unknown>>(write.requests(input)[0]),
});

/** A delete shortcut that asks for confirmation, as a destructive shortcut does on a terminal. */
export const remove: AnyShortcut = defineShortcut({
  service: "demo",
  verb: "+remove",
  description: "Remove a note",
  examples: ["hark demo +remove --note-id n1"],
  scopes: { user: ["demo:write"] },
  effect: "delete",
  params: { "note-id": param.string({ description: "the note", required: true }) },
  requests: (input) => [{
    method: "DELETE",
    path: `/open-apis/demo/notes/${input.values["note-id"]}`,
  }],
  async run(input, client) {
    if (!await input.confirm(`Remove note ${input.values["note-id"]}?`, "--yes")) {
      return { removed: false };
    }
    await client.request(remove.requests(input)[0]);
    return { removed: true, note_id: input.values["note-id"] };
  },
});

/** A write with an idempotency key, echoing the key (not in {@link fakeGroups}). */
export const keyed = defineShortcut({
  service: "demo",
  verb: "+say",
  description: "Say something once",
  examples: ["hark demo +say --text hi"],
  identities: ["user", "bot"],
  scopes: { user: [], bot: [] },
  effect: "write",
  idempotent: true,
  idempotencyKey: "idempotency-key",
  params: {
    text: param.string({ description: "what to say", required: true }),
    "idempotency-key": param.string({ description: "the key (default: a new UUID)" }),
  },
  requests: (input) => [{
    method: "POST",
    path: "/open-apis/demo/say",
    body: { text: input.values.text, uuid: input.values["idempotency-key"] },
  }],
  run: (input) => Promise.resolve({ key: input.values["idempotency-key"] }),
});

/** A write that can destroy data (not in {@link fakeGroups}: pass it as `extra`). */
export const rewrite = defineShortcut({
  service: "demo",
  verb: "+rewrite",
  description: "Rewrite a series",
  examples: ["hark demo +rewrite --text hi"],
  scopes: { user: [] },
  effect: "write",
  destructive: true,
  params: { text: param.string({ description: "the new text", required: true }) },
  requests: () => [],
  run: () => Promise.resolve({ rewritten: true }),
});

/** A download that writes a local file and can replace one (not in {@link fakeGroups}). */
export const save = defineShortcut({
  service: "demo",
  verb: "+save",
  description: "Save a file",
  examples: ["hark demo +save --output a.txt"],
  scopes: { user: [] },
  effect: "read",
  params: {
    output: param.string({ description: "where", required: true, localPath: "write" }),
    force: param.bool({ description: "replace", default: false, replacesFiles: true }),
  },
  requests: () => [],
  run: (input) => Promise.resolve({ path: input.values.output, force: input.values.force }),
});

/** A bot-only read shortcut. */
export const botOnly = defineShortcut({
  service: "other",
  verb: "+status",
  description: "Show the app's status",
  examples: ["hark other +status --as bot"],
  identities: ["bot"],
  scopes: { bot: ["other:read"] },
  effect: "read",
  params: {},
  requests: () => [{ method: "GET", path: "/open-apis/other/status" }],
  run: (_input, client) => client.request({ method: "GET", path: "/open-apis/other/status" }),
});

/**
 * The fake service groups: `demo` (every type, a stream, a write, a delete) and `other` (bot
 * only).
 *
 * @param extra more shortcuts for `demo`
 */
export function fakeGroups(extra: AnyShortcut[] = []): ServiceGroup[] {
  return [
    {
      name: "demo",
      description: "Demo",
      examples: ["hark demo +list"],
      shortcuts: [everyType, streamed, write, remove, ...extra],
    },
    { name: "other", description: "Other", examples: ["hark other +status"], shortcuts: [botOnly] },
  ];
}
