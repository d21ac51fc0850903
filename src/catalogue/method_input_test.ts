import assert from "node:assert/strict";
import { CREATE_EVENT, LIST_EVENTS } from "../../tests/support/catalogue_fixture.ts";
import { createTestContext } from "../../tests/support/test_context.ts";
import { ValidationError } from "../errors/mod.ts";
import { methodFlags } from "./method_flags.ts";
import { commandInput, commandLabel } from "./method_input.ts";
import { buildMethodRequest } from "./method_request.ts";

const RESERVED = new Set(["format", "data", "params", "help"]);

Deno.test("commandInput() types flag values and lets them override --params and --data", async () => {
  const ctx = createTestContext();
  const flags = methodFlags(CREATE_EVENT, RESERVED);
  const input = await commandInput(ctx, flags, {
    flags: {
      "calendar-id": "primary",
      summary: "From the flag",
      "need-notification": "false",
      "attendee-ids": ["ou_1", "ou_2"],
      "body-format": "md",
    },
    params: '{"idempotency_key": "k-1"}',
    data: '{"summary": "From --data", "start_time": {"timestamp": "1"}}',
  });
  assert.deepEqual(input, {
    path: { calendar_id: "primary" },
    query: { idempotency_key: "k-1" },
    body: {
      summary: "From the flag",
      start_time: { timestamp: "1" },
      need_notification: false,
      attendee_ids: ["ou_1", "ou_2"],
      format: "md",
    },
  });
});

Deno.test("commandInput() reads --data from stdin or a file, and refuses both JSON flags on stdin", async () => {
  const ctx = createTestContext({ stdin: '{"page_size": 5}' });
  const flags = methodFlags(LIST_EVENTS, RESERVED);
  const input = await commandInput(ctx, flags, { flags: { "page-size": "20" }, params: "-" });
  assert.deepEqual(input.query, { page_size: 20 });
  await assert.rejects(
    commandInput(ctx, flags, { flags: {}, params: "-", data: "-" }),
    { message: "Only one of --params and --data can read stdin" },
  );
  await assert.rejects(commandInput(ctx, flags, { flags: {}, data: "[1]" }), {
    name: "ValidationError",
    message: "Invalid --data: expected a JSON object of body fields",
  });
  await assert.rejects(commandInput(ctx, flags, { flags: {}, data: "@/nonexistent/body.json" }), {
    message: 'Cannot read --data file "/nonexistent/body.json": no such file',
  });
});

Deno.test("commandInput() names the flag of a bad value", async () => {
  const ctx = createTestContext();
  const flags = methodFlags(LIST_EVENTS, RESERVED);
  const error = await commandInput(ctx, flags, { flags: { "page-size": "many" } }).catch((e) => e);
  assert.ok(error instanceof ValidationError);
  assert.equal(error.message, 'Invalid value "many" for --page-size: expected a number');
  assert.equal(error.param, "--page-size");
});

Deno.test("commandLabel() names a field by its flag, else by the JSON flag carrying it", () => {
  const flags = methodFlags(CREATE_EVENT, RESERVED);
  const label = commandLabel(flags);
  assert.deepEqual(label("body", "summary"), {
    label: '--summary (body "summary")',
    param: "--summary",
  });
  assert.deepEqual(label("body", "start_time.timestamp"), {
    label: '--data field "start_time.timestamp"',
    param: "--data",
  });
  assert.deepEqual(label("query", "nope"), { label: '--params field "nope"', param: "--params" });
  const error = (() => {
    try {
      buildMethodRequest(CREATE_EVENT, { path: { calendar_id: "c" }, body: { start_time: 1 } }, {
        label,
      });
    } catch (e) {
      return e;
    }
  })();
  assert.ok(error instanceof ValidationError);
  assert.equal(error.message, 'Invalid value 1 for --data field "start_time": expected an object');
  assert.equal(error.param, "--data");
});
