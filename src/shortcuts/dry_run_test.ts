import assert from "node:assert/strict";
import { createTestContext } from "../../tests/support/test_context.ts";
import type { RequestPreview } from "../http/request.ts";
import { update } from "./calendar/update.ts";
import { drawDryRun, uniquePreviews } from "./dry_run.ts";
import { runShortcut, type ShortcutSession } from "./lifecycle.ts";

const GET: RequestPreview = {
  method: "GET",
  url: "https://open.example.com/open-apis/calendar/v4/calendars/primary/events/e1",
  query: {},
  headers: { Authorization: "Bearer ****" },
  token: "user_access_token",
};
const PATCH: RequestPreview = {
  ...GET,
  method: "PATCH",
  url: `${GET.url}?user_id_type=open_id`,
  body: { summary: "Planning" },
};

Deno.test("uniquePreviews() lists a request sent twice once, where it first comes", () => {
  assert.deepEqual(uniquePreviews([GET, PATCH, { ...GET }, PATCH]), [GET, PATCH]);
  assert.deepEqual(uniquePreviews([GET, { ...GET, token: "tenant_access_token" }]).length, 2);
});

Deno.test("drawDryRun() puts the change over one line a request, bodies compact below", () => {
  assert.equal(
    drawDryRun('Would update event e1:\n  summary  → "Planning"\n', [GET, PATCH]),
    'Would update event e1:\n  summary  → "Planning"\n' +
      "Would send 2 requests:\n" +
      `  GET   ${GET.url} (user_access_token)\n` +
      `  PATCH ${PATCH.url} (user_access_token)\n` +
      '        {"summary":"Planning"}\n' +
      "Dry run: nothing was sent (--json for the requests as JSON)\n",
  );
});

function dryRunSession(terminal: boolean, format?: "json") {
  const ctx = createTestContext({ stdoutIsTerminal: terminal, columns: 80 });
  const session: ShortcutSession = {
    ctx,
    config: {},
    profile: "default",
    dryRun: true,
    output: { format, color: false },
    baseUrl: () => "https://open.example.com",
    connect: () => Promise.reject(new Error("a dry run resolves no token")),
    confirm: () => Promise.resolve(false),
  };
  return { session, ctx };
}

const UPDATE_ARGS = {
  argv: {
    "event-id": "e1_0",
    summary: "Planning",
    start: "2026-11-24 14:00",
    end: "2026-11-24 15:00",
    "add-attendees": "ou_2",
  },
};

Deno.test("+update --dry-run at a terminal shows the change and each request once", async () => {
  const { session, ctx } = dryRunSession(true);
  await runShortcut(session, update, UPDATE_ARGS);
  const text = ctx.stdout.text();
  assert.match(text, /^Would update event e1_0:\n {2}summary +→ "Planning"\n/);
  assert.match(text, /^ {2}start_time +→ 2026-11-24 14:00$/m);
  assert.match(text, /^ {2}end_time +→ 2026-11-24 15:00$/m);
  assert.match(text, /^ {2}\+ attendee ou_2$/m);
  const gets = text.split("\n").filter((l) => /^ {2}GET .*\/events\/e1_0\?/.test(l));
  assert.equal(gets.length, 1, text);
  assert.ok(text.split("\n").length < 20, text);
});

Deno.test("+update --dry-run --json keeps the request list, without the repeated read", async () => {
  const { session, ctx } = dryRunSession(false, "json");
  await runShortcut(session, update, UPDATE_ARGS);
  const previews: RequestPreview[] = JSON.parse(ctx.stdout.text());
  const keys = previews.map((p) => `${p.method} ${p.url}`);
  assert.equal(new Set(keys).size, keys.length, keys.join("\n"));
  assert.deepEqual(previews.map((p) => p.method), ["GET", "GET", "PATCH", "POST"]);
});
