/**
 * `hark mcp` end to end: the official SDK's client starts it as a subprocess, as an MCP host
 * does, against the sandbox.
 */

import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { HarkSchema } from "../../src/cli/schema/describe.ts";
import { loadServices } from "../../src/shortcuts/services.ts";
import { homeKeychain, startWorld } from "../support/world.ts";
import { createShortcutEnv, jsonOf } from "../shortcuts/_shortcut_env.ts";
import { mcpScript } from "../support/mcp_script.ts";
import { connectHarkMcp } from "./_mcp_client.ts";

interface Envelope {
  error: {
    code: number;
    type: string;
    message: string;
    recovery: { suggestion: string; command: string };
  };
}

interface ToolJson {
  outputSchema?: unknown;
  name: string;
  inputSchema: {
    properties?: Record<string, { type?: string; enum?: string[]; default?: unknown }>;
    required?: string[];
  };
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean };
}

/** The tool name a shortcut must have, computed here independently of the generator. */
function expectedToolName(service: string, verb: string): string {
  return `${service}_${verb.slice(1)}`.replaceAll("-", "_");
}

const JSON_TYPES: Record<string, string> = {
  string: "string",
  int: "integer",
  bool: "boolean",
  enum: "string",
  datetime: "string",
  file: "string",
};

function day(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

Deno.test("hark mcp serves every shortcut to the SDK's client against the sandbox", async (t) => {
  const env = await createShortcutEnv();
  const serverEnv = { ...env.hark.env, HARK_USER_ACCESS_TOKEN: env.token };
  const mcp = await connectHarkMcp(serverEnv, ["--debug"]);
  try {
    const { tools } = await mcp.client.listTools() as { tools: ToolJson[] };

    await t.step("every shortcut of the registry is a tool with a valid input schema", async () => {
      const shortcuts = (await loadServices()).flatMap((g) => g.shortcuts);
      assert.deepEqual(
        tools.map((tool) => tool.name).sort(),
        shortcuts.map((s) => expectedToolName(s.service, s.verb)).sort(),
      );
      for (const tool of tools) {
        const validate = new Ajv2020({ strict: true }).compile(tool.inputSchema);
        assert.equal(validate({ no_such_argument: true }), false, tool.name);
      }
    });

    await t.step("the tool list and hark schema describe the same parameters", async () => {
      const schema = jsonOf<HarkSchema>(await env.run(["schema", "--json"]));
      const described = schema.services.flatMap((s) => s.shortcuts);
      assert.equal(described.length, tools.length);
      for (const shortcut of described) {
        const tool = tools.find((t) =>
          t.name === expectedToolName(shortcut.service, shortcut.verb)
        );
        assert.ok(tool, `no tool for ${shortcut.name}`);
        const properties = tool.inputSchema.properties ?? {};
        for (const param of shortcut.params) {
          const property = properties[param.name.replaceAll("-", "_")];
          assert.ok(property, `${tool.name} lacks ${param.name}`);
          assert.equal(property.type, JSON_TYPES[param.type], `${tool.name}.${param.name}`);
          assert.deepEqual(property.enum, param.allowed, `${tool.name}.${param.name}`);
          assert.deepEqual(property.default, param.default, `${tool.name}.${param.name}`);
        }
        assert.deepEqual(
          [...(tool.inputSchema.required ?? [])].sort(),
          shortcut.params.filter((p) => p.required).map((p) => p.name.replaceAll("-", "_")).sort(),
          tool.name,
        );
        const extras = Object.keys(properties).filter(
          (name) => !shortcut.params.some((p) => p.name.replaceAll("-", "_") === name),
        );
        // A tool that writes a file here is no read-only tool; one that may replace a file, or
        // destroy data in Lark, is destructive and asks for yes.
        const writesFiles = shortcut.params.some((p) => p.local_path === "write");
        const replacesFiles = shortcut.params.some((p) => p.replaces_files);
        const readOnly = shortcut.effect === "read" && !writesFiles;
        const expected = [
          ...(shortcut.identities.length > 1 ? ["as"] : []),
          ...(!readOnly ? ["dry_run"] : []),
          ...((shortcut.destructive || replacesFiles) &&
              !shortcut.params.some((p) => p.name === "yes")
            ? ["yes"]
            : []),
          // A listing pages: hark's page_token (in place of a Lark one) and fields, and a limit.
          ...(JSON.stringify(tool.outputSchema).includes("has_more")
            ? [
              ...(shortcut.params.some((p) => p.name === "limit") ? [] : ["limit"]),
              ...(shortcut.params.some((p) => p.name === "page-token") ? [] : ["page_token"]),
              "fields",
            ]
            : []),
        ];
        assert.deepEqual(extras.sort(), expected.sort(), tool.name);
        if (shortcut.effect === "delete") assert.equal(shortcut.destructive, true, tool.name);
        assert.deepEqual(
          tool.annotations && {
            readOnlyHint: tool.annotations.readOnlyHint,
            destructiveHint: tool.annotations.destructiveHint,
            idempotentHint: tool.annotations.idempotentHint,
          },
          {
            readOnlyHint: readOnly,
            destructiveHint: shortcut.destructive || replacesFiles,
            idempotentHint: shortcut.idempotent,
          },
          tool.name,
        );
      }
    });

    await t.step("a read tool answers what the command line prints", async () => {
      const [start, end] = [day(0), day(6)];
      const result = await mcp.client.callTool({
        name: "calendar_agenda",
        arguments: { start, end },
      });
      assert.equal(result.isError, undefined, JSON.stringify(result));
      const cli = jsonOf<unknown[]>(
        await env.run(["calendar", "+agenda", "--start", start, "--end", end, "--json"]),
      );
      assert.ok(cli.length > 0);
      assert.deepEqual(result.structuredContent, { items: cli, has_more: false });
      // The JSON once, in structured content; beside it a summary, not a second copy.
      const [summary, ...more] = result.content as { type: string; text: string }[];
      assert.equal(
        summary.text,
        `hark calendar +agenda: ${cli.length} results (rows 1 to ${cli.length}) in ` +
          "structuredContent.items. That is all.",
      );
      assert.deepEqual(more, []);
    });

    await t.step("a write tool sends, and dry_run sends nothing", async () => {
      const chat = env.sb.chats[0].chat_id;
      await env.clearRequests();
      const preview = await mcp.client.callTool({
        name: "im_send",
        arguments: { chat_id: chat, text: "from an agent", dry_run: true },
      });
      assert.equal(preview.isError, undefined, JSON.stringify(preview));
      const planned = preview.structuredContent as {
        dry_run: boolean;
        requests: { url: string }[];
      };
      assert.equal(planned.dry_run, true);
      assert.match(
        planned.requests[0].url,
        /\/open-apis\/im\/v1\/messages\?receive_id_type=chat_id$/,
      );
      assert.deepEqual(await env.requests(), [], "a dry run sends nothing");

      const sent = await mcp.client.callTool({
        name: "im_send",
        arguments: { chat_id: chat, text: "from an agent" },
      });
      assert.equal(sent.isError, undefined, JSON.stringify(sent));
      const message = sent.structuredContent as { message_id: string; chat_id: string };
      assert.equal(message.chat_id, chat);
      const posts = (await env.requests()).filter((r) => r.method === "POST");
      assert.equal(posts.length, 1);
      assert.equal((posts[0].body as { content: string }).content, '{"text":"from an agent"}');
      const stored = await env.get<{ message_id: string }[]>("/sandbox/messages");
      assert.ok(stored.some((m) => m.message_id === message.message_id));
    });

    await t.step("a bad argument is a validation tool error with the envelope", async () => {
      const result = await mcp.client.callTool({
        name: "calendar_agenda",
        arguments: { start: "2026-13-45" },
      });
      assert.equal(result.isError, true);
      const { error } = result.structuredContent as unknown as Envelope;
      assert.equal(error.type, "validation");
      assert.equal(error.code, 2);
      assert.match(error.message, /^Invalid value "2026-13-45" for start/);
      const missing = await mcp.client.callTool({ name: "contact_search_user", arguments: {} });
      assert.match(
        (missing.structuredContent as unknown as Envelope).error.message,
        /^Missing required argument "query"/,
      );
    });

    await t.step("stdout carried the protocol only; --debug logged each call, masked", () => {
      assert.deepEqual(mcp.errors, []);
      const stderr = mcp.stderr();
      assert.match(stderr, new RegExp(`hark mcp: serving ${tools.length} tools on stdin/stdout`));
      assert.match(stderr, /\[debug\] mcp: call im_send \{"chat_id":"oc_/);
      assert.match(stderr, /\[debug\] mcp: calendar_agenda failed in \d+ ms: validation:/);
      assert.ok(!stderr.includes(env.token), "the token never appears in the log");
    });
  } finally {
    await mcp.close();
    await env.close();
  }
});

Deno.test("hark mcp: no sign-in, --read-only and --as bot", async (t) => {
  const env = await createShortcutEnv();
  try {
    await t.step("without a token the tool error says to sign in in a terminal", async () => {
      const mcp = await connectHarkMcp(env.hark.env);
      try {
        const result = await mcp.client.callTool({ name: "calendar_agenda", arguments: {} });
        assert.equal(result.isError, true);
        const { error } = result.structuredContent as unknown as Envelope;
        assert.equal(error.type, "auth");
        assert.equal(error.code, 3);
        assert.equal(error.recovery.command, "hark auth login");
        assert.match(error.recovery.suggestion, /never prompts/);
        assert.match(error.recovery.suggestion, /hark auth login --no-wait --json/);
        assert.match(error.recovery.suggestion, /hark auth login --device-code <device_code>/);
      } finally {
        await mcp.close();
      }
    });

    await t.step("--read-only lists only what changes nothing and refuses a write", async () => {
      const mcp = await connectHarkMcp(
        { ...env.hark.env, HARK_USER_ACCESS_TOKEN: env.token },
        ["--read-only"],
      );
      try {
        const { tools } = await mcp.client.listTools();
        assert.ok(tools.length > 0);
        assert.ok(tools.every((tool) => tool.annotations?.readOnlyHint === true));
        assert.ok(!tools.some((tool) => tool.name === "im_send"));
        await env.clearRequests();
        const result = await mcp.client.callTool({
          name: "im_send",
          arguments: { chat_id: env.sb.chats[0].chat_id, text: "no" },
        });
        assert.equal(result.isError, true);
        assert.match(
          (result.structuredContent as unknown as Envelope).error.message,
          /^Cannot call im_send: hark mcp runs with --read-only and this tool changes data$/,
        );
        assert.deepEqual(await env.requests(), []);
      } finally {
        await mcp.close();
      }
    });

    await t.step("--as bot fixes the identity and drops the tools a bot cannot use", async () => {
      const mcp = await connectHarkMcp(env.hark.env, [
        "--as",
        "bot",
        "--services",
        "calendar,contact",
      ]);
      try {
        const { tools } = await mcp.client.listTools() as { tools: ToolJson[] };
        const shortcuts = (await loadServices())
          .filter((g) => g.name === "calendar" || g.name === "contact")
          .flatMap((g) => g.shortcuts);
        const forBot = shortcuts.filter((s) => (s.identities ?? ["user"]).includes("bot"));
        assert.ok(forBot.length < shortcuts.length, "some of them are for users only");
        assert.deepEqual(
          tools.map((tool) => tool.name),
          forBot.map((s) => expectedToolName(s.service, s.verb)),
        );
        assert.ok(tools.some((tool) => tool.name === "calendar_agenda"));
        assert.ok(tools.every((tool) => !("as" in (tool.inputSchema.properties ?? {}))));
        await env.clearRequests();
        const result = await mcp.client.callTool({
          name: "calendar_agenda",
          arguments: { start: day(0), end: day(1) },
        });
        assert.equal(result.isError, undefined, JSON.stringify(result));
        const views = (await env.requests()).filter((r) => r.path.endsWith("/instance_view"));
        assert.equal(views.length, 1);
        assert.match(views[0].headers.authorization, /^Bearer t-/, "a tenant token");
      } finally {
        await mcp.close();
      }
    });
  } finally {
    await env.close();
  }
});

Deno.test("hark mcp: twenty concurrent calls on a token about to expire refresh it once", async () => {
  const world = await startWorld();
  try {
    // Tokens live 305 s: a new one has 5 s before its last 5 minutes, when hark refreshes it.
    const login = await world.signIn({ accessTokenTtl: 305 });
    assert.equal(login.code, 0, login.stderr);
    // The stored token is 6 s older than it is (no waiting): it is in its last 5 minutes.
    const keychain = homeKeychain(world.home);
    const { keychain_namespace: ns } = await world.home.readConfig();
    const path = `hark/${ns}/default/user_token`;
    const record = JSON.parse((await keychain.get(path))!);
    await keychain.set(path, JSON.stringify({ ...record, expires_at: Date.now() + 299_000 }));
    const mcp = await connectHarkMcp(world.home.env);
    try {
      await world.clearRequests();
      const results = await Promise.all(
        Array.from(
          { length: 20 },
          () =>
            mcp.client.callTool({
              name: "calendar_agenda",
              arguments: { start: day(0), end: day(0) },
            }),
        ),
      );
      for (const result of results) assert.equal(result.isError, undefined, JSON.stringify(result));
      const log = await world.requestLog();
      assert.equal(log.filter((r) => r.body?.grant_type === "refresh_token").length, 1);
      assert.equal(log.filter((r) => r.path.endsWith("/instance_view")).length, 20);
    } finally {
      await mcp.close();
    }
  } finally {
    await world.close();
  }
});

Deno.test("hark mcp: a flag mistake exits 2 before serving; --help shows the host config", async () => {
  const env = await createShortcutEnv();
  try {
    const tools = await env.run(["mcp", "--tools", "calendar_agenda,calendar_agnda", "--json"]);
    assert.equal(tools.code, 2);
    const { error } = JSON.parse(tools.stderr) as Envelope;
    assert.equal(error.message, 'Unknown tool "calendar_agnda" for --tools');
    const groups = await loadServices();
    assert.equal(
      error.recovery.suggestion,
      `Known tools: ${
        groups.flatMap((g) => g.shortcuts).map((s) => expectedToolName(s.service, s.verb))
          .join(", ")
      }; API methods by id (docx.v1.document.create), glob (docx.*) or preset: calendar ` +
        "(calendar), im (im), docs (docx, drive, wiki, sheets), tasks (task), base (bitable, base)",
    );
    assert.equal(tools.stdout, "");

    const services = await env.run(["mcp", "--services", "mail"]);
    assert.equal(services.code, 2);
    assert.match(services.stderr, /Unknown service "mail" for --services/);
    assert.ok(
      services.stderr.includes(`Known services: ${groups.map((g) => g.name).join(", ")}`),
      services.stderr,
    );

    const profile = await env.run(["mcp", "--profile", "nope"]);
    assert.equal(profile.code, 2, profile.stderr);

    const help = await env.run(["mcp", "--help"]);
    assert.equal(help.code, 0);
    const snippet = /\n {2}(\{\n[\s\S]*?\n {2}\})\n/.exec(help.stdout)?.[1];
    assert.ok(snippet, help.stdout);
    const config = JSON.parse(snippet);
    assert.deepEqual(config.mcpServers.hark, { command: "hark", args: ["mcp"] });
  } finally {
    await env.close();
  }
});

Deno.test("hark mcp: a call still running when stdin closes is answered before the exit", async () => {
  const env = await createShortcutEnv();
  try {
    // The call is still waiting for the service when the script's end reaches hark.
    await env.post("/sandbox/faults", {
      route: "/open-apis/authen/v1/user_info",
      kind: "latency",
      ms: 500,
    });
    const script = mcpScript("printf", [
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "contact_me", arguments: {} },
      },
    ]);
    const run = await env.run(["mcp"], { stdin: script });
    assert.equal(run.code, 0, run.stderr);
    const answers = run.stdout.split("\n").filter((line) => line !== "").map((l) => JSON.parse(l));
    assert.deepEqual(answers.map((a) => a.id), [1, 2], run.stdout);
    assert.equal(answers[1].result.isError, undefined, JSON.stringify(answers[1]));
    assert.equal(answers[1].result.structuredContent.open_id, env.sb.users[0].open_id);
    assert.match(run.stderr, /answering 1 call in flight first/);
  } finally {
    await env.close();
  }
});
