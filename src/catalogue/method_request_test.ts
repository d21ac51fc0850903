import assert from "node:assert/strict";
import {
  CREATE_DOCUMENT,
  CREATE_EVENT,
  fixtureSource,
  LIST_EVENTS,
} from "../../tests/support/catalogue_fixture.ts";
import { Catalogue } from "./catalogue.ts";
import { ValidationError } from "../errors/mod.ts";
import { buildMethodRequest, type MethodInput, requestForId } from "./method_request.ts";
import type { CatalogueMethod } from "./format.ts";

/** The validation error of building a request. */
function refusal(method: CatalogueMethod, input: MethodInput): ValidationError {
  try {
    buildMethodRequest(method, input);
  } catch (error) {
    assert.ok(error instanceof ValidationError, String(error));
    assert.equal(error.code, 2);
    return error;
  }
  assert.fail("expected a ValidationError");
}

Deno.test("buildMethodRequest() fills the path, keeps the query and leaves out null", () => {
  const request = buildMethodRequest(LIST_EVENTS, {
    path: { calendar_id: "feishu.cn_a/b c@group" },
    query: { page_size: 50, user_id_type: "open_id", page_token: null },
  });
  assert.deepEqual(request, {
    method: "GET",
    path: "/open-apis/calendar/v4/calendars/feishu.cn_a%2Fb%20c%40group/events",
    query: { page_size: 50, user_id_type: "open_id" },
  });
});

Deno.test("buildMethodRequest() sends the body as given and marks a write with its key", () => {
  const body = {
    start_time: { timestamp: "1764000000" },
    reminders: [{ minutes: 5 }],
    attendee_ids: ["ou_1"],
    extra: null,
  };
  const request = buildMethodRequest(CREATE_EVENT, {
    path: { calendar_id: "primary" },
    query: { idempotency_key: "k-1" },
    body,
  });
  assert.deepEqual(request, {
    method: "POST",
    path: "/open-apis/calendar/v4/calendars/primary/events",
    query: { idempotency_key: "k-1" },
    body,
    idempotencyKey: "k-1",
  });
  // Without fields, a write sends an empty object, as the official SDK does; a GET sends none.
  assert.deepEqual(buildMethodRequest(CREATE_DOCUMENT, {}), {
    method: "POST",
    path: "/open-apis/docx/v1/documents",
    body: {},
  });
  assert.equal(
    buildMethodRequest(LIST_EVENTS, { path: { calendar_id: "c" } }).body,
    undefined,
  );
});

Deno.test("buildMethodRequest() names a missing required value", () => {
  let error = refusal(LIST_EVENTS, {});
  assert.equal(
    error.message,
    'Missing path parameter "calendar_id": it is required (text: the calendar)',
  );
  error = refusal(LIST_EVENTS, { path: { calendar_id: "  " } });
  assert.match(error.message, /^Missing path parameter "calendar_id"/);
  error = refusal(CREATE_EVENT, { path: { calendar_id: "c" } });
  assert.equal(
    error.message,
    'Missing body field "start_time": it is required (an object: the start)',
  );
  error = refusal(CREATE_EVENT, {
    path: { calendar_id: "c" },
    body: { start_time: {}, reminders: [{}] },
  });
  assert.equal(
    error.message,
    'Missing body field "reminders[0].minutes": it is required (a whole number: before)',
  );
  assert.equal(error.param, "reminders[0].minutes");
});

Deno.test("buildMethodRequest() names a value of the wrong type or outside its set", () => {
  const cases: [MethodInput, string][] = [
    [
      { path: { calendar_id: "c" }, query: { page_size: "ten" } },
      'Invalid value "ten" for query parameter "page_size": expected a number',
    ],
    [
      { path: { calendar_id: "c" }, query: { user_id_type: "email" } },
      'Invalid value "email" for query parameter "user_id_type": expected one of "open_id", "user_id"',
    ],
    [
      { path: { calendar_id: "c" }, query: { start_time: { a: 1 } } },
      'Invalid value {"a":1} for query parameter "start_time": expected text',
    ],
  ];
  for (const [input, message] of cases) assert.equal(refusal(LIST_EVENTS, input).message, message);
  const write = (body: Record<string, unknown>) =>
    refusal(CREATE_EVENT, { path: { calendar_id: "c" }, body: { start_time: {}, ...body } });
  assert.equal(
    write({ need_notification: "yes" }).message,
    'Invalid value "yes" for body field "need_notification": expected true or false',
  );
  assert.equal(
    write({ reminders: [{ minutes: 1.5 }] }).message,
    'Invalid value 1.5 for body field "reminders[0].minutes": expected a whole number',
  );
  assert.equal(
    write({ attendee_ids: "ou_1" }).message,
    'Invalid value "ou_1" for body field "attendee_ids": expected a list',
  );
  assert.equal(
    write({ summary: null }).message,
    'Invalid value null for body field "summary": expected text',
  );
  const long = write({ summary: ["x".repeat(200)] }).message;
  assert.ok(long.length < 160, long);
});

Deno.test("buildMethodRequest() refuses unknown fields at every depth, listing the known ones", () => {
  let error = refusal(LIST_EVENTS, { path: { calendar_id: "c" }, query: { pagesize: 1 } });
  assert.equal(error.message, 'Unknown query parameter "pagesize"');
  assert.match(error.recovery.suggestion, /^Known fields: page_size, page_token/);
  error = refusal(CREATE_EVENT, {
    path: { calendar_id: "c" },
    body: { start_time: { timestmp: "1" } },
  });
  assert.equal(error.message, 'Unknown body field "start_time.timestmp"');
  assert.equal(error.recovery.suggestion, 'Known fields of "start_time": timestamp, timezone');
  error = refusal(LIST_EVENTS, { path: { calendar_id: "c", event_id: "e" } });
  assert.equal(error.message, 'Unknown path parameter "event_id"');
  const withHint = () =>
    buildMethodRequest(
      LIST_EVENTS,
      { path: { calendar_id: "c" }, query: { page_sise: 1 } },
      { suggest: (word, names) => names.find((n) => n.startsWith(word.slice(0, 6))) },
    );
  assert.throws(withHint, {
    message: 'Unknown query parameter "page_sise" (did you mean "page_size"?)',
  });
});

Deno.test("buildMethodRequest() refuses ids that would address another resource", () => {
  for (const id of ["..", "."]) {
    const error = refusal(LIST_EVENTS, { path: { calendar_id: id } });
    assert.match(error.message, /an id is never "\." or "\.\."/, id);
  }
  // Encoded, these are names, never dot segments.
  const path = (id: string) => buildMethodRequest(LIST_EVENTS, { path: { calendar_id: id } }).path;
  assert.equal(path("a..b"), "/open-apis/calendar/v4/calendars/a..b/events");
  assert.equal(path("%2e%2e"), "/open-apis/calendar/v4/calendars/%252e%252e/events");
  assert.equal(path("../x"), "/open-apis/calendar/v4/calendars/..%2Fx/events");
});

Deno.test("buildMethodRequest() refuses a body for a method that takes none", () => {
  const error = refusal(LIST_EVENTS, { path: { calendar_id: "c" }, body: { a: 1 } });
  assert.equal(error.message, "calendar.v4.calendarEvent.list takes no body");
});

Deno.test("buildMethodRequest() names fields through the label it is given", () => {
  assert.throws(
    () =>
      buildMethodRequest(LIST_EVENTS, { path: { calendar_id: "c" }, query: { page_size: "x" } }, {
        label: (place, path) => ({
          label: `--${path.replace("_", "-")} (${place})`,
          param: `--${path}`,
        }),
      }),
    (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.equal(error.message, 'Invalid value "x" for --page-size (query): expected a number');
      assert.equal(error.param, "--page_size");
      return true;
    },
  );
});

Deno.test("requestForId() builds a method's request by id, loading only its resource's part", async () => {
  const source = fixtureSource();
  const catalogue = new Catalogue(source);
  const request = await requestForId(catalogue, LIST_EVENTS.id, { path: { calendar_id: "c" } });
  assert.equal(request.path, "/open-apis/calendar/v4/calendars/c/events");
  assert.deepEqual(source.reads, ["calendar_v4.calendarEvent"]);
  await assert.rejects(requestForId(catalogue, "calendar.v4.calendarEvent.nope", {}), {
    name: "ValidationError",
    message: 'Unknown API method "calendar.v4.calendarEvent.nope"',
  });
});
