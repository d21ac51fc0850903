import assert from "node:assert/strict";
import { parseSandboxArgs } from "./parse_sandbox_args.ts";

Deno.test("parseSandboxArgs() reads every flag", () => {
  const cli = parseSandboxArgs([
    "--port=0",
    "--seed",
    "42",
    "--auto-approve-after",
    "3",
    "--app-id",
    "cli_a",
    "--app-secret",
    "b",
    "--access-token-ttl",
    "1.5",
    "--refresh-token-ttl",
    "60",
    "--interval",
    "0",
    "--events-per-day",
    "55",
    "--start-day",
    "2026-01-05",
    "--faults",
    '{"kind":"latency","ms":5}',
    "--app-scopes",
    "calendar:calendar.event:read, offline_access",
    "--json",
  ]);
  assert.deepEqual(cli, {
    json: true,
    help: false,
    options: {
      quiet: false,
      port: 0,
      seed: 42,
      autoApproveAfter: 3,
      appId: "cli_a",
      appSecret: "b",
      accessTokenTtl: 1.5,
      refreshTokenTtl: 60,
      appScopes: ["calendar:calendar.event:read", "offline_access"],
      interval: 0,
      eventsPerDay: 55,
      startDay: "2026-01-05",
      faults: [{ kind: "latency", ms: 5 }],
    },
  });
});

Deno.test("parseSandboxArgs() reads --faults @file and rejects bad input", () => {
  const cli = parseSandboxArgs(["--faults", "@f.json"], (path) => {
    assert.equal(path, "f.json");
    return '[{"kind":"drop","times":1}]';
  });
  assert.deepEqual(cli.options.faults, [{ kind: "drop", times: 1 }]);
  assert.throws(() => parseSandboxArgs(["--port", "x"]), /Invalid value "x" for "--port"/);
  assert.throws(() => parseSandboxArgs(["--seed", "1.5"]), /integer/);
  assert.throws(() => parseSandboxArgs(["--port"]), /Missing value for "--port"/);
  assert.throws(() => parseSandboxArgs(["--nope"]), /Unknown option "--nope"/);
  assert.throws(() => parseSandboxArgs(["--faults", '{"kind":"boom"}']), /kind must be/);
  assert.throws(() => parseSandboxArgs(["--faults", "{"]), /not valid JSON/);
  assert.equal(parseSandboxArgs(["-h"]).help, true);
});

Deno.test("parseSandboxArgs() reads the message seeding flags as integers", () => {
  const cli = parseSandboxArgs(["--messages-per-chat", "5", "--seed-messages=50000"]);
  assert.equal(cli.options.messagesPerChat, 5);
  assert.equal(cli.options.largeChatMessages, 50_000);
  assert.throws(
    () => parseSandboxArgs(["--seed-messages", "1.5"]),
    /expected a non-negative integer/,
  );
  assert.throws(() => parseSandboxArgs(["--messages-per-chat", "-1"]), /--messages-per-chat/);
});
