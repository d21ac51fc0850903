import assert from "node:assert/strict";
import { ValidationError } from "../errors/mod.ts";
import { loadServices } from "../shortcuts/services.ts";
import { toolNameOf } from "./tool_schema.ts";
import { fakeGroups, save } from "../../tests/support/fake_shortcuts.ts";
import { selectTools, type ToolSetOptions } from "./tool_set.ts";

const BASE: ToolSetOptions = { readOnly: false, allowRawApi: false, timeZone: "UTC" };
const ALL = ["demo_every_type", "demo_list", "demo_post", "demo_remove", "other_status"];

function names(options: Partial<ToolSetOptions>): string[] {
  return [...selectTools(fakeGroups(), { ...BASE, ...options }).exposed.keys()];
}

function rejects(options: Partial<ToolSetOptions>, pattern: RegExp): ValidationError {
  let caught: unknown;
  try {
    selectTools(fakeGroups(), { ...BASE, ...options });
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof ValidationError, `expected a ValidationError, got ${caught}`);
  assert.equal(caught.code, 2);
  assert.match(`${caught.message} ${caught.recovery.suggestion}`, pattern);
  return caught;
}

Deno.test("selectTools() exposes every shortcut of the registry, named after it", async () => {
  const groups = await loadServices();
  const set = selectTools(groups, BASE);
  assert.deepEqual(
    [...set.exposed.keys()],
    groups.flatMap((g) => g.shortcuts).map(toolNameOf),
  );
  assert.equal(set.hidden.size, 0);
  assert.ok(!set.exposed.has("api"), "the raw API only with --allow-raw-api");
});

Deno.test("selectTools() narrows by --read-only, --services, --tools and --as", () => {
  assert.deepEqual(names({}), ALL);
  assert.deepEqual(names({ readOnly: true }), ["demo_every_type", "demo_list", "other_status"]);
  assert.deepEqual(names({ services: ["other"] }), ["other_status"]);
  assert.deepEqual(names({ tools: ["demo_post", "demo_list"] }), ["demo_list", "demo_post"]);
  assert.deepEqual(names({ identity: "bot" }), ["demo_every_type", "demo_post", "other_status"]);
  assert.deepEqual(names({ services: ["demo"], readOnly: true }), ["demo_every_type", "demo_list"]);
  const set = selectTools(fakeGroups(), { ...BASE, readOnly: true, identity: "user" });
  assert.deepEqual(Object.fromEntries(set.hidden), {
    demo_post: "hark mcp runs with --read-only and this tool changes data",
    demo_remove: "hark mcp runs with --read-only and this tool changes data",
    other_status: "hark mcp runs with --as user and this tool acts as bot",
  });
});

Deno.test("selectTools() --read-only leaves out a tool that writes files on this machine", () => {
  const set = selectTools(fakeGroups([save]), { ...BASE, readOnly: true });
  assert.ok(!set.exposed.has("demo_save"));
  assert.equal(
    set.hidden.get("demo_save"),
    "hark mcp runs with --read-only and this tool writes files on this machine",
  );
  assert.ok(selectTools(fakeGroups([save]), BASE).exposed.has("demo_save"));
  assert.throws(
    () => selectTools(fakeGroups([save]), { ...BASE, readOnly: true, tools: ["demo_save"] }),
    /Cannot expose demo_save: hark mcp runs with --read-only and this tool writes files/,
  );
});

Deno.test("selectTools() adds the api tool with --allow-raw-api, GET only when read-only", () => {
  assert.deepEqual(names({ allowRawApi: true }), [...ALL, "api"]);
  const open = selectTools(fakeGroups(), { ...BASE, allowRawApi: true }).exposed.get("api")!;
  assert.deepEqual(open.tool.inputSchema.properties!.method.enum, [
    "GET",
    "POST",
    "PUT",
    "PATCH",
    "DELETE",
  ]);
  assert.equal(open.tool.annotations.destructiveHint, true);
  const readOnly = selectTools(fakeGroups(), { ...BASE, allowRawApi: true, readOnly: true })
    .exposed.get("api")!;
  assert.deepEqual(readOnly.tool.inputSchema.properties!.method.enum, ["GET"]);
  assert.equal(readOnly.tool.annotations.readOnlyHint, true);
  assert.equal(readOnly.tool.inputSchema.properties!.yes, undefined);
  assert.deepEqual(names({ allowRawApi: true, tools: ["api"] }), ["api"]);
});

Deno.test("selectTools() rejects unknown names, listing the known ones", () => {
  const tool = rejects({ tools: ["demo_list", "calendar_agnda"] }, /Unknown tool "calendar_agnda"/);
  assert.equal(tool.param, "--tools");
  assert.match(tool.recovery.suggestion, new RegExp(`Known tools: ${ALL.join(", ")}`));
  rejects({ tools: ["api"] }, /The api tool needs --allow-raw-api/);
  const service = rejects({ services: ["calendra"] }, /Unknown service "calendra" for --services/);
  assert.equal(service.param, "--services");
  assert.match(service.recovery.suggestion, /Known services: demo, other/);
});

Deno.test("selectTools() refuses a named tool another flag leaves out, and an empty set", () => {
  rejects(
    { tools: ["demo_post"], readOnly: true },
    /Cannot expose demo_post: hark mcp runs with --read-only/,
  );
  rejects(
    { tools: ["demo_list"], services: ["other"] },
    /Cannot expose demo_list: --services leaves out the demo service/,
  );
  rejects({ tools: ["other_status"], identity: "user" }, /acts as bot/);
  rejects({ services: ["other"], identity: "user" }, /leave no tool to expose/);
});

Deno.test("the api tool says who acts", () => {
  const description = (options: Partial<ToolSetOptions>) =>
    selectTools(fakeGroups(), { ...BASE, allowRawApi: true, ...options }).exposed.get("api")!
      .tool.description;
  assert.match(description({}), /Acts as the signed-in user; as: "bot" acts as the app's bot\.$/);
  assert.match(
    description({ identity: "bot", readOnly: true }),
    /with GET .* Acts as the app's bot\.$/,
  );
  assert.match(description({ identity: "user" }), /yes: true\. Acts as the signed-in user\.$/);
});
