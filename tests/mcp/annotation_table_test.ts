/**
 * The whole annotation table, checked against what each call sends: every shortcut tool (called
 * with the arguments of each of its examples), the `api` tool and every catalogue method tool (all
 * of them, with sample inputs), run through the tool runner in dry-run mode so that the requests
 * each call would send are read back. A read-only tool sends only GETs, or a POST Lark documents
 * as a read (search, free/busy, batch get); a tool that sends a DELETE, PUT or PATCH, or removes,
 * is destructive; a write hinted idempotent (other than a DELETE or a PUT, which HTTP makes
 * repeatable) carries its idempotency key, the same for two
 * identical calls (that the sandbox then applies it once is `mcp_idempotency_test.ts` and
 * `mcp_idempotent_effects_test.ts`). Every
 * result is also checked against the tool's `outputSchema`.
 */

import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { AnyShortcut } from "../../src/shortcuts/definition.ts";
import { loadServices } from "../../src/shortcuts/services.ts";
import { methodTool } from "../../src/mcp/method_tool.ts";
import { localPathOf } from "../../src/mcp/local_files.ts";
import { ToolRunner } from "../../src/mcp/tool_runner.ts";
import { type ExposedTool, selectTools } from "../../src/mcp/tool_set.ts";
import { argumentNameOf } from "../../src/mcp/tool_schema.ts";
import { createTestContext } from "../support/test_context.ts";
import { testSession } from "../support/test_session.ts";
import { generatedCatalogue, sampleInput } from "../support/catalogue_samples.ts";
import { shellWords } from "../errors/_recovery_check.ts";

const BASE_URL = "https://open.example.com";
const CONFIG = { apps: { default: { app_id: "cli_test", base_url: BASE_URL } } };

/**
 * POSTs that read, as Lark documents them: searching messages
 * (`POST /open-apis/im/v1/messages/search`), free/busy of users
 * (`POST /open-apis/calendar/v4/freebusy/list`) and the batch lookup of user ids
 * (`POST /open-apis/contact/v3/users/batch_get_id`).
 */
const READING_POSTS: readonly RegExp[] = [
  /^\/open-apis\/im\/v1\/messages\/search$/,
  /^\/open-apis\/calendar\/v4\/freebusy\/list$/,
  /^\/open-apis\/contact\/v3\/users\/batch_get_id$/,
  // Meeting-room search and time suggestions answer from the free/busy data; they change nothing.
  /^\/open-apis\/calendar\/v4\/freebusy\/(room_find|suggestion)$/,
  // Finding the one-to-one chat with people, and searching chats with filters (v2): lookups.
  /^\/open-apis\/im\/v1\/chat_p2p\/batch_query$/,
  /^\/open-apis\/im\/v2\/chats\/search$/,
];

/**
 * PATCHes that only add: an urgent notification of a message (`PATCH
 * /open-apis/im/v1/messages/{message_id}/urgent_app`, `urgent_sms`, `urgent_phone`) buzzes people
 * and changes nothing that was there, so it is not destructive (the paid kinds ask first).
 */
const ADDING_PATCHES: readonly RegExp[] = [
  /^\/open-apis\/im\/v1\/messages\/[^/]+\/urgent_(app|sms|phone)$/,
];

interface Preview {
  method: string;
  url: string;
  query?: Record<string, string>;
  body?: unknown;
}

function dryRunner() {
  const ctx = createTestContext({
    env: { HARK_USER_ACCESS_TOKEN: "u-test-token-0123456789", HARK_BASE_URL: BASE_URL },
    fetch: () => Promise.reject(new Error("a dry run sends nothing")),
  });
  const runner = new ToolRunner(ctx, {
    openSession: () => Promise.resolve(testSession(ctx, {}, CONFIG)),
    dryRun: true,
  });
  return async (entry: ExposedTool, args: Record<string, unknown>) => {
    const result = await runner.call(entry, args, new AbortController().signal);
    assert.equal(result.isError, undefined, `${entry.tool.name}: ${result.content[0].text}`);
    return result;
  };
}

/**
 * POSTs that set a state rather than make something: adding attendees to an event, or members to
 * a chat, that are there already adds nothing, and removing attendees already gone removes
 * nothing; replying to an invitation sets the reply. A repeat
 * has no further effect without a key (the event itself is created with one, so a retried
 * +create adds to the same event).
 */
const SET_CHANGES: readonly RegExp[] = [
  /\/open-apis\/calendar\/v4\/calendars\/[^/]+\/events\/[^/]+\/reply$/,
  /\/open-apis\/calendar\/v4\/calendars\/[^/]+\/events\/[^/]+\/attendees(\/batch_delete)?$/,
  /\/open-apis\/im\/v1\/chats\/[^/]+\/members$/,
  // Pinning a message that is pinned already answers with the pin there is (a state, not a copy).
  /\/open-apis\/im\/v1\/pins$/,
];

/** The names Lark gives a write's idempotency key. */
const KEY_NAMES = ["idempotency_key", "uuid", "client_token"];

function repeatable(preview: Preview): boolean {
  const path = new URL(preview.url).pathname;
  // A PATCH sets the fields it names to the values given: the same PATCH again changes nothing.
  return ["GET", "DELETE", "PUT", "PATCH"].includes(preview.method) ||
    (preview.method === "POST" && [...READING_POSTS, ...SET_CHANGES].some((r) => r.test(path)));
}

/** The tool arguments of a shortcut's example: `--chat-id oc_1 --text hi`. */
function exampleArguments(
  shortcut: AnyShortcut,
  example: string,
  takesAs: boolean,
): Record<string, unknown> {
  // What follows a pipe or a redirection is the shell's, not hark's.
  const split = shellWords(example.replace(/\s[|>].*$/, ""));
  assert.ok("words" in split, example);
  const words = split.words.slice(3);
  const args: Record<string, unknown> = {};
  for (let i = 0; i < words.length; i++) {
    if (["|", ">", ">>"].includes(words[i])) break;
    const [flag, inline] = words[i].replace(/^--/, "").split(/=(.*)/s);
    const param = shortcut.params.find((p) => p.name === flag);
    const value = () => inline ?? words[++i];
    if (param === undefined) {
      // Global flags: the identity is an argument, the others shape output only.
      if (["format", "profile", "jq", "fields"].includes(flag)) value();
      if (flag === "as") {
        const as = value();
        if (takesAs) args.as = as;
      }
      continue;
    }
    const name = argumentNameOf(param);
    // A tool's page_token is hark's cursor, never a Lark token from the command line.
    if (name === "page_token") {
      value();
      continue;
    }
    if (param.type === "bool") args[name] = inline === undefined ? true : inline === "true";
    else if (param.type === "int" || param.type === "number") args[name] = Number(value());
    else args[name] = value();
  }
  return args;
}

function assertHintsMatch(name: string, tool: ExposedTool["tool"], previews: Preview[]) {
  const methods = previews.map((p) => p.method);
  const { readOnlyHint, destructiveHint } = tool.annotations;
  if (readOnlyHint) {
    const writes = previews.filter((p) =>
      p.method !== "GET" &&
      !(p.method === "POST" && READING_POSTS.some((r) => r.test(new URL(p.url).pathname)))
    );
    assert.deepEqual(writes, [], `${name} is hinted read-only`);
  } else {
    assert.ok(methods.some((m) => m !== "GET"), `${name} changes nothing: ${methods}`);
  }
  const overwrites = previews.filter((p) =>
    ["DELETE", "PUT", "PATCH"].includes(p.method) &&
    !ADDING_PATCHES.some((r) => r.test(new URL(p.url).pathname))
  );
  if (overwrites.length > 0) {
    assert.equal(destructiveHint, true, `${name} sends ${methods} and is not hinted destructive`);
  }
}

function keyIn(preview: Preview, place: "query" | "body", name: string): unknown {
  const holder = place === "query" ? preview.query : preview.body;
  return holder !== null && typeof holder === "object" ? Object(holder)[name] : undefined;
}

Deno.test("every shortcut tool's hints match the requests its example sends", async () => {
  const groups = await loadServices();
  const { exposed } = selectTools(groups, { readOnly: false, allowRawApi: true, timeZone: "UTC" });
  const call = dryRunner();
  const ajv = new Ajv2020({ strict: false });
  const checked: string[] = [];
  const problems: string[] = [];
  for (const entry of exposed.values()) {
    if (entry.kind !== "shortcut") continue;
    const { shortcut } = entry.shortcut;
    // An example fed on stdin (`echo … | hark …`) has no arguments to give a tool.
    for (const example of shortcut.examples.filter((e) => e.startsWith("hark "))) {
      const args = exampleArguments(shortcut, example, entry.shortcut.takesAs);
      // An example naming a file on this machine needs the --files folder (local_files_test).
      const local = shortcut.params.filter((p) => localPathOf(p) !== undefined);
      if (local.some((p) => args[argumentNameOf(p)] !== undefined)) continue;
      if (entry.shortcut.needsYes) args.yes = true;
      const result = await call(entry, args);
      assert.ok(ajv.compile(entry.tool.outputSchema)(result.structuredContent), entry.tool.name);
      const previews = (result.structuredContent as { requests: Preview[] }).requests;
      assertHintsMatch(`${entry.tool.name} (${example})`, entry.tool, previews);
      if (checked.at(-1) !== entry.tool.name) checked.push(entry.tool.name);
      if (!entry.tool.annotations.idempotentHint) continue;
      // A DELETE, a PUT or a PATCH of fields repeated has no further effect, nor does a read;
      // any other write of a tool hinted idempotent carries a key the service applies once,
      // the same key for an identical call.
      for (const preview of previews.filter((p) => !repeatable(p))) {
        const keys = KEY_NAMES.filter((name) =>
          keyIn(preview, "query", name) ?? keyIn(preview, "body", name)
        );
        if (keys.length === 0) {
          problems.push(`${entry.tool.name}: ${preview.method} ${preview.url} carries no key`);
        }
      }
      const again = await call(entry, args);
      assert.deepEqual(again.structuredContent, result.structuredContent, entry.tool.name);
    }
  }
  console.log(`annotation table: ${checked.length} shortcut tools checked: ${checked.join(", ")}`);
  assert.deepEqual(problems, []);
  // Every shortcut tool had at least one example run and checked, none skipped whole; but
  // im_download, whose examples all name a local file: its hints are checked by its real effect
  // in the --files folder (mcp_idempotent_effects_test.ts).
  const shortcutTools = [...exposed.values()].filter((e) => e.kind === "shortcut")
    .map((e) => e.tool.name).filter((name) => name !== "im_download");
  assert.deepEqual([...checked].sort(), shortcutTools.sort());
  // The api tool: what it sends is the method it is given; it never claims read-only or repeat.
  const api = exposed.get("api")!;
  assert.deepEqual(
    [api.tool.annotations.readOnlyHint, api.tool.annotations.idempotentHint],
    [false, false],
  );
  const preview = await call(api, { method: "DELETE", path: "/open-apis/x/v1/y", yes: true });
  assertHintsMatch(
    "api",
    api.tool,
    (preview.structuredContent as { requests: Preview[] }).requests,
  );
});

Deno.test("every catalogue method tool's hints match the request it sends", async () => {
  const methods = await generatedCatalogue().allMethods();
  assert.ok(methods.length >= 1200);
  const tools = methods.map((method) => methodTool(method, {}));
  const { exposed } = selectTools([], { readOnly: false, allowRawApi: false, timeZone: "UTC" }, {
    tools,
    explicit: new Set(),
  });
  const call = dryRunner();
  const validate = new Ajv2020({ strict: false }).compile(tools[0].tool.outputSchema);
  for (const { method, tool } of tools) {
    const input = sampleInput(method);
    const args: Record<string, unknown> = {};
    if (Object.keys(input.path ?? {}).length > 0) args.path = input.path;
    if (Object.keys(input.query ?? {}).length > 0) args.params = input.query;
    if (input.body !== undefined) args.data = input.body;
    const entry = exposed.get(tool.name)!;
    const result = await call(entry, args);
    assert.ok(validate(result.structuredContent), tool.name);
    const previews = (result.structuredContent as { requests: Preview[] }).requests;
    assert.deepEqual(previews.map((p) => p.method), [method.http], tool.name);
    assertHintsMatch(tool.name, tool, previews);
    assert.equal(tool.annotations.readOnlyHint, method.http === "GET", tool.name);
    if (tool.annotations.idempotentHint && method.http !== "GET") {
      const { place, name } = method.idempotencyKey!;
      const key = keyIn(previews[0], place, name);
      assert.equal(typeof key, "string", `${tool.name} sends no ${name}`);
      const again = (await call(entry, args)).structuredContent as { requests: Preview[] };
      assert.equal(keyIn(again.requests[0], place, name), key, tool.name);
    }
  }
});
