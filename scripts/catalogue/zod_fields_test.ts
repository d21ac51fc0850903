import assert from "node:assert/strict";
import { readTool } from "../gen_catalogue.ts";
import { cleanText, fieldOf, objectFields } from "./zod_fields.ts";

/** A zod 4 node as the package's schemas hold it (`_zod` not enumerable, as zod makes it). */
function z4(def: Record<string, unknown>, description?: string, bag: Record<string, unknown> = {}) {
  const node: Record<string, unknown> = description === undefined ? {} : { description };
  Object.defineProperty(node, "_zod", { value: { def, bag }, enumerable: false });
  return node;
}

/** A zod 3 node. */
function z3(def: Record<string, unknown>, description?: string) {
  return { _def: def, ...(description === undefined ? {} : { description }) };
}

Deno.test("fieldOf() reads zod 4 objects, scalars, enums, literals, arrays and wrappers", () => {
  const schema = z4({
    type: "object",
    shape: {
      summary: z4({ type: "string" }, "the title"),
      size: z4({ type: "optional", innerType: z4({ type: "number" }, "how many") }),
      count: z4({ type: "number" }, undefined, { format: "safeint" }),
      on: z4({ type: "nullable", innerType: z4({ type: "boolean" }) }),
      kind: z4({ type: "enum", entries: { a: "a", b: "b" } }, "which"),
      fixed: z4({ type: "literal", values: ["user"] }),
      ids: z4({ type: "array", element: z4({ type: "string" }) }),
      when: z4({
        type: "object",
        shape: { date: z4({ type: "optional", innerType: z4({ type: "string" }) }) },
      }),
      any: z4({ type: "union", options: [] }),
    },
  });
  const [summary, size, count, on, kind, fixed, ids, when, any] = objectFields(schema) ?? [];
  assert.deepEqual(summary, {
    name: "summary",
    type: "string",
    required: true,
    description: "the title",
  });
  assert.deepEqual(size, {
    name: "size",
    type: "number",
    required: false,
    description: "how many",
  });
  assert.equal(count.type, "integer");
  assert.deepEqual([on.type, on.nullable, on.required], ["boolean", true, true]);
  assert.deepEqual([kind.type, kind.values], ["enum", ["a", "b"]]);
  assert.deepEqual([fixed.type, fixed.values], ["enum", ["user"]]);
  assert.deepEqual([ids.type, ids.items?.type], ["array", "string"]);
  assert.deepEqual(when.fields?.map((f) => [f.name, f.type, f.required]), [[
    "date",
    "string",
    false,
  ]]);
  assert.equal(any.type, "json");
});

Deno.test("fieldOf() reads zod 3 schemas the same way", () => {
  const schema = z3({
    typeName: "ZodObject",
    shape: () => ({
      kind: z3({ typeName: "ZodEnum", values: ["x", "y"] }, "which"),
      n: z3({
        typeName: "ZodOptional",
        innerType: z3({ typeName: "ZodNumber", checks: [{ kind: "int" }] }),
      }),
      tag: z3({ typeName: "ZodLiteral", value: "t" }),
    }),
  });
  const [kind, n, tag] = objectFields(schema) ?? [];
  assert.deepEqual([kind.type, kind.values, kind.description], ["enum", ["x", "y"], "which"]);
  assert.deepEqual([n.type, n.required], ["integer", false]);
  assert.deepEqual(tag.values, ["t"]);
});

Deno.test("fieldOf() keeps a scalar default (zod 4 and 3) and makes the field optional", () => {
  const v4 = fieldOf(
    "size",
    z4({ type: "default", defaultValue: 20, innerType: z4({ type: "number" }) }),
  );
  assert.deepEqual([v4.type, v4.required, v4.default], ["number", false, 20]);
  const v3 = fieldOf(
    "kind",
    z3({
      typeName: "ZodDefault",
      defaultValue: () => "a",
      innerType: z3({ typeName: "ZodString" }),
    }),
  );
  assert.deepEqual([v3.type, v3.required, v3.default], ["string", false, "a"]);
  const list = fieldOf(
    "ids",
    z4({
      type: "default",
      defaultValue: [],
      innerType: z4({ type: "array", element: z4({ type: "string" }) }),
    }),
  );
  assert.equal(list.default, undefined, "only scalar defaults");
});

Deno.test("fieldOf() reads an unknown kind as json and says so; objectFields() wants an object", () => {
  const notes: string[] = [];
  assert.equal(fieldOf("blob", z4({ type: "bigint" }), (m) => notes.push(m)).type, "json");
  assert.deepEqual(notes, ['blob: zod kind "bigint", read as json']);
  assert.equal(objectFields(undefined), undefined);
  assert.throws(() => objectFields(z4({ type: "string" })), /Expected an object schema/);
  assert.throws(() => fieldOf("x", 42), /Cannot read a zod schema/);
});

Deno.test("cleanText() flattens, drops control and bidi characters and markdown bold, and cuts", () => {
  assert.equal(cleanText("a\n\tb **Note**: c\u202ed\u0007", 100), "a b Note: c d");
  const long = "word ".repeat(40);
  const cut = cleanText(long, 50);
  assert.ok(cut.length <= 50 && cut.endsWith("…"), cut);
  assert.equal(cleanText(undefined, 10), "");
});

Deno.test("fieldOf() reads the real package: instance_view's query of calendar v4", async () => {
  // A computed specifier: the package's own type declarations are not checked.
  const group = "@larksuiteoapi/lark-mcp/dist/mcp-tool/tools/en/gen-tools/zod/calendar_v4.js";
  const tools: unknown[] = (await import(group)).calendarV4Tools;
  const tool = tools.map(readTool).find((t) => t.id === "calendar.v4.calendarEvent.instanceView");
  const query = objectFields(tool?.schema.params) ?? [];
  assert.deepEqual(query.map((f) => [f.name, f.type, f.required]), [
    ["start_time", "string", true],
    ["end_time", "string", true],
    ["user_id_type", "enum", false],
  ]);
  assert.deepEqual(query[2].values, ["open_id", "union_id", "user_id"]);
});
