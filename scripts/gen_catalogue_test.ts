import assert from "node:assert/strict";
import { join } from "node:path";
import { readIndex, readPart } from "../src/catalogue/read_catalogue.ts";
import { buildCatalogue, readTool, type Tool } from "./gen_catalogue.ts";
import {
  diffManifests,
  diffReport,
  fingerprints,
  writeCatalogue,
} from "./catalogue/write_catalogue.ts";

/** A zod 4 node (`_zod` not enumerable, as zod makes it). */
function z(def: Record<string, unknown>, description?: string) {
  const node: Record<string, unknown> = description === undefined ? {} : { description };
  Object.defineProperty(node, "_zod", { value: { def, bag: {} }, enumerable: false });
  return node;
}
const str = (description?: string) => z({ type: "string" }, description);
const opt = (inner: unknown) => z({ type: "optional", innerType: inner });
const obj = (shape: Record<string, unknown>) => z({ type: "object", shape });

function tool(id: string, fields: Partial<Tool> = {}): Tool {
  return {
    id,
    httpMethod: "GET",
    path: "/open-apis/x/v1/things",
    description: `[Acme/Suite]-X-Things-Do ${id}`,
    accessTokens: ["tenant", "user"],
    schema: {},
    ...fields,
  };
}

const TOOLS: Tool[] = [
  tool("calendar.v4.calendarEvent.list", {
    path: "/open-apis/calendar/v4/calendars/:calendar_id/events",
    // The package marks some path objects optional: a path parameter is needed anyway.
    schema: {
      path: opt(obj({ calendar_id: opt(str("the calendar")) })),
      params: opt(obj({ page_token: opt(str()), page_size: opt(z({ type: "number" })) })),
    },
  }),
  tool("calendar.v4.calendarEvent.create", {
    httpMethod: "POST",
    path: "/open-apis/calendar/v4/calendars/:calendar_id/events",
    accessTokens: ["user"],
    schema: {
      path: obj({ calendar_id: str() }),
      params: opt(obj({ idempotency_key: opt(str()) })),
      data: obj({ summary: str("title") }),
    },
  }),
  tool("auth.v3.auth.tenantAccessToken", { httpMethod: "POST", accessTokens: undefined }),
];

Deno.test("buildCatalogue() makes groups, an index, identities, paging and idempotency keys", () => {
  const { index, groups } = buildCatalogue(TOOLS, "@larksuiteoapi/lark-mcp@0.5.1");
  assert.deepEqual(index.leftOut.map((l) => l.id), ["auth.v3.auth.tenantAccessToken"]);
  assert.match(index.leftOut[0].reason, /takes no access token/);
  assert.deepEqual(groups.map((g) => g.group), ["calendar_v4"]);
  const [create, list] = groups[0].methods;
  assert.deepEqual(list.command, ["calendar", "events", "list"]);
  assert.deepEqual(list.identities, ["user", "bot"]);
  assert.deepEqual(list.pathParams, [
    { name: "calendar_id", type: "string", required: true, description: "the calendar" },
  ]);
  assert.equal(list.paging, "query");
  assert.equal(list.idempotencyKey, undefined);
  assert.deepEqual(create.identities, ["user"]);
  assert.deepEqual(create.idempotencyKey, { place: "query", name: "idempotency_key" });
  assert.deepEqual(create.body?.map((f) => f.name), ["summary"]);
  const [service] = index.services;
  assert.equal(service.name, "calendar");
  assert.deepEqual(
    service.resources.map((r) => [r.name, r.aliases, r.methods.map((m) => m.name)]),
    [
      ["events", ["calendar-event"], ["create", "list"]],
    ],
  );
});

Deno.test("the generated files read back through hark's checked readers", async () => {
  const generated = buildCatalogue(TOOLS, "@larksuiteoapi/lark-mcp@0.5.1");
  const dir = await Deno.makeTempDir({ prefix: "hark-gen-" });
  try {
    const out = join(dir, "catalogue");
    await writeCatalogue(out, generated, await fingerprints(generated.groups), "key-1");
    const index = await Deno.readTextFile(join(out, "index.json"));
    assert.deepEqual(readIndex(index), generated.index);
    // One file per resource of a group: a command reads only its resource's.
    const files = (await Array.fromAsync(Deno.readDir(out))).map((e) => e.name).sort();
    assert.deepEqual(files, [
      "calendar_v4.calendarEvent.json",
      "index.json",
      "manifest.json",
      "stamp.json",
    ]);
    const part = await Deno.readTextFile(join(out, "calendar_v4.calendarEvent.json"));
    assert.deepEqual(readPart("calendar_v4.calendarEvent", part), {
      ...generated.groups[0],
      resource: "calendarEvent",
    });
    const stamp = JSON.parse(await Deno.readTextFile(join(out, "stamp.json")));
    assert.equal(stamp.key, "key-1");
    assert.equal(stamp.methods, 2);
    // Writing again replaces the folder whole.
    await Deno.writeTextFile(join(out, "stray.json"), "");
    await writeCatalogue(out, generated, {}, "key-2");
    assert.equal(await Deno.stat(join(out, "stray.json")).catch(() => undefined), undefined);
    assert.deepEqual((await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name), ["catalogue"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("diffManifests() and diffReport() list the methods added, removed and changed", () => {
  const diff = diffManifests({ a: "1", b: "2", c: "3" }, { b: "2", c: "4", d: "5" });
  assert.deepEqual(diff, { added: ["d"], removed: ["a"], changed: ["c"] });
  assert.equal(
    diffReport(diff),
    "Changes since the previous catalogue: 1 added, 1 removed, 1 changed\n  + d\n  - a\n  ~ c",
  );
});

Deno.test("readTool() names what a tool lacks", () => {
  assert.throws(() => readTool({ name: "x.v1.a.b", schema: {} }), /no "httpMethod"/);
  assert.throws(() => readTool({ name: "x.v1.a.b" }), /no schema/);
  assert.throws(() => readTool(null), /not an object/);
  assert.equal(
    readTool({ name: "a.v1.b.c", httpMethod: "get", path: "/p", schema: {} }).httpMethod,
    "GET",
  );
});
