import assert from "node:assert/strict";
import { CREATE_EVENT, LIST_EVENTS } from "../../tests/support/catalogue_fixture.ts";
import type { CatalogueMethod } from "./format.ts";
import { flagNameOf, methodFlags } from "./method_flags.ts";

const RESERVED = new Set(["format", "data", "params", "help"]);

Deno.test("methodFlags() gives path, query and flat body fields a kebab-case flag each", () => {
  const flags = methodFlags(LIST_EVENTS, RESERVED);
  assert.deepEqual(
    flags.map((f) => [f.name, f.place, f.field.name, f.param.type, f.param.required]),
    [
      ["calendar-id", "path", "calendar_id", "string", true],
      ["page-size", "query", "page_size", "number", false],
      ["page-token", "query", "page_token", "string", false],
      ["user-id-type", "query", "user_id_type", "enum", false],
      ["start-time", "query", "start_time", "string", false],
    ],
  );
  assert.deepEqual(flags[3].param.allowed, ["open_id", "user_id"]);
});

Deno.test("methodFlags() leaves objects and lists of objects to --data, repeats lists of scalars", () => {
  const flags = methodFlags(CREATE_EVENT, RESERVED);
  const names = flags.map((f) => f.name);
  assert.ok(!names.includes("start-time"), "an object");
  assert.ok(!names.includes("reminders"), "a list of objects");
  assert.ok(!names.includes("extra"), "any JSON");
  const attendees = flags.find((f) => f.name === "attendee-ids");
  assert.equal(attendees?.repeatable, true);
  assert.equal(attendees?.param.type, "string");
  assert.equal(flags.find((f) => f.name === "need-notification")?.param.type, "bool");
});

Deno.test("methodFlags() prefixes the place of a name hark or another field already has", () => {
  const flags = methodFlags(CREATE_EVENT, RESERVED);
  assert.ok(flags.some((f) => f.name === "body-format" && f.field.name === "format"));
  const twice: CatalogueMethod = {
    ...LIST_EVENTS,
    query: [{ name: "type", type: "string", required: true, description: "doc type" }],
    body: [{ name: "type", type: "string", required: true, description: "member type" }],
  };
  const names = methodFlags(twice, RESERVED).map((f) => f.name);
  assert.deepEqual(names, ["calendar-id", "query-type", "body-type"]);
});

Deno.test("flagNameOf() writes wire names in kebab-case", () => {
  assert.equal(flagNameOf("user_id_type"), "user-id-type");
  assert.equal(flagNameOf("pageSize"), "page-size");
});

Deno.test("methodFlags() carries a field's default into its flag's help", () => {
  const method: CatalogueMethod = {
    ...LIST_EVENTS,
    query: [{ name: "page_size", type: "integer", required: false, description: "n", default: 50 }],
  };
  const [, size] = methodFlags(method, RESERVED);
  assert.deepEqual([size.param.type, size.param.default], ["int", 50]);
});
