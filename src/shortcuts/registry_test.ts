import assert from "node:assert/strict";
import { type AnyShortcut, defineShortcut } from "./definition.ts";
import { param } from "./param.ts";
import { registryProblems } from "../../tests/support/shortcut_registry.ts";
import { loadServices } from "./services.ts";

Deno.test("the registry holds every shortcut and no problem", async () => {
  const services = await loadServices();
  assert.deepEqual(registryProblems(services), []);
  assert.deepEqual(
    services.flatMap((s) => s.shortcuts.map((d) => `${d.service} ${d.verb}`)),
    [
      "calendar +agenda",
      "calendar +calendars",
      "calendar +create",
      "calendar +delete",
      "calendar +find-time",
      "calendar +freebusy",
      "calendar +get",
      "calendar +room-find",
      "calendar +rsvp",
      "calendar +suggestion",
      "calendar +update",
      "contact +search-user",
      "contact +get-user",
      "contact +me",
      "im +send",
      "im +reply",
      "im +messages",
      "im +messages-search",
      "im +thread",
      "im +get",
      "im +download",
      "im +reactions",
      "im +reaction-add",
      "im +reaction-remove",
      "im +pins",
      "im +pin",
      "im +unpin",
      "im +forward",
      "im +recall",
      "im +message-read-users",
      "im +urgent",
      "im +chats",
      "im +chat-create",
      "im +chat-update",
      "im +chat-members",
      "im +chat-members-add",
      "im +chat-members-remove",
    ],
  );
});

const ok = defineShortcut({
  service: "demo",
  verb: "+run",
  description: "Runs",
  examples: ["hark demo +run"],
  scopes: { user: [] },
  effect: "read",
  params: { x: param.string({ description: "x" }) },
  requests: () => [],
  run: () => Promise.resolve(null),
});

Deno.test("registryProblems() catches duplicates and missing descriptions or examples", () => {
  const group = (shortcuts = [ok]) => ({
    name: "demo",
    description: "Demo",
    examples: ["hark demo +run"],
    shortcuts,
  });
  assert.deepEqual(registryProblems([group()]), []);
  assert.deepEqual(registryProblems([group([ok, ok])]), ['duplicate shortcut "demo +run"']);
  assert.deepEqual(registryProblems([group(), group()]), [
    'duplicate service "demo"',
    'duplicate shortcut "demo +run"',
  ]);
  assert.deepEqual(registryProblems([group([{ ...ok, description: " " }])]), [
    '"demo +run" has no description',
  ]);
  assert.deepEqual(registryProblems([group([{ ...ok, examples: [] }])]), [
    '"demo +run" has no example',
  ]);
  assert.deepEqual(registryProblems([{ ...group(), examples: [] }]), [
    'service "demo" has no example',
  ]);
  // A record cannot repeat a name, but the registry may be handed a list that does.
  assert.deepEqual(
    registryProblems([group([{ ...ok, params: [...ok.params, ...ok.params] }])]),
    ['"demo +run": duplicate parameter "x"'],
  );
  assert.deepEqual(
    registryProblems([group([{ ...ok, verb: "run", examples: ["hark demo run"] }])]),
    ['"demo run": the verb must be a plus sign and lower-case words'],
  );
  assert.deepEqual(
    registryProblems([
      group([{ ...ok, params: [{ name: "json", type: "bool", description: "j" }] }]),
    ]),
    ['"demo +run": parameter "json" clashes with a global flag'],
  );
});

Deno.test("registryProblems() checks optional scopes, tenant-token calls and alternatives", () => {
  const group = (scopes: AnyShortcut["scopes"]) => ({
    name: "demo",
    description: "Demo",
    examples: ["hark demo +run"],
    shortcuts: [{ ...ok, scopes }],
  });
  assert.deepEqual(
    registryProblems([group({
      user: ["a:b"],
      optional: { user: ["a:c"] },
      tenantCalls: { when: "--file", scopes: ["im:resource"] },
      alternatives: { "im:resource": ["im:resource:upload"], "a:b": ["a:b:c"] },
    })]),
    [],
  );
  assert.deepEqual(
    registryProblems([group({
      user: ["a:b"],
      optional: { user: ["a:b", "bad"] },
      tenantCalls: { when: " ", scopes: [] },
      alternatives: { "x:y": ["x:y:z"] },
    })]),
    [
      '"demo +run": scope "a:b" is both required and optional',
      '"demo +run": its tenant-token calls need a "when" and scopes',
      '"demo +run": alternatives of "x:y", not listed',
      '"demo +run": scope "bad" is not <service>:<resource>[:<action>]',
    ],
  );
});

Deno.test("registryProblems() wants a write's idempotency-key parameter named as its key", () => {
  const group = (shortcuts = [ok]) => ({
    name: "demo",
    description: "Demo",
    examples: ["hark demo +run"],
    shortcuts,
  });
  const key = { name: "idempotency-key", type: "string" as const, description: "the key" };
  const write = { ...ok, effect: "write" as const, params: [...ok.params, key] };
  assert.deepEqual(registryProblems([group([write])]), [
    '"demo +run": parameter "idempotency-key" is not named in idempotencyKey',
  ]);
  assert.deepEqual(
    registryProblems([group([{ ...write, idempotencyKey: "idempotency-key" }])]),
    [],
  );
  assert.deepEqual(registryProblems([group([{ ...ok, idempotencyKey: "key" }])]), [
    '"demo +run": idempotencyKey "key" is no string parameter',
  ]);
});
