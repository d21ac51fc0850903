import assert from "node:assert/strict";
import { join } from "node:path";
import { MemoryKeychain } from "../keychain/memory_keychain.ts";
import { testSession } from "../../tests/support/test_session.ts";
import type { Session } from "../session/session.ts";
import {
  createTestContext,
  type ExpectedRequest,
  FetchStub,
  jsonResponse,
  type TestContext,
} from "../../tests/support/test_context.ts";
import { fakeGroups, keyed, rewrite, save } from "../../tests/support/fake_shortcuts.ts";
import type { AnyShortcut } from "../shortcuts/definition.ts";
import type { FilesFolder } from "./local_files.ts";
import { ToolRunner } from "./tool_runner.ts";
import { terminalAdvice } from "./terminal_advice.ts";
import type { ToolResult } from "./tool_result.ts";
import { selectTools, type ToolSetOptions } from "./tool_set.ts";
import { AuthError, PermissionError, ValidationError } from "../errors/mod.ts";

const BASE_URL = "https://open.example.com";
const CONFIG = { apps: { default: { app_id: "cli_test", base_url: BASE_URL } } };
const USER_TOKEN = "u-test-token-0123456789";

/** A runner over the fake shortcuts, with a strict fetch stub and a counted session. */
function setup(
  expected: ExpectedRequest[],
  options: {
    env?: Record<string, string>;
    tools?: Partial<ToolSetOptions>;
    runner?: { dryRun?: boolean; identity?: "user" | "bot"; files?: FilesFolder };
    extra?: AnyShortcut[];
  } = {},
) {
  const stub = new FetchStub(expected);
  const ctx = createTestContext({
    env: options.env ?? { HARK_USER_ACCESS_TOKEN: USER_TOKEN, HARK_BASE_URL: BASE_URL },
    fetch: stub.fetch,
    timeZone: "Europe/Paris",
  });
  const sessions: Session[] = [];
  const runner = new ToolRunner(ctx, {
    openSession: () => {
      const session = testSession(ctx, {}, CONFIG);
      sessions.push(session);
      return Promise.resolve(session);
    },
    dryRun: options.runner?.dryRun ?? false,
    identity: options.runner?.identity,
    files: options.runner?.files,
  });
  const tools = selectTools(fakeGroups(options.extra), {
    readOnly: false,
    allowRawApi: true,
    timeZone: "Europe/Paris",
    ...options.tools,
  });
  const call = (name: string, args?: unknown, signal = new AbortController().signal) =>
    runner.call(tools.exposed.get(name)!, args, signal);
  return { ctx, stub, call, sessions };
}

function ok(data: unknown): (request: Request) => Response {
  return () => jsonResponse({ code: 0, msg: "success", data });
}

function envelopeOf(result: ToolResult) {
  assert.equal(result.isError, true, JSON.stringify(result));
  return (result.structuredContent as {
    error: {
      code: number;
      type: string;
      message: string;
      recovery: { suggestion: string; command: string };
    };
  }).error;
}

function assertQuiet(ctx: TestContext): void {
  assert.equal(ctx.stdout.text(), "", "nothing reaches the server's stdout");
  assert.equal(ctx.stderr.text(), "", "warnings go with the result, not to stderr");
}

Deno.test("a call runs the shortcut's lifecycle and answers its JSON output", async () => {
  const folder = await Deno.realPath(await Deno.makeTempDir());
  try {
    await Deno.writeTextFile(join(folder, "notes.txt"), "remember");
    const { ctx, stub, call } = setup([
      {
        method: "GET",
        url: `${BASE_URL}/open-apis/demo/echo?name=ann`,
        respond: (request) => {
          assert.equal(request.headers.get("authorization"), `Bearer ${USER_TOKEN}`);
          return ok({})(request);
        },
      },
    ], { runner: { files: { real: folder } } });
    const result = await call("demo_every_type", {
      name: "ann",
      count: 3,
      loud: true,
      color: "red",
      when: "2026-11-21 10:00",
      notes_file: "notes.txt",
      timezone: "Asia/Tokyo",
    });
    stub.verify();
    assert.equal(result.isError, undefined);
    assert.deepEqual(result.structuredContent, {
      name: "ann",
      count: 3,
      loud: true,
      color: "red",
      when: Date.parse("2026-11-21T10:00:00+09:00"),
      notes: "remember",
      identity: "user",
    });
    assert.equal(
      result.content[0].text,
      "hark demo +every-type: done.\nWarning: Echoes are loud",
    );
    // The data is sent once, as structured content: the text is the summary alone.
    assert.equal(result.content.length, 1);
    assertQuiet(ctx);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("defaults apply and as picks the identity", async () => {
  const { call, stub } = setup(
    [{ method: "GET", url: `${BASE_URL}/open-apis/demo/echo?name=bo`, respond: ok({}) }],
    { env: { HARK_TENANT_ACCESS_TOKEN: "t-tenant-token-0123456789", HARK_BASE_URL: BASE_URL } },
  );
  const result = await call("demo_every_type", { name: "bo", as: "bot", color: null });
  stub.verify();
  assert.equal(stub.requests[0].headers.get("authorization"), "Bearer t-tenant-token-0123456789");
  const data = result.structuredContent as Record<string, unknown>;
  assert.equal(data.identity, "bot");
  assert.equal(data.count, 2);
  assert.equal(data.color, null);
  assert.equal(data.when, "2026-11-21", "today, in the server's zone");
});

Deno.test("a listing goes out a page at a time: limit, has_more, a page_token bound to the arguments, fields", async () => {
  const { call, stub } = setup([
    { method: "GET", url: `${BASE_URL}/open-apis/demo/items`, respond: ok({}) },
    { method: "GET", url: `${BASE_URL}/open-apis/demo/items`, respond: ok({}) },
    { method: "GET", url: `${BASE_URL}/open-apis/demo/items`, respond: ok({}) },
  ]);
  const first = await call("demo_list", { prefix: "x", limit: 2, fields: ["id"] });
  const page = first.structuredContent as {
    items: unknown[];
    has_more: boolean;
    page_token: string;
  };
  assert.deepEqual(page.items, [{ id: "x1" }, { id: "x2" }]);
  assert.equal(page.has_more, true);
  assert.match(first.content[0].text, new RegExp(`page_token "${page.page_token}"`));
  const rest = await call("demo_list", {
    prefix: "x",
    limit: 2,
    fields: ["id"],
    page_token: page.page_token,
  });
  assert.deepEqual(rest.structuredContent, { items: [{ id: "x3" }], has_more: false });
  // The token continues only the listing that returned it.
  const other = envelopeOf(
    await call("demo_list", { prefix: "y", limit: 2, page_token: page.page_token }),
  );
  assert.equal(other.type, "validation");
  assert.match(other.message, /page_token.*other arguments/);
  const forged = envelopeOf(await call("demo_list", { prefix: "x", page_token: "h1.e30" }));
  assert.match(forged.message, /not a token demo_list returned/);
  const badFields = envelopeOf(await call("demo_list", { prefix: "x", fields: ["nope"] }));
  assert.equal(badFields.type, "validation");
  stub.verify();
});

Deno.test("a streamed listing is collected into items", async () => {
  const { call, stub, ctx } = setup([
    { method: "GET", url: `${BASE_URL}/open-apis/demo/items`, respond: ok({}) },
  ]);
  const result = await call("demo_list", { prefix: "x" });
  stub.verify();
  assert.deepEqual(result.structuredContent, {
    items: [{ id: "x1" }, { id: "x2" }, { id: "x3" }],
    has_more: false,
  });
  assert.equal(
    result.content[0].text,
    "hark demo +list: 3 results (rows 1 to 3) in structuredContent.items. That is all.",
  );
  assertQuiet(ctx);
});

Deno.test("dry_run previews a change without a token or a request", async () => {
  const { call, stub } = setup([], { env: {} });
  const result = await call("demo_post", { text: "hi", dry_run: true });
  stub.verify();
  const data = result.structuredContent as { dry_run: boolean; requests: { url: string }[] };
  assert.equal(data.dry_run, true);
  assert.deepEqual(data.requests.map((r) => r.url), [`${BASE_URL}/open-apis/demo/notes`]);
  assert.equal(
    result.content[0].text,
    `Dry run of hark demo +post: nothing was sent. It would send 1 request: POST ${BASE_URL}` +
      "/open-apis/demo/notes.",
  );
  const forced = setup([], { env: {}, runner: { dryRun: true } });
  const preview = await forced.call("demo_post", { text: "hi" });
  assert.equal((preview.structuredContent as { dry_run: boolean }).dry_run, true);
});

Deno.test("a write runs for real without dry_run", async () => {
  const { call, stub } = setup([
    {
      method: "POST",
      url: `${BASE_URL}/open-apis/demo/notes`,
      respond: ok({ note_id: "n1", text: "hi" }),
    },
  ]);
  const result = await call("demo_post", { text: "hi", dry_run: false });
  stub.verify();
  assert.deepEqual(await stub.requests[0].json(), { text: "hi" });
  assert.deepEqual(result.structuredContent, { note_id: "n1", text: "hi" });
  assert.equal(result.content[0].text, "hark demo +post: done (note_id n1).");
});

Deno.test("a delete needs yes: true; the shortcut's confirmation is answered by it", async () => {
  const refused = setup([]);
  const error = envelopeOf(await refused.call("demo_remove", { note_id: "n1" }));
  assert.equal(error.type, "validation");
  assert.equal(error.message, "Cannot run demo_remove without confirmation: it deletes data");
  assert.match(error.recovery.suggestion, /call again with yes: true/);
  refused.stub.verify();

  const preview = setup([], { env: {} });
  const planned = await preview.call("demo_remove", { note_id: "n1", dry_run: true });
  assert.equal((planned.structuredContent as { dry_run: boolean }).dry_run, true);

  const { call, stub } = setup([
    { method: "DELETE", url: `${BASE_URL}/open-apis/demo/notes/n1`, respond: ok({}) },
  ]);
  const done = await call("demo_remove", { note_id: "n1", yes: true });
  stub.verify();
  assert.deepEqual(done.structuredContent, { removed: true, note_id: "n1" });
});

Deno.test("a write that may destroy data, or a call replacing a file, needs yes: true", async () => {
  const folder = await Deno.realPath(await Deno.makeTempDir());
  try {
    const { call } = setup([], { extra: [rewrite, save], runner: { files: { real: folder } } });
    const destructive = envelopeOf(await call("demo_rewrite", { text: "x" }));
    assert.equal(
      destructive.message,
      "Cannot run demo_rewrite without confirmation: it may overwrite or remove data in Lark " +
        "with no way back",
    );
    assert.equal(destructive.recovery.suggestion.endsWith("(or preview with dry_run: true)"), true);
    const done = await call("demo_rewrite", { text: "x", yes: true });
    assert.deepEqual(done.structuredContent, { rewritten: true });

    const saved = await call("demo_save", { output: "a.txt" });
    assert.deepEqual(saved.structuredContent, { path: join(folder, "a.txt"), force: false });
    const replacing = envelopeOf(await call("demo_save", { output: "a.txt", force: true }));
    assert.equal(
      replacing.message,
      "Cannot run demo_save without confirmation: with force: true it replaces a file already " +
        "there",
    );
    assert.match(replacing.recovery.suggestion, /yes: true \(or leave out force\)$/);
    const confirmed = await call("demo_save", { output: "a.txt", force: true, yes: true });
    assert.deepEqual(confirmed.structuredContent, { path: join(folder, "a.txt"), force: true });
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("a keyed write gets a key derived from the call unless one is given", async () => {
  const { ctx, call } = setup([], { extra: [keyed] });
  const keyOf = async (args: Record<string, unknown>) =>
    ((await call("demo_say", args)).structuredContent as { key: string }).key;
  const first = await keyOf({ text: "hi" });
  assert.match(first, /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-/);
  assert.equal(await keyOf({ text: "hi" }), first, "an identical call, the same key");
  assert.equal(await keyOf({ text: "hi", dry_run: false }), first);
  assert.notEqual(await keyOf({ text: "hello" }), first);
  assert.notEqual(await keyOf({ text: "hi", as: "bot" }), first, "another identity");
  assert.equal(await keyOf({ text: "hi", as: "user" }), first, "the default identity named");
  assert.equal(await keyOf({ text: "hi", idempotency_key: "mine" }), "mine");
  const preview = await call("demo_say", { text: "hi", dry_run: true });
  assert.match(JSON.stringify(preview.structuredContent), new RegExp(first));
  ctx.advance(10 * 60_000);
  assert.notEqual(await keyOf({ text: "hi" }), first, "ten minutes on, a new call");
});

Deno.test("arguments nested too deep are refused before anything walks them", async () => {
  const { call, stub } = setup([]);
  let deep: unknown = "x";
  for (let i = 0; i < 100_000; i++) deep = i % 2 === 0 ? [deep] : { a: deep };
  const error = envelopeOf(await call("demo_post", { text: deep }));
  assert.equal(error.type, "validation");
  assert.equal(error.message, "Invalid arguments: nested more than 32 levels deep");
  let fine: unknown = "x";
  for (let i = 0; i < 30; i++) fine = { a: fine };
  const shallow = envelopeOf(await call("demo_post", { text: fine }));
  assert.match(shallow.message, /^Invalid value .* for text/);
  stub.verify();
});

Deno.test("bad arguments are validation errors in the tool's own names", async () => {
  const { call, stub } = setup([]);
  const cases: [string, unknown, RegExp][] = [
    ["demo_post", { text: " " }, /^Invalid value "" for text: expected the note$/],
    [
      "demo_every_type",
      { name: "a", count: 1.5 },
      /^Invalid value 1\.5 for count: expected a whole/,
    ],
    ["demo_every_type", { name: "a", when: "soon" }, /^Invalid value "soon" for when: expected/],
    ["demo_every_type", { name: "a", color: "green" }, /for color: expected one of "red", "blue"/],
    [
      "demo_every_type",
      { name: "a", notes_file: "/nonexistent/n" },
      /^Cannot read "\/nonexistent\/n" \(notes_file\): local files are off for agents/,
    ],
    ["demo_every_type", { name: "a", colour: "red" }, /^Unknown argument "colour" for demo_every/],
    ["demo_every_type", { count: 1 }, /^Missing required argument "name" for demo_every_type$/],
    ["demo_every_type", { name: "a", as: "root" }, /^Invalid argument "as": expected one of/],
    ["demo_post", { text: "a", dry_run: "yes" }, /^Invalid argument "dry_run": expected true/],
    ["demo_post", ["a"], /^Invalid arguments: expected a JSON object$/],
  ];
  for (const [tool, args, message] of cases) {
    const error = envelopeOf(await call(tool, args));
    assert.equal(error.type, "validation", JSON.stringify(args));
    assert.equal(error.code, 2);
    assert.match(error.message, message);
    assert.doesNotMatch(error.message, /--(text|count|when|color|name)\b/);
  }
  const unknown = envelopeOf(await call("demo_every_type", { name: "a", colour: "red" }));
  assert.match(unknown.recovery.suggestion, /^Known arguments: name, count, loud, color, when/);
  assert.equal(unknown.recovery.command, "hark schema demo +every-type");
  stub.verify();
});

Deno.test("a file argument outside --files is refused before anything is read or sent", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  try {
    const folder = join(root, "files");
    await Deno.mkdir(folder);
    await Deno.writeTextFile(join(root, "secret"), "the key");
    await Deno.symlink(join(root, "secret"), join(folder, "link"));
    const { call, stub, sessions } = setup([], { runner: { files: { real: folder } } });
    for (const path of ["../secret", join(root, "secret"), "link"]) {
      const result = await call("demo_every_type", { name: "a", notes_file: path });
      const error = envelopeOf(result);
      assert.equal(error.type, "validation");
      assert.match(
        error.message,
        new RegExp(
          `^Cannot read "${path}" \\(notes_file\\): it (is|leads through a link) ` +
            `outside "${folder}"`,
        ),
      );
      assert.ok(!JSON.stringify(result).includes("the key"));
    }
    assert.equal(sessions.length, 0, "refused before the session is even opened");
    stub.verify();
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("no token: an auth error saying to sign in in a terminal; the next call looks again", async () => {
  const { call, sessions, ctx } = setup([]);
  (ctx.env as { get(name: string): string | undefined }).get = () => undefined;
  const result = await call("demo_list", {});
  const error = envelopeOf(result);
  assert.equal(error.type, "auth");
  assert.equal(error.code, 3);
  assert.equal(error.recovery.command, "hark auth login");
  assert.match(error.recovery.suggestion, /never prompts/);
  assert.match(error.recovery.suggestion, /`hark auth login` in a terminal/);
  assert.match(error.recovery.suggestion, /`hark auth login --no-wait --json`/);
  assert.match(error.recovery.suggestion, /`hark auth login --device-code <device_code>`/);
  assert.match(result.content[0].text, /^Error \(auth\): Not signed in to profile "default"\n/);
  await call("demo_list", {});
  assert.equal(sessions.length, 2, "the session was opened again after the auth error");
});

Deno.test("concurrent calls share one session", async () => {
  const { call, sessions } = setup(
    Array.from({ length: 5 }, () => ({
      method: "GET",
      url: `${BASE_URL}/open-apis/demo/items`,
      respond: ok({}),
    })),
  );
  const results = await Promise.all(Array.from({ length: 5 }, () => call("demo_list", {})));
  assert.ok(results.every((r) => r.isError === undefined));
  assert.equal(sessions.length, 1);
});

Deno.test("a cancelled call stops with a cancellation error", async () => {
  const controller = new AbortController();
  const { call } = setup([{
    method: "GET",
    url: `${BASE_URL}/open-apis/demo/items`,
    respond: (request) =>
      new Promise<Response>((_, reject) => {
        request.signal.addEventListener("abort", () => reject(request.signal.reason));
        controller.abort(new DOMException("Cancelled by the client", "AbortError"));
      }),
  }]);
  const error = envelopeOf(await call("demo_list", {}, controller.signal));
  assert.equal(error.type, "cancelled");
});

Deno.test("the api tool builds the request from objects, never from files or stdin", async () => {
  const { call, stub } = setup([
    {
      method: "POST",
      url: `${BASE_URL}/open-apis/im/v1/messages?receive_id_type=chat_id`,
      respond: ok({ message_id: "om_1" }),
    },
  ]);
  const dry = await call("api", {
    method: "get",
    path: "calendar/v4/calendars",
    params: { page_size: 5 },
    dry_run: true,
  });
  assert.deepEqual(
    (dry.structuredContent as { requests: { url: string }[] }).requests.map((r) => r.url),
    [`${BASE_URL}/open-apis/calendar/v4/calendars?page_size=5`],
  );
  const sent = await call("api", {
    method: "POST",
    path: "/open-apis/im/v1/messages",
    params: { receive_id_type: "chat_id" },
    data: { receive_id: "oc_1", msg_type: "text", content: "{}" },
  });
  stub.verify();
  assert.deepEqual(sent.structuredContent, { message_id: "om_1" });
  const file = envelopeOf(await call("api", { method: "POST", path: "x/y", data: "@/etc/passwd" }));
  assert.match(file.message, /expected a JSON object/);
  const stdin = envelopeOf(await call("api", { method: "GET", path: "x/y", params: "-" }));
  assert.match(stdin.message, /expected a JSON object of query parameters/);
  const del = envelopeOf(await call("api", { method: "DELETE", path: "x/y" }));
  assert.match(del.message, /^Cannot send DELETE without confirmation: pass yes: true$/);
});

Deno.test("the api tool sends GET only when the server is read-only", async () => {
  const { call } = setup([], { tools: { readOnly: true } });
  const error = envelopeOf(await call("api", { method: "POST", path: "x/y" }));
  assert.match(error.message, /^Cannot send POST: hark mcp runs with --read-only/);
});

Deno.test("terminalAdvice() covers sign-in and permission errors only", () => {
  assert.match(
    terminalAdvice(new PermissionError("Denied", { scopes: ["im:message"] }))!,
    /`hark auth login --scope im:message --no-wait --json`.*`hark auth login --device-code <device_code>`/,
  );
  assert.match(
    terminalAdvice(new AuthError("Bad secret", { command: "hark config init" }))!,
    /run `hark config init` in a terminal/,
  );
  assert.equal(terminalAdvice(new ValidationError("Bad")), undefined);
});

Deno.test("twenty concurrent calls on a token about to expire share one refresh", async () => {
  const now = Date.UTC(2026, 10, 21, 9, 0, 0);
  const dir = await Deno.makeTempDir({ prefix: "hark-mcp-" });
  try {
    const config = {
      keychain_namespace: "mcp",
      apps: { default: { app_id: "cli_a", app_secret: "@plain:s3cret", base_url: BASE_URL } },
      users: {
        default: { access_token: "@keychain:hark/mcp/default/user_token", user_type: "user" },
      },
    };
    const configPath = join(dir, "config.json");
    await Deno.writeTextFile(configPath, JSON.stringify(config));
    const refreshes: string[] = [];
    const stub = new FetchStub([
      {
        method: "POST",
        url: `${BASE_URL}/open-apis/authen/v2/oauth/token`,
        respond: async (request) => {
          refreshes.push(new URLSearchParams(await request.text()).get("refresh_token")!);
          return jsonResponse({
            code: 0,
            access_token: "u-new-0123456789",
            refresh_token: "ur-new",
            expires_in: 7200,
            refresh_token_expires_in: 86400,
            scope: "demo:read",
          });
        },
      },
      ...Array.from({ length: 20 }, () => ({
        method: "GET",
        url: `${BASE_URL}/open-apis/demo/items`,
        respond: (request: Request) => {
          assert.equal(request.headers.get("authorization"), "Bearer u-new-0123456789");
          return ok({})(request);
        },
      })),
    ]);
    const keychain = new MemoryKeychain({
      "hark/mcp/default/user_token": JSON.stringify({
        access_token: "u-old-0123456789",
        refresh_token: "ur-old",
        expires_at: now + 60_000,
        refresh_expires_at: now + 86_400_000,
        scopes: ["demo:read"],
        token_type: "Bearer",
      }),
    });
    const ctx = createTestContext({ now, fetch: stub.fetch, keychain });
    const runner = new ToolRunner(ctx, {
      openSession: () => Promise.resolve(testSession(ctx, {}, config, configPath)),
      dryRun: false,
    });
    const tools = selectTools(fakeGroups(), {
      readOnly: true,
      allowRawApi: false,
      timeZone: "UTC",
    });
    const results = await Promise.all(
      Array.from(
        { length: 20 },
        () => runner.call(tools.exposed.get("demo_list")!, {}, new AbortController().signal),
      ),
    );
    assert.deepEqual(results.filter((r) => r.isError), []);
    assert.deepEqual(refreshes, ["ur-old"]);
    stub.verify();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
