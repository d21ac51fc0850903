import assert from "node:assert/strict";
import { ValidationError } from "../errors/mod.ts";
import { defineShortcut } from "./definition.ts";
import { findShortcut, registryProblems, SERVICES } from "./registry.ts";

Deno.test("the registry holds the five shortcuts and no problem", () => {
  assert.deepEqual(registryProblems(SERVICES), []);
  assert.deepEqual(
    SERVICES.flatMap((s) => s.shortcuts.map((d) => `${d.service} ${d.verb}`)),
    [
      "calendar +agenda",
      "calendar +create",
      "calendar +freebusy",
      "contact +search-user",
      "im +send",
    ],
  );
});

const ok = defineShortcut({
  service: "demo",
  verb: "+run",
  description: "Runs",
  examples: ["hark demo +run"],
  scopes: [],
  params: [{ name: "x", type: "string", description: "x" }],
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

Deno.test("findShortcut() finds by verb and lists the known ones otherwise", () => {
  assert.equal(findShortcut("calendar", "agenda").verb, "+agenda");
  assert.equal(findShortcut("im", "+send").service, "im");
  assert.throws(
    () => findShortcut("mail", "+send"),
    (e: unknown) =>
      e instanceof ValidationError && /calendar, contact, im/.test(e.recovery.suggestion),
  );
  assert.throws(
    () => findShortcut("calendar", "+list"),
    (e: unknown) =>
      e instanceof ValidationError && /\+agenda, \+create, \+freebusy/.test(e.recovery.suggestion),
  );
});
