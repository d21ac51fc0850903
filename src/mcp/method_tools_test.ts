import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import { Catalogue } from "../catalogue/catalogue.ts";
import type { CatalogueMethod } from "../catalogue/format.ts";
import { ValidationError } from "../errors/mod.ts";
import {
  CREATE_DOCUMENT,
  CREATE_EVENT,
  fixtureSource,
  LIST_EVENTS,
} from "../../tests/support/catalogue_fixture.ts";
import { fakeGroups } from "../../tests/support/fake_shortcuts.ts";
import {
  createTestContext,
  type ExpectedRequest,
  FetchStub,
  jsonResponse,
} from "../../tests/support/test_context.ts";
import { testSession } from "../../tests/support/test_session.ts";
import { methodTool } from "./method_tool.ts";
import { selectMethodTools, splitToolEntries } from "./method_tools.ts";
import type { ToolResult } from "./tool_result.ts";
import { ToolRunner } from "./tool_runner.ts";
import { type MethodSelection, selectTools, type ToolSetOptions } from "./tool_set.ts";

const BASE: ToolSetOptions = { readOnly: false, allowRawApi: false, timeZone: "UTC" };
const BASE_URL = "https://open.example.com";
const CONFIG = { apps: { default: { app_id: "cli_test", base_url: BASE_URL } } };

/** `calendar.v4.calendarEvent.delete`: DELETE with a path parameter. */
const DELETE_EVENT: CatalogueMethod = {
  ...LIST_EVENTS,
  id: "calendar.v4.calendarEvent.delete",
  command: ["calendar", "events", "delete"],
  http: "DELETE",
  path: "/open-apis/calendar/v4/calendars/:calendar_id/events/:event_id",
  pathParams: [
    ...LIST_EVENTS.pathParams,
    { name: "event_id", type: "string", required: true, description: "the event" },
  ],
  query: [],
  paging: undefined,
};

async function rejection(promise: Promise<unknown>): Promise<ValidationError> {
  const caught = await promise.then(() => undefined, (error) => error);
  assert.ok(caught instanceof ValidationError, `expected a ValidationError, got ${caught}`);
  assert.equal(caught.code, 2);
  return caught;
}

Deno.test("splitToolEntries() tells method ids, globs and presets from shortcut tools", () => {
  assert.deepEqual(splitToolEntries(undefined), { methods: [] });
  assert.deepEqual(splitToolEntries(["im_send", "docx.*", "docs"]), {
    shortcuts: ["im_send"],
    methods: ["docx.*", "docs"],
  });
  // API entries alone come beside every shortcut tool.
  assert.deepEqual(splitToolEntries(["calendar.v4.calendarEvent.list", "tasks"]), {
    shortcuts: undefined,
    methods: ["calendar.v4.calendarEvent.list", "tasks"],
  });
  assert.deepEqual(splitToolEntries(["nope"]), { shortcuts: ["nope"], methods: [] });
});

Deno.test("selectMethodTools() loads the index and only the groups it names", async () => {
  const source = fixtureSource();
  const selection = await selectMethodTools(new Catalogue(source), ["docx.*"], {});
  assert.deepEqual(selection.tools.map((t) => t.tool.name), ["docx_v1_document_create"]);
  assert.deepEqual(source.reads, ["index", "docx_v1.document"]);
  assert.equal(selection.explicit.size, 0, "a glob names no method explicitly");

  const none = fixtureSource();
  assert.deepEqual(await selectMethodTools(new Catalogue(none), [], {}), {
    tools: [],
    explicit: new Set(),
  });
  assert.deepEqual(none.reads, [], "no API entry: nothing of the catalogue is read");

  const byId = await selectMethodTools(new Catalogue(fixtureSource()), [
    "calendar.v4.calendarEvent.list",
    "calendar",
  ], {});
  assert.deepEqual(byId.tools.map((t) => t.method.id), [LIST_EVENTS.id, CREATE_EVENT.id]);
  assert.deepEqual([...byId.explicit], ["calendar_v4_calendarEvent_list"]);
});

Deno.test("selectMethodTools() refuses an entry that matches nothing, listing the presets", async () => {
  for (const entry of ["docx.v9.*", "calendar.v4.calendarEvent.nope"]) {
    const error = await rejection(selectMethodTools(new Catalogue(fixtureSource()), [entry], {}));
    assert.equal(error.param, "--tools");
    assert.match(
      error.message,
      new RegExp(`"${entry.replaceAll(".", "\\.").replace("*", "\\*")}"`),
    );
    assert.match(error.recovery.suggestion, /docs \(docx, drive, wiki, sheets\).*tasks \(task\)/);
  }
  // A name that is neither a tool nor an API entry is refused by selectTools, with the presets.
  assert.throws(
    () => selectTools(fakeGroups(), { ...BASE, tools: ["docx"] }),
    (error: unknown) =>
      error instanceof ValidationError && /"docx" for --tools/.test(error.message) &&
      /base \(bitable, base\)/.test(error.recovery.suggestion),
  );
});

Deno.test("methodTool() builds the input schema from the method's path, query and body", () => {
  const { tool } = methodTool(CREATE_EVENT, {});
  const schema = tool.inputSchema;
  assert.deepEqual(schema.required, ["path", "data"]);
  assert.deepEqual(schema.properties?.path?.required, ["calendar_id"]);
  assert.equal(schema.properties?.params?.properties?.idempotency_key?.type, "string");
  const data = schema.properties?.data;
  assert.deepEqual(data?.required, ["start_time"]);
  assert.deepEqual(data?.properties?.start_time?.properties?.timestamp, {
    type: "string",
    description: "seconds",
  });
  assert.equal(data?.properties?.reminders?.items?.properties?.minutes?.type, "integer");
  assert.deepEqual(schema.properties?.as?.enum, ["user", "bot"]);
  assert.equal(schema.properties?.dry_run?.type, "boolean");
  assert.equal(schema.properties?.yes, undefined, "a create needs no confirmation");
  assert.match(tool.description, /^Creates an event\. It changes data in Lark/);

  const validate = new Ajv2020({ strict: true }).compile(schema);
  assert.ok(validate({ path: { calendar_id: "primary" }, data: { start_time: {} } }));
  assert.equal(validate({ path: { calendar_id: "primary" }, data: { start_time: 5 } }), false);
  assert.equal(validate({ path: {}, data: { start_time: {} } }), false);
  assert.equal(validate({ nope: 1 }), false);

  assert.equal(methodTool(CREATE_DOCUMENT, {}).tool.inputSchema.properties?.as, undefined);
  assert.equal(
    methodTool(CREATE_EVENT, { identity: "bot" }).tool.inputSchema.properties?.as,
    undefined,
  );
  assert.match(
    methodTool(CREATE_EVENT, { identity: "bot" }).tool.description,
    /Acts as the app's bot/,
  );
});

Deno.test("methodTool() hints: GET reads, DELETE destroys, a write with a key hark sets is idempotent", () => {
  const hints = (method: CatalogueMethod) => {
    const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } =
      methodTool(method, {}).tool.annotations;
    return { readOnlyHint, destructiveHint, idempotentHint, openWorldHint };
  };
  assert.deepEqual(hints(LIST_EVENTS), {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  });
  assert.deepEqual(hints(DELETE_EVENT), {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  });
  assert.deepEqual(hints(CREATE_EVENT), {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  });
  assert.deepEqual(hints(CREATE_DOCUMENT), {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  });
  assert.equal(hints({ ...CREATE_DOCUMENT, http: "PATCH" }).destructiveHint, true);
  assert.equal(
    hints({ ...CREATE_DOCUMENT, id: "docx.v1.document.batchDelete" }).destructiveHint,
    true,
  );
  assert.equal(methodTool(DELETE_EVENT, {}).tool.inputSchema.properties?.yes?.type, "boolean");
});

Deno.test("selectTools() adds method tools; --read-only and --as leave some out, with why", () => {
  const tools = [LIST_EVENTS, CREATE_EVENT, CREATE_DOCUMENT].map((m) => methodTool(m, {}));
  const selection: MethodSelection = { tools, explicit: new Set() };
  const all = selectTools(fakeGroups(), BASE, selection);
  assert.ok(all.exposed.has("demo_list"), "the shortcut tools stay");
  assert.equal(all.exposed.get("docx_v1_document_create")?.kind, "method");

  const readOnly = selectTools(fakeGroups(), { ...BASE, readOnly: true }, selection);
  assert.ok(readOnly.exposed.has("calendar_v4_calendarEvent_list"));
  assert.match(readOnly.hidden.get("calendar_v4_calendarEvent_create") ?? "", /--read-only/);

  const asUser = selectTools(fakeGroups(), { ...BASE, identity: "user" }, selection);
  assert.match(asUser.hidden.get("docx_v1_document_create") ?? "", /--as user.*acts as bot/);

  // Named by id, a method another flag leaves out is an error, as a shortcut tool is.
  assert.throws(
    () =>
      selectTools(fakeGroups(), { ...BASE, readOnly: true }, {
        tools,
        explicit: new Set(["docx_v1_document_create"]),
      }),
    /Cannot expose docx_v1_document_create: hark mcp runs with --read-only/,
  );
});

/** A runner with the fixture's methods as tools, over a strict fetch stub. */
function setup(expected: ExpectedRequest[], identity?: "user" | "bot") {
  const stub = new FetchStub(expected);
  const ctx = createTestContext({
    env: {
      HARK_USER_ACCESS_TOKEN: "u-test-token-0123456789",
      HARK_TENANT_ACCESS_TOKEN: "t-test-token-0123456789",
      HARK_BASE_URL: BASE_URL,
    },
    fetch: stub.fetch,
  });
  const runner = new ToolRunner(ctx, {
    openSession: () => Promise.resolve(testSession(ctx, {}, CONFIG)),
    dryRun: false,
    identity,
  });
  const tools = selectTools(fakeGroups(), BASE, {
    tools: [LIST_EVENTS, CREATE_EVENT, DELETE_EVENT].map((m) => methodTool(m, { identity })),
    explicit: new Set(),
  });
  const call = (name: string, args: unknown) =>
    runner.call(tools.exposed.get(name)!, args, new AbortController().signal);
  return { stub, call, ctx };
}

function errorOf(result: ToolResult) {
  assert.equal(result.isError, true, JSON.stringify(result));
  return (result.structuredContent as { error: { type: string; message: string; code: number } })
    .error;
}

Deno.test("a method tool's call sends the request buildMethodRequest builds; data is the result", async () => {
  const { stub, call } = setup([{
    method: "GET",
    url: `${BASE_URL}/open-apis/calendar/v4/calendars/primary/events?page_size=50`,
    respond: (request) => {
      assert.equal(request.headers.get("authorization"), "Bearer t-test-token-0123456789");
      return jsonResponse({ code: 0, msg: "success", data: { items: [{ event_id: "e1" }] } });
    },
  }]);
  const result = await call("calendar_v4_calendarEvent_list", {
    path: { calendar_id: "primary" },
    params: { page_size: 50 },
    as: "bot",
  });
  stub.verify();
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.deepEqual(result.structuredContent, { items: [{ event_id: "e1" }] });
});

Deno.test("a method tool derives the idempotency key: the same call twice carries one key", async () => {
  const keys: string[] = [];
  const created = (request: Request) => {
    const key = new URL(request.url).searchParams.get("idempotency_key");
    assert.ok(key);
    keys.push(key);
    return jsonResponse({ code: 0, msg: "success", data: { event: { event_id: "e1" } } });
  };
  const url = new RegExp(
    `^${BASE_URL}/open-apis/calendar/v4/calendars/primary/events\\?idempotency_key=[0-9a-f-]{36}$`,
  );
  const { stub, call } = setup([
    { method: "POST", url, respond: created },
    { method: "POST", url, respond: created },
  ]);
  const args = { path: { calendar_id: "primary" }, data: { start_time: { timestamp: "1" } } };
  assert.equal((await call("calendar_v4_calendarEvent_create", args)).isError, undefined);
  assert.equal((await call("calendar_v4_calendarEvent_create", args)).isError, undefined);
  stub.verify();
  assert.equal(keys.length, 2);
  assert.equal(keys[0], keys[1]);
});

Deno.test("a method tool's dry run previews, and a bad call is a typed tool error sending nothing", async () => {
  const { stub, call } = setup([]);
  const preview = await call("calendar_v4_calendarEvent_delete", {
    path: { calendar_id: "primary", event_id: "e1" },
    dry_run: true,
  });
  assert.equal(preview.isError, undefined, JSON.stringify(preview));
  const { dry_run: dryRun, requests } = preview.structuredContent as {
    dry_run: boolean;
    requests: { method: string; url: string }[];
  };
  assert.equal(dryRun, true);
  assert.deepEqual(requests.map((r) => `${r.method} ${r.url}`), [
    `DELETE ${BASE_URL}/open-apis/calendar/v4/calendars/primary/events/e1`,
  ]);

  const unconfirmed = errorOf(
    await call("calendar_v4_calendarEvent_delete", { path: { calendar_id: "c", event_id: "e" } }),
  );
  assert.equal(unconfirmed.code, 2);
  assert.match(unconfirmed.message, /without confirmation/);

  const badType = errorOf(
    await call("calendar_v4_calendarEvent_create", {
      path: { calendar_id: "primary" },
      data: { start_time: {}, summary: 5 },
    }),
  );
  assert.equal(badType.type, "validation");
  assert.equal(badType.message, 'Invalid value 5 for argument "data.summary": expected text');

  const notObject = errorOf(
    await call("calendar_v4_calendarEvent_list", { path: "primary" }),
  );
  assert.equal(notObject.message, 'Invalid argument "path": expected an object');
  stub.verify();
});
