import assert from "node:assert/strict";
import {
  CREATE_EVENT,
  fixtureSource,
  LIST_EVENTS,
} from "../../../tests/support/catalogue_fixture.ts";
import { Catalogue } from "../../catalogue/catalogue.ts";
import { ValidationError } from "../../errors/mod.ts";
import { buildRoot } from "../root.ts";
import type { HarkSchema, ServiceSchema } from "./describe.ts";
import type { ApiMethodSchema, ApiResourceSchema } from "./describe_api.ts";
import { describeHark } from "./run_schema.ts";

const root = buildRoot();

async function describe(args: string[], kind?: "shortcut" | "api" | "command") {
  const source = fixtureSource();
  const part = await describeHark(root, args, { catalogue: new Catalogue(source), kind });
  return { part, reads: source.reads };
}

Deno.test("hark schema lists shortcuts and API methods in one listing, told apart by kind", async () => {
  const { part } = await describe([]);
  const schema = part as HarkSchema;
  const calendar = schema.services.find((s) => s.name === "calendar");
  assert.ok(calendar?.shortcuts.every((s) => s.kind === "shortcut"));
  assert.deepEqual(calendar?.methods?.map((m) => [m.kind, m.id]), [
    ["api", CREATE_EVENT.id],
    ["api", LIST_EVENTS.id],
  ]);
  const docx = schema.services.find((s) => s.name === "docx");
  assert.deepEqual(docx?.shortcuts, []);
  assert.deepEqual(docx?.methods?.map((m) => m.name), ["docx document create"]);
  assert.ok(schema.commands.some((c) => c.name === "auth"));
});

Deno.test("hark schema --kind keeps shortcuts, API methods or commands", async () => {
  const api = (await describe([], "api")).part as HarkSchema;
  assert.deepEqual(api.commands, []);
  assert.deepEqual(api.services.map((s) => s.name), ["calendar", "docx"]);
  assert.ok(api.services.every((s) => s.shortcuts.length === 0));
  const shortcut = await describe([], "shortcut");
  assert.deepEqual(shortcut.reads, [], "shortcuts only: the catalogue is not read");
  assert.ok((shortcut.part as HarkSchema).services.every((s) => s.methods === undefined));
  assert.deepEqual(((await describe([], "command")).part as HarkSchema).services, []);
  await assert.rejects(describeHark(root, ["calendar"], { kind: "api" }), {
    message: "--kind filters the whole listing: give no other argument",
  });
});

Deno.test("hark schema <method id> describes one method, reading only its group", async () => {
  const { part, reads } = await describe([LIST_EVENTS.id]);
  assert.deepEqual(reads, ["calendar_v4.calendarEvent"]);
  const method = part as ApiMethodSchema;
  assert.equal(method.name, "calendar events list");
  assert.equal(method.http_method, "GET");
  assert.equal(method.effect, "read");
  assert.equal(method.paged, true);
  assert.deepEqual(method.identities, ["user", "bot"]);
  assert.deepEqual(method.params[0], {
    name: "calendar_id",
    flag: "--calendar-id",
    in: "path",
    type: "string",
    required: true,
    description: "the calendar",
  });
  assert.deepEqual(method.params.find((p) => p.name === "user_id_type")?.allowed, [
    "open_id",
    "user_id",
  ]);
  assert.equal(method.example, "hark calendar events list --calendar-id CALENDAR_ID");
  // Every method can be an MCP tool (hark mcp --tools calendar.v4.calendarEvent.list), named so.
  assert.equal(method.mcp_tool, "calendar_v4_calendarEvent_list");
  await assert.rejects(describe(["calendar.v4.calendarEvent.nope"]), {
    message: 'Unknown API method "calendar.v4.calendarEvent.nope"',
  });
});

Deno.test("hark schema <service> <resource> [<method>] describes a resource or a method", async () => {
  const create = (await describe(["calendar", "events", "create"])).part as ApiMethodSchema;
  assert.equal(create.id, CREATE_EVENT.id);
  assert.equal(create.effect, "write");
  assert.equal(create.idempotency_key, "idempotency_key");
  const start = create.params.find((p) => p.name === "start_time");
  assert.deepEqual([start?.in, start?.type, start?.flag, start?.fields?.map((f) => f.name)], [
    "body",
    "object",
    undefined,
    ["timestamp", "timezone"],
  ]);
  assert.equal(create.params.find((p) => p.name === "format")?.flag, "--body-format");
  const events = (await describe(["calendar", "calendar-event"])).part as ApiResourceSchema;
  assert.equal(events.name, "events");
  assert.deepEqual(events.methods.map((m) => m.id), [CREATE_EVENT.id, LIST_EVENTS.id]);
  const service = (await describe(["calendar"])).part as ServiceSchema;
  assert.ok(service.shortcuts.length > 0 && service.methods?.length === 2);
  const agenda = (await describe(["calendar", "agenda"])).part as { kind: string; name: string };
  assert.deepEqual([agenda.kind, agenda.name], ["shortcut", "calendar +agenda"]);
});

Deno.test("hark schema names the known shortcuts, resources and services for an unknown one", async () => {
  await assert.rejects(describe(["calendar", "evnts"]), (error: unknown) => {
    assert.ok(error instanceof ValidationError);
    assert.equal(error.message, 'Unknown shortcut or resource "calendar evnts"');
    assert.match(error.recovery.suggestion, /\+agenda.*, events$/);
    return true;
  });
  await assert.rejects(describe(["calendar", "events", "purge"]), {
    message: 'Unknown method "calendar events purge"',
  });
  await assert.rejects(describe(["nope"]), (error: unknown) => {
    assert.ok(error instanceof ValidationError);
    assert.match(error.recovery.suggestion, /API services: calendar, docx$/);
    return true;
  });
});

Deno.test("hark schema event +subscribe describes the command beside the event API service", async () => {
  const { fileCatalogueSource } = await import("../../catalogue/catalogue.ts");
  const { createRealContext } = await import("../../runtime/real_context.ts");
  const catalogueDir = new URL("../../../gen/catalogue", import.meta.url).pathname;
  const ctx = createRealContext({ signal: new AbortController().signal, catalogueDir });
  const catalogue = new Catalogue(fileCatalogueSource(ctx));
  assert.ok(await catalogue.service("event"), "the catalogue has an event service");
  const part = await describeHark(root, ["event", "+subscribe"], { catalogue });
  assert.ok("options" in part && part.name === "event +subscribe");
  assert.ok(part.options.some((o) => o.name === "output-dir"));
});
