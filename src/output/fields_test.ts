import assert from "node:assert/strict";
import { createTestContext } from "../../tests/support/test_context.ts";
import { ValidationError } from "../errors/mod.ts";
import { FieldProjection, parseFields } from "./fields.ts";
import { openDataStream, writeData } from "./output.ts";

Deno.test("parseFields() reads names separated by commas, each once", () => {
  assert.deepEqual(parseFields(" event_id, summary ,event_id"), ["event_id", "summary"]);
});

Deno.test("parseFields() refuses an empty list and a name that is not a field name", () => {
  for (const [text, why] of [[",", /no field names/], ["a,b c", /bad field name "b c"/]] as const) {
    assert.throws(() => parseFields(text), (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.equal(error.code, 2);
      assert.equal(error.param, "--fields");
      assert.match(error.message, why);
      return true;
    });
  }
});

Deno.test("FieldProjection keeps the named fields in order, and leaves non-records alone", () => {
  const projection = new FieldProjection(["b", "a"]);
  assert.deepEqual(
    projection.project([{ a: 1, b: 2, c: 3 }, { a: 4 }, "text"]).map((r) => JSON.stringify(r)),
    ['{"b":2,"a":1}', '{"a":4}', '"text"'],
  );
});

Deno.test("FieldProjection refuses an unknown field, listing the known ones", () => {
  const projection = new FieldProjection(["summary", "nope"], ["event_id"]);
  assert.throws(
    () => projection.project([{ summary: "x", status: "confirmed" }]),
    (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.equal(error.code, 2);
      assert.equal(
        error.message,
        'Unknown field "nope" for --fields; known fields: event_id, status, summary',
      );
      return true;
    },
  );
});

Deno.test("FieldProjection knows a declared column's field before any record has it", () => {
  const projection = new FieldProjection(["thread_id"], ["thread_id"]);
  assert.deepEqual(projection.project([{ message_id: "om_1" }]), [{}]);
});

Deno.test("FieldProjection checks the first records only: a later page may lack a field", () => {
  const projection = new FieldProjection(["a"]);
  assert.deepEqual(projection.project([]), []);
  assert.deepEqual(projection.project([{ a: 1 }]), [{ a: 1 }]);
  assert.deepEqual(projection.project([{ b: 1 }]), [{}]);
});

Deno.test("writeData() with fields projects JSON and makes the table's columns", async () => {
  const rows = [{ id: "ou_1", name: "Ann", mail: "a@x" }];
  const json = createTestContext();
  await writeData(json, { format: "json", color: false, fields: ["name", "id"] }, rows);
  assert.equal(json.stdout.text(), '[{"id":"ou_1","name":"Ann"}]\n');
  const csv = createTestContext();
  await writeData(csv, { format: "csv", color: false, fields: ["name", "id"] }, rows, [
    { header: "MAIL", value: "mail" },
  ]);
  assert.equal(csv.stdout.text(), "NAME,ID\r\nAnn,ou_1\r\n");
  const single = createTestContext();
  await writeData(single, { format: "json", color: false, fields: ["id"] }, rows[0]);
  assert.equal(single.stdout.text(), '{"id":"ou_1"}\n');
});

Deno.test("openDataStream() with fields projects every batch", async () => {
  const ctx = createTestContext();
  const out = await openDataStream(ctx, { format: "ndjson", color: false, fields: ["id"] });
  out.write([{ id: 1, x: 2 }]);
  out.write([{ id: 3, y: 4 }]);
  out.end();
  assert.equal(ctx.stdout.text(), '{"id":1}\n{"id":3}\n');
});
