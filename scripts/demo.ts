/**
 * The demo: starts the sandbox on a free port and runs the real CLI against it in a throwaway
 * config and file keychain, one step at a time, printing each command and then its output.
 *
 * Usage: deno task demo
 *
 * @module
 */

import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's wildcard export maps "./*" to "*.d.ts", which misses "stdio.js": name the types.
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startSandbox } from "../sandbox/mod.ts";
import { ensureCatalogue } from "./catalogue/ensure.ts";
import { FROM_SOURCE_FLAGS, HARK_RUN_FLAGS } from "./permissions.ts";

const MAIN_TS = new URL("../main.ts", import.meta.url).pathname;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const bold = (
  s: string,
) => (Deno.stdout.isTerminal() && !Deno.env.get("NO_COLOR") ? `\x1b[1m${s}\x1b[22m` : s);
const dim = (
  s: string,
) => (Deno.stdout.isTerminal() && !Deno.env.get("NO_COLOR") ? `\x1b[2m${s}\x1b[22m` : s);

/** What one step of the demo ran into. */
interface StepResult {
  code: number;
  stdout: string;
}

/** The day `days` after a `YYYY-MM-DD` day. */
function addDaysText(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

function say(text: string): void {
  Deno.stdout.writeSync(encoder.encode(text));
}

/** Prints at most `max` lines of `text`, then how many were left out. */
function printHead(text: string, max: number): void {
  const lines = text.replace(/\n$/, "").split("\n");
  if (text === "" || max === 0) return;
  say(lines.slice(0, max).join("\n") + "\n");
  if (lines.length > max) say(dim(`… ${lines.length - max} more lines\n`));
}

async function main(): Promise<number> {
  await ensureCatalogue({ quiet: true });
  const dir = await Deno.makeTempDir({ prefix: "hark-demo-" });
  const sandbox = await startSandbox({ port: 0, quiet: true, autoApproveAfter: 0 });
  const env: Record<string, string> = {
    ...Deno.env.toObject(),
    HARK_CONFIG: join(dir, "config.json"),
    HARK_KEYCHAIN: "file",
    HARK_KEYCHAIN_PASSWORD: "demo-keychain-password",
    HARK_DATA_DIR: join(dir, "data"),
    TZ: Deno.env.get("TZ") ?? "UTC",
  };
  delete env.HARK_PROFILE;
  delete env.HARK_USER_ACCESS_TOKEN;
  delete env.HARK_TENANT_ACCESS_TOKEN;
  delete env.HARK_BASE_URL;
  delete env.CI;

  async function hark(
    args: string[],
    options: { stdin?: string; maxLines?: number; expect?: number } = {},
  ): Promise<StepResult> {
    const shown = args.map((
      a,
    ) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`));
    say(
      `\n${
        bold(`$ ${options.stdin !== undefined ? "printf %s '…' | " : ""}hark ${shown.join(" ")}`)
      }\n`,
    );
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", ...FROM_SOURCE_FLAGS, ...HARK_RUN_FLAGS, MAIN_TS, ...args],
      env,
      clearEnv: true,
      stdin: options.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    if (options.stdin !== undefined) {
      const writer = child.stdin.getWriter();
      await writer.write(encoder.encode(options.stdin));
      await writer.close();
    }
    const output = await child.output();
    const stdout = decoder.decode(output.stdout);
    printHead(stdout, options.maxLines ?? 40);
    const expected = options.expect ?? 0;
    if (output.code !== expected) {
      throw new Error(`hark ${args.join(" ")} exited ${output.code}, expected ${expected}`);
    }
    if (expected !== 0) say(dim(`(exit code ${output.code}, as expected)\n`));
    return { code: output.code, stdout };
  }

  /** Starts `hark mcp` with the MCP SDK's client, as an agent's host does, and calls tools. */
  async function mcpRoundTrip(chatId: string, day: string): Promise<void> {
    say(`\n${bold("$ hark mcp")}   ${dim("(started and driven by the MCP SDK's client)")}\n`);
    const client = new Client({ name: "hark-demo", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: Deno.execPath(),
        args: ["run", "--quiet", ...FROM_SOURCE_FLAGS, ...HARK_RUN_FLAGS, MAIN_TS, "mcp"],
        env,
      }),
    );
    try {
      const { tools } = await client.listTools();
      say(`tools/list → ${tools.map((t) => t.name).join(", ")}\n`);
      const calls: [string, Record<string, unknown>][] = [
        ["calendar_agenda", { start: day, end: day }],
        ["im_send", { chat_id: chatId, text: "Sent by an agent", dry_run: true }],
        ["im_send", { chat_id: chatId, text: "Sent by an agent" }],
      ];
      for (const [name, args] of calls) {
        const result = await client.callTool({ name, arguments: args });
        const [summary] = result.content as { text: string }[];
        say(`tools/call ${name} ${JSON.stringify(args)}\n  → ${summary.text}\n`);
        if (result.isError) throw new Error(`${name} failed: ${summary.text}`);
      }
    } finally {
      await client.close();
    }
  }

  async function sandboxGet<T>(path: string): Promise<T> {
    const response = await fetch(`${sandbox.baseUrl}${path}`);
    return await response.json() as T;
  }
  async function clearLog(): Promise<void> {
    await (await fetch(`${sandbox.baseUrl}/sandbox/requests`, { method: "DELETE" })).body?.cancel();
  }

  try {
    say(bold("hark demo") + ` — the real CLI against a local sandbox at ${sandbox.baseUrl}\n`);
    say(dim(`Throwaway config and encrypted-file keychain in ${dir}\n`));

    say(
      bold(
        "\n# 1. Configure the app; the secret goes to the keychain, the file keeps a reference\n",
      ),
    );
    await hark(
      [
        "config",
        "init",
        "--non-interactive",
        "--app-id",
        sandbox.appId,
        "--app-secret-stdin",
        "--base-url",
        sandbox.baseUrl,
        "--output-format",
        "table",
      ],
      { stdin: sandbox.appSecret },
    );
    await hark(["config", "get", "apps.default"]);

    say(bold("\n# 2. Sign in with the device flow (the sandbox approves at the first poll)\n"));
    // Not a terminal (a pipe, a CI log): without --wait the sign-in would start for later.
    await hark([
      "auth",
      "login",
      "--wait",
      "2m",
      "--scope",
      "calendar:calendar.event:read,calendar:calendar.event:create,calendar:calendar.event:update," +
      "calendar:calendar.event:delete,calendar:calendar.event:reply,calendar:calendar.free_busy:read," +
      "contact:user:search,contact:user.basic_profile:readonly,contact:contact.base:readonly," +
      "contact:user.base:readonly,contact:user.email:readonly,im:chat:read," +
      "im:message.group_msg:get_as_user,im:message.p2p_msg:get_as_user,im:message:readonly",
    ]);
    await hark(["auth", "status"]);

    say(
      bold(
        "\n# 3. A 120-day agenda: split into 40-day-or-less pieces, fetched in parallel, merged\n",
      ),
    );
    await clearLog();
    // 50 ms per request, as over a real network, so the parallel pieces overlap visibly.
    await fetch(`${sandbox.baseUrl}/sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ route: "/open-apis/calendar", kind: "latency", ms: 50 }),
    }).then((r) => r.body?.cancel());
    const today = new Date();
    const start = new Date(today.getTime() - 60 * 86_400_000).toISOString().slice(0, 10);
    const end = new Date(today.getTime() + 59 * 86_400_000).toISOString().slice(0, 10);
    await hark(["calendar", "+agenda", "--start", start, "--end", end], { maxLines: 12 });
    const log = await sandboxGet<{ path: string; query: Record<string, string> }[]>(
      "/sandbox/requests",
    );
    const pieces = log.filter((r) => r.path.endsWith("/instance_view"));
    const stats = await sandboxGet<{ max_in_flight: number }>("/sandbox/stats");
    say(dim(
      `(the sandbox saw ${pieces.length} instance_view requests, up to ${stats.max_in_flight} ` +
        `at once: ${
          pieces.map((p) => {
            const days = (Number(p.query.end_time) - Number(p.query.start_time)) / 86_400;
            return `${Math.round(days)}d`;
          }).join(" + ")
        })\n`,
    ));
    const json = await hark(
      ["calendar", "+agenda", "--start", start, "--end", end, "--json"],
      { maxLines: 0 },
    );
    say(dim(`(merged into ${JSON.parse(json.stdout).length} events, de-duplicated and sorted)\n`));
    await fetch(`${sandbox.baseUrl}/sandbox/faults`, { method: "DELETE" }).then((r) =>
      r.body?.cancel()
    );

    say(
      bold("\n# 4. Find a room, book a weekly event in it with an attendee, look at free/busy\n"),
    );
    const tomorrow = new Date(today.getTime() + 86_400_000).toISOString().slice(0, 10);
    const attendee = sandbox.users[1];
    const rooms = JSON.parse(
      (await hark([
        "calendar",
        "+room-find",
        "--slot",
        `${tomorrow} 15:00~${tomorrow} 15:30`,
        "--min-capacity",
        "6",
        "--json",
      ])).stdout,
    ) as { room_id: string }[];
    await hark([
      "calendar",
      "+create",
      "--summary",
      "hark demo sync",
      "--start",
      `${tomorrow} 15:00`,
      "--end",
      `${tomorrow} 15:30`,
      "--rrule",
      "FREQ=WEEKLY;COUNT=4",
      "--room",
      rooms[0].room_id,
      "--attendees",
      attendee.open_id,
    ]);
    await hark(["calendar", "+freebusy", "--start", tomorrow, "--end", tomorrow], {
      maxLines: 12,
    });

    say(bold("\n# 5. A calendar round: find a time, book it, look, answer, move, cancel\n"));
    const me = sandbox.users[0];
    const people = `${me.open_id},${attendee.open_id}`;
    const window = ["--start", tomorrow, "--end", addDaysText(tomorrow, 4)];
    await hark(
      ["calendar", "+find-time", "--attendees", attendee.open_id, "--duration", "45m", ...window],
      { maxLines: 6 },
    );
    const slots = JSON.parse(
      (await hark(
        [
          "calendar",
          "+find-time",
          "--attendees",
          attendee.open_id,
          "--duration",
          "45m",
          ...window,
          "--json",
        ],
        { maxLines: 0 },
      )).stdout,
    ) as { start_time: string; end_time: string }[];
    const made = await hark([
      "calendar",
      "+create",
      "--summary",
      "hark demo review",
      "--start",
      slots[0].start_time,
      "--end",
      slots[0].end_time,
      "--attendees",
      people,
      "--json",
    ], { maxLines: 0 });
    const eventId = (JSON.parse(made.stdout) as { event_id: string }).event_id;
    say(dim(`(booked the first free slot, ${slots[0].start_time}: event ${eventId})\n`));
    await hark(["calendar", "+rsvp", "--event-id", eventId, "--status", "tentative"]);
    await hark(["calendar", "+get", "--event-id", eventId]);
    const later = (text: string) => new Date(Date.parse(text) + 3600_000).toISOString();
    await hark([
      "calendar",
      "+update",
      "--event-id",
      eventId,
      "--summary",
      "hark demo review (moved)",
      "--start",
      later(slots[0].start_time),
      "--end",
      later(slots[0].end_time),
      "--json",
    ]);
    await hark(["calendar", "+delete", "--event-id", eventId, "--no-notify", "--yes"]);
    await hark(["calendar", "+get", "--event-id", eventId], { expect: 1, maxLines: 0 });

    say(bold("\n# 6. Find people\n"));
    await hark(["contact", "+search-user", "--query", attendee.name.split(" ")[0], "--limit", "5"]);

    say(bold("\n# 7. Preview a message with --dry-run: nothing is sent, no sign-in needed\n"));
    const chat = sandbox.chats[0];
    await hark([
      "im",
      "+send",
      "--chat-id",
      chat.chat_id,
      "--text",
      "Deploy finished",
      "--dry-run",
    ]);

    say(bold("\n# 8. A permission we were not granted: the error says how to get it\n"));
    await hark(["im", "+send", "--chat-id", chat.chat_id, "--text", "Deploy finished"], {
      expect: 1,
    });
    await hark(["im", "+send", "--chat-id", chat.chat_id, "--text", "Deploy finished", "--json"], {
      expect: 1,
    });
    say(bold("\n# … so run the recovery command it printed, then send again\n"));
    // Lark's message create doc: as a user, im:message.send_as_user and im:message both.
    await hark([
      "auth",
      "login",
      "--scope",
      "im:message.send_as_user",
      "--scope",
      "im:message",
      "--wait",
      "2m",
    ]);
    await hark(["im", "+send", "--chat-id", chat.chat_id, "--text", "Deploy finished"]);

    say(bold("\n# 9. A conversation: find the chat, read, reply in a thread, share a file\n"));
    await hark(["im", "+chats", "--query", chat.name]);
    await hark(["im", "+messages", "--chat-id", chat.chat_id, "--limit", "5"], { maxLines: 8 });
    const recent = JSON.parse(
      (await hark(["im", "+messages", "--chat-id", chat.chat_id, "--limit", "20", "--json"], {
        maxLines: 0,
      })).stdout,
    ) as { message_id: string; msg_type: string; sender: { id: string } }[];
    const myId = sandbox.users[0].open_id;
    const asked = recent.find((m) =>
      m.msg_type === "text" && m.sender.id.startsWith("ou_") &&
      m.sender.id !== myId
    )!;
    say(dim(`(the latest text from someone else is ${asked.message_id})\n`));
    await hark([
      "im",
      "+reply",
      "--message-id",
      asked.message_id,
      "--in-thread",
      "--text",
      "Looking into it now",
    ]);
    await hark(["im", "+thread", "--message-id", asked.message_id]);
    const notes = join(dir, "release-notes.txt");
    await Deno.writeTextFile(notes, "hark 0.1: read, reply and share files from the terminal\n");
    const sent = JSON.parse(
      (await hark(["im", "+send", "--chat-id", chat.chat_id, "--file", notes, "--json"], {
        maxLines: 0,
      })).stdout,
    ) as { message_id: string; body: { content: string } };
    say(dim(`(uploaded, then sent as ${sent.message_id}: ${sent.body.content})\n`));
    const downloads = join(dir, "downloads");
    await Deno.mkdir(downloads);
    await hark([
      "im",
      "+download",
      "--message-id",
      sent.message_id,
      "--key",
      JSON.parse(sent.body.content).file_key,
      "--output",
      `${downloads}/`,
    ]);
    const back = await Deno.readTextFile(join(downloads, "release-notes.txt"));
    if (back !== await Deno.readTextFile(notes)) throw new Error("the file came back changed");
    say(dim("(the file came back byte for byte)\n"));
    await hark(["contact", "+get-user", "--user-id", asked.sender.id]);

    say(bold("\n# 10. Search every chat, and answer with a reaction\n"));
    // Lark's docs: message search takes search:message (user only); reactions their own scopes.
    await hark([
      "auth",
      "login",
      "--scope",
      "search:message",
      "--scope",
      "im:message.reactions:write_only",
      "--scope",
      "im:message.reactions:read",
      "--wait",
      "2m",
    ]);
    await hark(["im", "+messages-search", "--query", "Deploy finished", "--limit", "3"], {
      maxLines: 6,
    });
    await hark([
      "im",
      "+reaction-add",
      "--message-id",
      asked.message_id,
      "--emoji",
      "THUMBSUP",
    ]);
    await hark(["im", "+reactions", "--message-id", asked.message_id]);

    say(bold("\n# 11. An AI agent's view: the same shortcuts as MCP tools\n"));
    await mcpRoundTrip(chat.chat_id, tomorrow);

    say(bold("\n# 12. Sign out: the tokens leave the keychain and the config\n"));
    await hark(["auth", "logout"]);
    await hark(["auth", "status"], { expect: 3 });

    say(bold("\nDemo finished: every step ran the real CLI against the sandbox.\n"));
    return 0;
  } catch (error) {
    console.error(`demo failed: ${error instanceof Error ? error.message : error}`);
    return 1;
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await main());
