import assert from "node:assert/strict";
import type { Identity } from "../auth/identity.ts";
import type { OutputFormat } from "../config/mod.ts";
import { ApiError, AuthError, ValidationError } from "../errors/mod.ts";
import { createTestContext, type TestContext } from "../../tests/support/test_context.ts";
import { FakeClient } from "../../tests/support/fake_client.ts";
import { type AnyShortcut, type ApiCaller, defineShortcut } from "./definition.ts";
import { param } from "./param.ts";
import { matchIdentity, runShortcut, type ShortcutSession } from "./lifecycle.ts";

/** How a test session resolves tokens: the client to return, or the error to throw. */
type Connect = (identity: Identity) => Promise<ApiCaller>;

function sessionOf(
  ctx: TestContext,
  options: { format?: OutputFormat; dryRun?: boolean; as?: Identity } = {},
  connect: Connect = () => Promise.reject(new Error("no token wanted")),
): ShortcutSession {
  return {
    ctx,
    config: { apps: { default: { base_url: "https://open.example.com/" } } },
    profile: "default",
    dryRun: options.dryRun ?? false,
    as: options.as,
    output: { format: options.format, color: false },
    baseUrl: () => "https://open.example.com",
    connect,
    confirm: () => Promise.resolve(false),
  };
}

const steps: string[] = [];
const echo = defineShortcut({
  service: "demo",
  verb: "+echo",
  description: "Echoes",
  examples: ["hark demo +echo --name a"],
  identities: ["user", "bot"],
  scopes: { user: ["demo:echo"], bot: ["demo:echo"] },
  effect: "read",
  params: {
    name: param.string({ description: "a name", required: true }),
    count: param.int({ description: "how many", default: 2 }),
  },
  validate(input) {
    steps.push("validate");
    if (input.values.name === "bad") throw new ValidationError("bad name", { param: "--name" });
  },
  requests: (input) => [{
    method: "POST",
    path: "/open-apis/demo",
    query: { n: input.values.count },
    body: { name: input.values.name },
  }],
  async run(input, client) {
    steps.push("run");
    await client.request(this.requests(input)[0]);
    return Array.from({ length: input.values.count }, (_, i) => ({
      id: `id${i}`,
      name: input.values.name,
    }));
  },
  columns: [{ header: "ID", value: "id" }, { header: "NAME", value: "name" }],
});

function factory(client: FakeClient, identities: string[] = []): Connect {
  return (identity) => {
    steps.push("token");
    identities.push(identity);
    return Promise.resolve(client);
  };
}

Deno.test("runShortcut() validates, resolves the token, runs and formats, in order", async () => {
  steps.length = 0;
  const ctx = createTestContext();
  const client = new FakeClient(() => ({}));
  const identities: string[] = [];
  await runShortcut(
    sessionOf(ctx, { format: "csv" }, factory(client, identities)),
    echo,
    { argv: { name: "ann" } },
  );
  assert.deepEqual(steps, ["validate", "token", "run"]);
  assert.deepEqual(identities, ["user"]);
  assert.deepEqual(ctx.stdout.text().split(/\r?\n/), ["ID,NAME", "id0,ann", "id1,ann", ""]);
  assert.equal(client.requests.length, 1);
});

Deno.test("runShortcut() writes json and table output", async () => {
  const json = createTestContext();
  await runShortcut(
    sessionOf(json, { format: "json" }, factory(new FakeClient(() => ({})))),
    echo,
    { argv: { name: "ann", count: "1" } },
  );
  assert.deepEqual(JSON.parse(json.stdout.text()), [{ id: "id0", name: "ann" }]);
  const table = createTestContext();
  await runShortcut(
    sessionOf(table, { format: "table" }, factory(new FakeClient(() => ({})))),
    echo,
    { argv: { name: "ann", count: "1" } },
  );
  assert.match(table.stdout.text(), /ID\s+NAME\n.*id0\s+ann/s);
});

Deno.test("runShortcut() writes a stream batch by batch and lets each batch go once written", async () => {
  const ctx = createTestContext();
  const written: number[] = [];
  // Variants of echo, as the registry holds shortcuts: the same parameters, other hooks.
  const paged: AnyShortcut = {
    ...echo,
    verb: "+paged",
    run: undefined,
    async *stream() {
      for (const page of [["a", "b"], ["c"]]) {
        // What was written so far, and how often the runtime was asked to reclaim memory.
        written.push(ctx.stdout.text().length, ctx.reclaims.count);
        yield page.map((id) => ({ id, name: id }));
        await Promise.resolve();
      }
    },
  };
  await runShortcut(
    sessionOf(ctx, { format: "ndjson" }, factory(new FakeClient(() => ({})))),
    paged,
    { argv: { name: "ann" } },
  );
  assert.equal(
    ctx.stdout.text(),
    '{"id":"a","name":"a"}\n{"id":"b","name":"b"}\n{"id":"c","name":"c"}\n',
  );
  // Before the second page, the first was written and one reclaim asked for.
  assert.deepEqual(written, [0, 0, 44, 1]);
  assert.equal(ctx.reclaims.count, 2);
});

Deno.test("runShortcut() --dry-run prints the requests and resolves no token", async () => {
  steps.length = 0;
  const ctx = createTestContext();
  const noToken: Connect = () => Promise.reject(new AuthError("Not signed in"));
  await runShortcut(sessionOf(ctx, { dryRun: true }, noToken), echo, { argv: { name: "ann" } });
  assert.deepEqual(steps, ["validate"]);
  assert.deepEqual(JSON.parse(ctx.stdout.text()), [{
    method: "POST",
    url: "https://open.example.com/open-apis/demo?n=2",
    query: { n: "2" },
    headers: {
      "Accept": "application/json",
      "Authorization": "Bearer ****",
      "Content-Type": "application/json; charset=utf-8",
      "User-Agent": JSON.parse(ctx.stdout.text())[0].headers["User-Agent"],
    },
    token: "user_access_token",
    body: { name: "ann" },
  }]);
});

/** A shortcut that uploads as the bot (Lark's tenant-only calls), then posts as its identity. */
const upload = defineShortcut({
  service: "demo",
  verb: "+upload",
  description: "Uploads then posts",
  examples: ["hark demo +upload"],
  identities: ["user", "bot"],
  scopes: { user: ["demo:post"], bot: ["demo:post"] },
  effect: "write",
  params: {},
  requests: () => [
    { method: "POST", path: "/open-apis/demo/files", identity: "bot" },
    { method: "POST", path: "/open-apis/demo/posts" },
  ],
  async run(input, client) {
    for (const request of this.requests(input)) await client.request(request);
    await client.request(this.requests(input)[0]);
    return null;
  },
});

Deno.test("runShortcut() sends a request naming the bot with the bot's token, connected once", async () => {
  const ctx = createTestContext();
  const user = new FakeClient(() => ({}));
  const bot = new FakeClient(() => ({}));
  const connected: Identity[] = [];
  const connect: Connect = (identity) => {
    connected.push(identity);
    return Promise.resolve(identity === "bot" ? bot : user);
  };
  await runShortcut(sessionOf(ctx, {}, connect), upload, { argv: {} });
  assert.deepEqual(connected, ["user", "bot"]);
  assert.deepEqual(bot.requests.map((r) => r.path), [
    "/open-apis/demo/files",
    "/open-apis/demo/files",
  ]);
  assert.deepEqual(user.requests.map((r) => r.path), ["/open-apis/demo/posts"]);
  // As the bot, one connection serves both.
  connected.length = 0;
  await runShortcut(sessionOf(createTestContext(), { as: "bot" }, connect), upload, { argv: {} });
  assert.deepEqual(connected, ["bot"]);
  // --dry-run says which token each request would carry.
  const dry = createTestContext();
  await runShortcut(sessionOf(dry, { dryRun: true }), upload, { argv: {} });
  assert.deepEqual(JSON.parse(dry.stdout.text()).map((p: { token: string }) => p.token), [
    "tenant_access_token",
    "user_access_token",
  ]);
});

Deno.test("runShortcut() says which call needed the other identity's token when it cannot be had", async () => {
  const connect: Connect = (identity) =>
    identity === "bot"
      ? Promise.reject(new ValidationError("No app is configured", { suggestion: "Run init" }))
      : Promise.resolve(new FakeClient(() => ({})));
  await assert.rejects(
    runShortcut(sessionOf(createTestContext(), {}, connect), upload, { argv: {} }),
    (e: unknown) =>
      e instanceof ValidationError && e.message === "No app is configured" &&
      e.recovery.suggestion ===
        "POST /open-apis/demo/files goes with the app's tenant token, the only token Lark takes " +
          "for it, whatever --as says. Run init",
  );
});

Deno.test("runShortcut() stops at validation before any token", async () => {
  steps.length = 0;
  const ctx = createTestContext();
  await assert.rejects(
    runShortcut(
      sessionOf(ctx, {}, factory(new FakeClient(() => ({})))),
      echo,
      { argv: { name: "bad" } },
    ),
    (e: unknown) => e instanceof ValidationError && e.param === "--name",
  );
  await assert.rejects(
    runShortcut(sessionOf(ctx, {}, factory(new FakeClient(() => ({})))), echo, { argv: {} }),
    /Missing required flag --name/,
  );
  assert.deepEqual(steps, ["validate"]);
  assert.equal(ctx.stdout.text(), "");
});

Deno.test("runShortcut() acts as --as when supported, and names --as otherwise", async () => {
  const identities: string[] = [];
  await runShortcut(
    sessionOf(
      createTestContext(),
      { as: "bot", format: "json" },
      factory(new FakeClient(() => ({})), identities),
    ),
    echo,
    { argv: { name: "a" } },
  );
  assert.deepEqual(identities, ["bot"]);
  const userOnly = { ...echo, identities: ["user" as const] };
  assert.equal(matchIdentity(userOnly, undefined), "user");
  assert.throws(
    () => matchIdentity(userOnly, "bot"),
    (e: unknown) =>
      e instanceof ValidationError && e.param === "--as" && /supports "user"/.test(e.message),
  );
});

Deno.test("runShortcut() turns an unexpected failure into an internal error", async () => {
  await assert.rejects(
    runShortcut(
      sessionOf(
        createTestContext(),
        {},
        factory(
          new FakeClient(() => {
            throw new TypeError("oops");
          }),
        ),
      ),
      echo,
      { argv: { name: "a" } },
    ),
    (e: unknown) => (e as { type?: string }).type === "internal",
  );
});

/** A listing whose second page fails, as a service that breaks off part-way. */
const failsOnPage2: AnyShortcut = {
  ...echo,
  verb: "+broken",
  run: undefined,
  async *stream() {
    yield [{ id: "a", name: "ann" }, { id: "b", name: "bob" }];
    await Promise.resolve();
    throw new ApiError("Internal error", { type: "server_error" });
  },
};

/**
 * Runs a shortcut whose stream fails, in `format` (on a terminal when asked), checking that the
 * failure comes out; returns what stdout holds.
 */
async function failedRun(
  definition: AnyShortcut,
  format: OutputFormat | undefined,
  terminal = false,
): Promise<string> {
  const ctx = createTestContext({ stdoutIsTerminal: terminal });
  await assert.rejects(
    runShortcut(sessionOf(ctx, { format }, factory(new FakeClient(() => ({})))), definition, {
      argv: { name: "ann" },
    }),
    ApiError,
  );
  return ctx.stdout.text();
}

Deno.test("runShortcut() finishes a stream that fails part-way, then reports the failure", async () => {
  for (const terminal of [false, true]) {
    // The first page, as a whole JSON array.
    assert.deepEqual(JSON.parse(await failedRun(failsOnPage2, "json", terminal)), [
      { id: "a", name: "ann" },
      { id: "b", name: "bob" },
    ]);
  }
  assert.match(await failedRun(failsOnPage2, "table", true), /ID\s+NAME\n.*a\s+ann\n.*b\s+bob\n/s);
  assert.equal(await failedRun(failsOnPage2, "csv"), "ID,NAME\r\na,ann\r\nb,bob\r\n");
  const lines = (await failedRun(failsOnPage2, "ndjson")).trimEnd().split("\n");
  assert.deepEqual(lines.map((line) => JSON.parse(line).id), ["a", "b"]);
});

Deno.test("runShortcut() writes nothing when a stream fails before its first row", async () => {
  const empty: AnyShortcut = {
    ...failsOnPage2,
    // deno-lint-ignore require-yield
    async *stream() {
      await Promise.resolve();
      throw new ApiError("Internal error", { type: "server_error" });
    },
  };
  for (const format of ["json", "table", "csv", "ndjson"] as const) {
    assert.equal(await failedRun(empty, format, format === "table"), "", format);
  }
});

Deno.test("runShortcut() draws the rows read so far when a drawn stream fails", async () => {
  const drawn: AnyShortcut = {
    ...failsOnPage2,
    render: () => (rows) => `drawn ${Array.isArray(rows) ? rows.length : 0}\n`,
  };
  assert.equal(await failedRun(drawn, undefined, true), "drawn 2\n");
  // `--format table` asks for the table, not the drawing.
  assert.doesNotMatch(await failedRun(drawn, "table", true), /drawn/);
});

Deno.test("runShortcut() asks the session for a missing required value when it can ask", async () => {
  const ctx = createTestContext();
  const asked: string[] = [];
  const session: ShortcutSession = {
    ...sessionOf(ctx, { dryRun: true }),
    ask: (_question, flag) => {
      asked.push(flag);
      return Promise.resolve("typed");
    },
  };
  await runShortcut(session, echo, { argv: {} });
  assert.deepEqual(asked, ["--name"]);
  assert.match(ctx.stdout.text(), /"name":\s*"typed"/);
});

Deno.test("runShortcut() looks up the system time zone only for a shortcut that reads it", async () => {
  // Asking the system for its zone costs about 1 ms of CPU: a call without times skips it.
  const asked: string[] = [];
  const watched = (ctx: TestContext): TestContext =>
    Object.defineProperty(ctx, "timeZone", {
      get: () => {
        asked.push("timeZone");
        return "Asia/Shanghai";
      },
    });
  await runShortcut(
    sessionOf(
      watched(createTestContext()),
      { format: "json" },
      factory(new FakeClient(() => ({}))),
    ),
    echo,
    { argv: { name: "ann" } },
  );
  assert.deepEqual(asked, []);
  const zoned = defineShortcut({
    service: "demo",
    verb: "+zoned",
    description: "Says its zone",
    examples: ["hark demo +zoned"],
    identities: ["user"],
    scopes: { user: [] },
    effect: "read",
    params: {},
    requests: () => [],
    run: (input) => Promise.resolve([{ id: input.timeZone, name: "z" }]),
  });
  const ctx = watched(createTestContext());
  await runShortcut(
    sessionOf(ctx, { format: "json" }, factory(new FakeClient(() => ({})))),
    zoned,
    { argv: {} },
  );
  assert.deepEqual(asked, ["timeZone"]);
  assert.deepEqual(JSON.parse(ctx.stdout.text()), [{ id: "Asia/Shanghai", name: "z" }]);
});
