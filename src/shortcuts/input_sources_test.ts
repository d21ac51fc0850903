import assert from "node:assert/strict";
import { join } from "node:path";
import { ValidationError } from "../errors/mod.ts";
import { createTestContext } from "../../tests/support/test_context.ts";
import type { ParamSpec } from "./definition.ts";
import { bindParams } from "./input_sources.ts";

const PARAMS: ParamSpec[] = [
  { name: "chat-id", type: "string", description: "chat" },
  { name: "limit", type: "int", description: "limit", default: 20 },
  { name: "text", type: "string", description: "body", stdin: true, stdinUnless: ["markdown"] },
  { name: "markdown", type: "string", description: "md" },
];

async function withInputFile(content: string, fn: (path: string) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "input.json");
    await Deno.writeTextFile(path, content);
    await fn(path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("bindParams() ranks argv over --input over stdin over env", async () => {
  await withInputFile(
    JSON.stringify({ chat_id: "oc_file", text: "from file", limit: 5 }),
    async (path) => {
      const env = { HARK_IM_CHAT_ID: "oc_env", HARK_IM_TEXT: "from env", HARK_IM_LIMIT: "7" };
      const ctx = createTestContext({ env, stdin: "from stdin\n" });
      const all = await bindParams(ctx, "im", PARAMS, {
        argv: { "chat-id": "oc_argv", text: "from argv" },
        input: path,
      });
      assert.deepEqual(all.values, { "chat-id": "oc_argv", text: "from argv", limit: 5 });
      assert.deepEqual(all.sources, { "chat-id": "argv", text: "argv", limit: "input" });

      const fileWins = await bindParams(ctx, "im", PARAMS, { argv: {}, input: path });
      assert.deepEqual(fileWins.values, { "chat-id": "oc_file", text: "from file", limit: 5 });
      assert.equal(fileWins.sources.text, "input");
    },
  );
  const ctx = createTestContext({
    env: { HARK_IM_CHAT_ID: "oc_env", HARK_IM_TEXT: "from env", HARK_IM_LIMIT: "7" },
    stdin: "from stdin\n",
  });
  const stdinWins = await bindParams(ctx, "im", PARAMS, { argv: {} });
  assert.deepEqual(stdinWins.values, { "chat-id": "oc_env", text: "from stdin", limit: 7 });
  assert.deepEqual(stdinWins.sources, { "chat-id": "env", text: "stdin", limit: "env" });

  const envWins = await bindParams(
    createTestContext({ env: { HARK_IM_TEXT: "from env" } }),
    "im",
    PARAMS,
    {
      argv: {},
    },
  );
  assert.deepEqual(envWins.values, { text: "from env", limit: 20 });
  assert.deepEqual(envWins.sources, { text: "env", limit: "default" });
});

Deno.test("bindParams() reads no stdin when it is a terminal or another body is given", async () => {
  const terminal = createTestContext({ stdin: "typed", stdinIsTerminal: true });
  assert.deepEqual((await bindParams(terminal, "im", PARAMS, { argv: {} })).values, { limit: 20 });
  const piped = createTestContext({ stdin: "piped" });
  const bound = await bindParams(piped, "im", PARAMS, { argv: { markdown: "**md**" } });
  assert.deepEqual(bound.values, { markdown: "**md**", limit: 20 });
});

Deno.test("bindParams() takes a JSON object from stdin with --input -", async () => {
  const ctx = createTestContext({ stdin: '{"chatId": "oc_stdin", "text": "hi"}' });
  const bound = await bindParams(ctx, "im", PARAMS, { argv: { limit: "3" }, input: "-" });
  assert.deepEqual(bound.values, { "chat-id": "oc_stdin", text: "hi", limit: 3 });
  assert.equal(bound.sources["chat-id"], "input");
});

Deno.test("bindParams() rejects a bad --input naming it", async () => {
  for (
    const [content, pattern] of [
      ["[1]", /expected a JSON object/],
      ["{", /Invalid JSON in --input .* at line 1, column 2: the JSON ends too early/],
      ['{"colour": "red"}', /Unknown parameter "colour"/],
    ] as const
  ) {
    await withInputFile(content, async (path) => {
      await assert.rejects(
        bindParams(createTestContext(), "im", PARAMS, { argv: {}, input: path }),
        (e: unknown) =>
          e instanceof ValidationError && e.param === "--input" && pattern.test(e.message),
      );
    });
  }
  await assert.rejects(
    bindParams(createTestContext(), "im", PARAMS, { argv: {}, input: "/nonexistent/x.json" }),
    /Cannot read --input/,
  );
});

Deno.test("bindParams() refuses two --input keys naming one parameter, naming both", async () => {
  for (
    const [content, first, second] of [
      ['{"chat-id": "oc_1", "chat_id": "oc_2"}', "chat-id", "chat_id"],
      ['{"chatId": "oc_1", "limit": 2, "chat-id": "oc_1"}', "chatId", "chat-id"],
      ['{"chat_id": null, "chat-id": "oc_2"}', "chat_id", "chat-id"],
    ]
  ) {
    await withInputFile(content, async (path) => {
      await assert.rejects(
        bindParams(createTestContext(), "im", PARAMS, { argv: {}, input: path }),
        (e: unknown) => {
          assert.ok(e instanceof ValidationError, String(e));
          assert.equal(e.param, "--input");
          assert.equal(
            e.message,
            `Invalid --input ${JSON.stringify(path)}: the keys "${first}" and "${second}" both ` +
              'name the parameter "chat-id"',
          );
          return true;
        },
      );
    });
  }
});

Deno.test("bindParams() names a missing required flag and where else it may come from", async () => {
  const params: ParamSpec[] = [{ name: "query", type: "string", description: "q", required: true }];
  await assert.rejects(
    bindParams(createTestContext(), "contact", params, { argv: {} }),
    (e: unknown) =>
      e instanceof ValidationError && e.param === "--query" &&
      /Missing required flag --query/.test(e.message) &&
      e.recovery.suggestion.includes("HARK_CONTACT_QUERY"),
  );
});

Deno.test("bindParams() names the source of a bad value", async () => {
  const ctx = createTestContext({ env: { HARK_IM_LIMIT: "lots" } });
  await assert.rejects(
    bindParams(ctx, "im", PARAMS, { argv: {} }),
    /Invalid value "lots" for --limit \(from HARK_IM_LIMIT\)/,
  );
});

const THREE_REQUIRED: ParamSpec[] = [
  { name: "summary", type: "string", description: "the title", required: true },
  { name: "start", type: "string", description: "when it starts", required: true },
  { name: "end", type: "string", description: "when it ends", required: true },
  { name: "location", type: "string", description: "where" },
];

Deno.test("bindParams() reports every missing required flag in one error", async () => {
  await assert.rejects(
    bindParams(createTestContext(), "calendar", THREE_REQUIRED, { argv: { start: "today" } }),
    (e: unknown) =>
      e instanceof ValidationError && e.param === "--summary" &&
      e.message === "Missing required flags --summary and --end" &&
      e.recovery.suggestion.includes("HARK_CALENDAR_SUMMARY, HARK_CALENDAR_END"),
  );
});

Deno.test("bindParams() asks for each missing required value when it can ask, and only those", async () => {
  const asked: string[] = [];
  const { values, sources } = await bindParams(createTestContext(), "calendar", THREE_REQUIRED, {
    argv: { start: "today" },
    ask: (question, flag) => {
      asked.push(`${flag}: ${question}`);
      return Promise.resolve(`typed ${flag}`);
    },
  });
  assert.deepEqual(asked, [
    "--summary: --summary (the title)",
    "--end: --end (when it ends)",
  ]);
  assert.deepEqual(values, { summary: "typed --summary", start: "today", end: "typed --end" });
  assert.equal(sources.end, "argv");
});

Deno.test("bindParams() counts a value required unless another is given as missing only without it", async () => {
  const params: ParamSpec[] = [
    { name: "start", type: "string", description: "start", required: true },
    { name: "end", type: "string", description: "end", requiredUnless: ["duration"] },
    { name: "duration", type: "string", description: "length" },
  ];
  await assert.rejects(
    bindParams(createTestContext(), "calendar", params, { argv: {} }),
    (e: unknown) =>
      e instanceof ValidationError && e.param === "--start" &&
      e.message === "Missing required flags --start and --end (or --duration)",
  );
  const { values } = await bindParams(createTestContext(), "calendar", params, {
    argv: { start: "s", duration: "30m" },
  });
  assert.deepEqual(values, { start: "s", duration: "30m" });
});
