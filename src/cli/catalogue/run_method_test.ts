import assert from "node:assert/strict";
import { fixtureSource, LIST_EVENTS } from "../../../tests/support/catalogue_fixture.ts";
import {
  createTestContext,
  FetchStub,
  jsonResponse,
  type TestContext,
  type TestContextOptions,
} from "../../../tests/support/test_context.ts";
import { Catalogue } from "../../catalogue/catalogue.ts";
import { ValidationError } from "../../errors/mod.ts";
import { buildRoot } from "../root.ts";
import { type CliOutcome, runCli } from "../run_cli.ts";
import { catalogueRef } from "./catalogue_ref.ts";
import { methodIdentity } from "./run_method.ts";

const BASE = "https://open.example.test";

/** Runs hark in-process on the fixture catalogue, with an environment token for BASE. */
async function hark(
  argv: string[],
  options: TestContextOptions = {},
): Promise<{ ctx: TestContext; outcome: CliOutcome; catalogue: Catalogue }> {
  const ctx = createTestContext({
    ...options,
    env: {
      HARK_CONFIG: "/nonexistent/hark/config.json",
      HARK_USER_ACCESS_TOKEN: "u-env",
      HARK_TENANT_ACCESS_TOKEN: "t-env",
      HARK_BASE_URL: BASE,
      ...options.env,
    },
  });
  const catalogue = new Catalogue(fixtureSource());
  const outcome = await runCli(ctx, argv, buildRoot(undefined, catalogueRef(catalogue)));
  return { ctx, outcome, catalogue };
}

function refused(outcome: CliOutcome): ValidationError {
  assert.equal(outcome.code, 2, String(outcome.error));
  assert.ok(outcome.error instanceof ValidationError);
  return outcome.error;
}

Deno.test("an API command with --dry-run prints the request it would send, and sends nothing", async () => {
  const stub = new FetchStub([]);
  const { ctx, outcome } = await hark([
    "calendar",
    "events",
    "list",
    "--calendar-id",
    "primary",
    "--page-size",
    "50",
    "--params",
    '{"user_id_type": "user_id"}',
    "--dry-run",
  ], { fetch: stub.fetch });
  assert.equal(outcome.code, 0, String(outcome.error));
  stub.verify();
  const preview = JSON.parse(ctx.stdout.text());
  assert.equal(preview.method, "GET");
  assert.equal(
    preview.url,
    `${BASE}/open-apis/calendar/v4/calendars/primary/events?page_size=50&user_id_type=user_id`,
  );
  assert.deepEqual(preview.query, { page_size: "50", user_id_type: "user_id" });
  assert.equal(preview.headers.Authorization, "Bearer ****");
});

Deno.test("the rule's resource name is an alias of lark-cli's", async () => {
  const { ctx, outcome } = await hark([
    "calendar",
    "calendar-event",
    "list",
    "--calendar-id",
    "c1",
    "--dry-run",
  ]);
  assert.equal(outcome.code, 0, String(outcome.error));
  assert.match(JSON.parse(ctx.stdout.text()).url, /calendars\/c1\/events$/);
});

Deno.test("an API command sends with the session's client and prints the answer's data", async () => {
  const stub = new FetchStub([{
    method: "POST",
    url: `${BASE}/open-apis/calendar/v4/calendars/primary/events?idempotency_key=k-1`,
    respond: async (request) => {
      assert.equal(request.headers.get("authorization"), "Bearer u-env");
      assert.deepEqual(await request.json(), {
        summary: "Standup",
        start_time: { timestamp: "1764000000" },
      });
      return jsonResponse({ code: 0, msg: "success", data: { event: { event_id: "e1" } } });
    },
  }]);
  const { ctx, outcome } = await hark([
    "calendar",
    "events",
    "create",
    "--calendar-id",
    "primary",
    "--summary",
    "Standup",
    "--idempotency-key",
    "k-1",
    "--data",
    '{"start_time": {"timestamp": "1764000000"}}',
  ], { fetch: stub.fetch });
  assert.equal(outcome.code, 0, String(outcome.error));
  stub.verify();
  assert.deepEqual(JSON.parse(ctx.stdout.text()), { event: { event_id: "e1" } });
});

Deno.test("--page-all follows page_token to the last page and writes every item", async () => {
  const page = (items: string[], token?: string) =>
    jsonResponse({
      code: 0,
      msg: "success",
      data: { items: items.map((id) => ({ event_id: id })), has_more: !!token, page_token: token },
    });
  const url = `${BASE}/open-apis/calendar/v4/calendars/c/events`;
  const stub = new FetchStub([
    { method: "GET", url: `${url}?page_size=2`, respond: () => page(["a", "b"], "t2") },
    { method: "GET", url: `${url}?page_size=2&page_token=t2`, respond: () => page(["c"]) },
  ]);
  const { ctx, outcome } = await hark(
    [
      "calendar",
      "events",
      "list",
      "--calendar-id",
      "c",
      "--page-size",
      "2",
      "--page-all",
      "--format",
      "ndjson",
    ],
    { fetch: stub.fetch },
  );
  assert.equal(outcome.code, 0, String(outcome.error));
  stub.verify();
  assert.deepEqual(ctx.stdout.text().trim().split("\n").map((l) => JSON.parse(l).event_id), [
    "a",
    "b",
    "c",
  ]);
});

Deno.test("an identity the method does not support is refused before anything is sent", async () => {
  const stub = new FetchStub([]);
  // docx document create is bot only; --as user asks for the user.
  const { outcome } = await hark(["docx", "document", "create", "--as", "user"], {
    fetch: stub.fetch,
  });
  const error = refused(outcome);
  assert.equal(error.param, "--as");
  assert.match(
    error.message,
    /cannot run as "user": docx\.v1\.document\.create accepts "bot" only/,
  );
  assert.equal(error.recovery.suggestion, "Use --as bot");
  assert.equal(methodIdentity(LIST_EVENTS, undefined), "user");
});

Deno.test("a bot-only method runs as the bot without --as", async () => {
  const stub = new FetchStub([{
    method: "POST",
    url: `${BASE}/open-apis/docx/v1/documents`,
    respond: (request) => {
      assert.equal(request.headers.get("authorization"), "Bearer t-env");
      return jsonResponse({ code: 0, msg: "success", data: { document: { document_id: "d" } } });
    },
  }]);
  const { outcome } = await hark(["docx", "document", "create", "--title", "Notes"], {
    fetch: stub.fetch,
  });
  assert.equal(outcome.code, 0, String(outcome.error));
  stub.verify();
});

Deno.test("bad values are exit 2 naming the flag or the field, before anything is sent", async () => {
  const cases: [string[], string, string][] = [
    [["calendar", "events", "list"], "--calendar-id", "Missing --calendar-id (path"],
    [
      ["calendar", "events", "list", "--calendar-id", "c", "--page-size", "lots"],
      "--page-size",
      'Invalid value "lots" for --page-size: expected a number',
    ],
    [
      ["calendar", "events", "list", "--calendar-id", "c", "--user-id-type", "email"],
      "--user-id-type",
      "Option '--user-id-type <value>' argument 'email' is invalid. Allowed choices are open_id, user_id",
    ],
    [
      [
        "calendar",
        "events",
        "create",
        "--calendar-id",
        "c",
        "--data",
        '{"start_time": {}, "colour": 1}',
      ],
      "--data",
      'Unknown --data field "colour"',
    ],
    [
      ["calendar", "events", "create", "--calendar-id", "c"],
      "--data",
      'Missing --data field "start_time": it is required',
    ],
    [
      ["calendar", "events", "list", "--calendar-id", "..", "--dry-run"],
      "--calendar-id",
      "an id is never",
    ],
    [
      ["calendar", "events", "list", "--calendar-id", "c", "--page-all", "--max-pages", "0"],
      "--max-pages",
      "expected a whole number of at least 1",
    ],
  ];
  for (const [argv, param, message] of cases) {
    const stub = new FetchStub([]);
    const { outcome, ctx } = await hark(argv, { fetch: stub.fetch });
    const error = refused(outcome);
    assert.ok(error.message.includes(message), `${argv.join(" ")}: ${error.message}`);
    assert.equal(error.param, param, argv.join(" "));
    assert.equal(ctx.stdout.text(), "", argv.join(" "));
  }
});

Deno.test("an unknown resource or method is exit 2 with did-you-mean", async () => {
  let error = refused((await hark(["calendar", "evnts", "list"])).outcome);
  assert.equal(error.message, "Unknown command 'evnts' (did you mean events?)");
  error = refused((await hark(["docx", "document", "creat"])).outcome);
  assert.equal(error.message, "Unknown command 'creat' (did you mean create?)");
  error = refused((await hark(["dcx"])).outcome);
  assert.equal(error.message, "Unknown command 'dcx' (did you mean docx?)");
});

Deno.test("a write is retried after a server error only when it carries its idempotency key", async () => {
  const url = `${BASE}/open-apis/calendar/v4/calendars/c/events`;
  const failed = () => jsonResponse({ code: 500000, msg: "busy" }, 500);
  const created = () =>
    jsonResponse({ code: 0, msg: "success", data: { event: { event_id: "e" } } });
  const argv = [
    "calendar",
    "events",
    "create",
    "--calendar-id",
    "c",
    "--data",
    '{"start_time": {}}',
  ];
  // With the key: the service applies a key at most once, so the write is sent again.
  let stub = new FetchStub([
    { method: "POST", url: `${url}?idempotency_key=k-1`, respond: failed },
    { method: "POST", url: `${url}?idempotency_key=k-1`, respond: created },
  ]);
  let run = await hark([...argv, "--idempotency-key", "k-1"], { fetch: stub.fetch });
  assert.equal(run.outcome.code, 0, String(run.outcome.error));
  stub.verify();
  // Without it: one attempt, and the error says the service failed.
  stub = new FetchStub([{ method: "POST", url, respond: failed }]);
  run = await hark(argv, { fetch: stub.fetch });
  assert.equal(run.outcome.code, 4);
  stub.verify();
});

Deno.test("a write whose answer was lost offers the same command with its key again", async () => {
  const url = `${BASE}/open-apis/calendar/v4/calendars/c/events?idempotency_key=k-1`;
  const dropped = () => Promise.reject(new TypeError("connection reset"));
  const stub = new FetchStub(
    Array.from({ length: 4 }, () => ({ method: "POST", url, respond: dropped })),
  );
  const { outcome } = await hark([
    "calendar",
    "events",
    "create",
    "--calendar-id",
    "c",
    "--idempotency-key",
    "k-1",
    "--data",
    '{"start_time": {"timestamp": "1"}}',
  ], { fetch: stub.fetch });
  assert.equal(outcome.code, 4, String(outcome.error));
  stub.verify();
  assert.ok(outcome.error?.mayHaveApplied);
  assert.equal(
    outcome.error?.recovery.command,
    "hark calendar events create --calendar-id c --idempotency-key k-1 --data " +
      `'{"start_time": {"timestamp": "1"}}'`,
  );
});
