import assert from "node:assert/strict";
import { ApiError, HarkError, NetworkError, ValidationError } from "../errors/mod.ts";
import { createTestContext } from "../../tests/support/test_context.ts";
import { FakeClient } from "../../tests/support/fake_client.ts";
import { create } from "./calendar/create.ts";
import { chatCreate } from "./im/chat_create.ts";
import { reply } from "./im/reply.ts";
import { send } from "./im/send.ts";
import { runShortcut, type ShortcutSession } from "./lifecycle.ts";
import { loadServices } from "./services.ts";
import { retryCommand, withRetryAdvice } from "./retry_advice.ts";
import type { TestContext } from "../../tests/support/test_context.ts";

function sessionOf(ctx: TestContext, client: FakeClient, profile = "default"): ShortcutSession {
  return {
    ctx,
    config: {},
    profile,
    dryRun: false,
    output: { format: "json", color: false },
    baseUrl: () => "https://open.example.com",
    connect: () => Promise.resolve(client),
    confirm: () => Promise.resolve(false),
  };
}

/** A write whose connection dropped after it was sent. */
const lost = () =>
  new NetworkError('Connection to "open.example.com" was lost during POST /open-apis/x', {
    mayHaveApplied: true,
  });

async function failure(promise: Promise<unknown>): Promise<HarkError> {
  const error = await promise.then(() => undefined, (e) => e);
  assert.ok(error instanceof HarkError, String(error));
  return error;
}

Deno.test("im +send whose answer was lost prints the command that retries with the same key (issue 12, item 9)", async () => {
  const ctx = createTestContext();
  const client = new FakeClient(() => {
    throw lost();
  });
  const error = await failure(runShortcut(sessionOf(ctx, client, "work"), send, {
    argv: { "chat-id": "oc_1", text: "Deploy finished" },
  }));
  assert.ok(error instanceof NetworkError, "the kind and exit code stay");
  assert.equal(error.code, 4);
  const key = (client.requests[0].body as { uuid: string }).uuid;
  assert.equal(key, "00000000-0000-4000-8000-000000000001");
  assert.equal(
    error.recovery.command,
    `hark im +send --chat-id oc_1 --text 'Deploy finished' --profile work --idempotency-key ${key}`,
  );
  assert.match(error.recovery.suggestion, /may have been applied/);
  assert.match(error.recovery.suggestion, /same idempotency key, which is safe/);
});

Deno.test("calendar +create whose answer was lost retries with the same idempotency_key", async () => {
  const ctx = createTestContext();
  const client = new FakeClient(() => {
    throw new ApiError("The service is unavailable: HTTP 502", { mayHaveApplied: true });
  });
  const error = await failure(runShortcut(sessionOf(ctx, client), create, {
    argv: {
      summary: "Design review",
      start: "2026-11-25 14:00",
      end: "2026-11-25 15:00",
      "idempotency-key": "my-key-1",
    },
  }));
  assert.equal(client.requests[0].query?.idempotency_key, "my-key-1");
  assert.equal(
    error.recovery.command,
    "hark calendar +create --summary 'Design review' --start '2026-11-25 14:00' " +
      "--end '2026-11-25 15:00' --idempotency-key my-key-1",
  );
});

Deno.test("a failure that applied nothing keeps its own recovery", async () => {
  const ctx = createTestContext();
  const refused = new ApiError("The service answered with code 230001", {
    suggestion: "Fix the chat id",
  });
  const client = new FakeClient(() => {
    throw refused;
  });
  const error = await failure(runShortcut(sessionOf(ctx, client), send, {
    argv: { "chat-id": "oc_1", text: "hi" },
  }));
  assert.equal(error, refused);
});

Deno.test("withRetryAdvice() mentions stdin when the input came from it", () => {
  const error = withRetryAdvice(lost(), {
    definition: send,
    argv: { email: "ana@example.com" },
    values: { email: "ana@example.com", text: "from a pipe", "idempotency-key": "k1" },
    sources: { email: "argv", text: "stdin" },
    as: "bot",
    profile: "default",
  });
  assert.equal(
    error.recovery.command,
    "hark im +send --email ana@example.com --as bot --idempotency-key k1",
  );
  assert.match(error.recovery.suggestion, /same input on stdin/);
});

Deno.test("retryCommand() keeps --input and boolean flags", () => {
  const command = retryCommand(
    {
      definition: {
        ...send,
        params: [...send.params, { name: "urgent", type: "bool", description: "x" }],
      },
      argv: { "chat-id": "oc_1", urgent: true },
      input: "message.json",
      values: {},
      sources: {},
      profile: "default",
    },
    "idempotency-key",
    "k2",
  );
  assert.equal(
    command,
    "hark im +send --chat-id oc_1 --urgent --input message.json --idempotency-key k2",
  );
});

Deno.test("every shortcut's idempotency key names one of its string parameters", async () => {
  for (const group of await loadServices()) {
    for (const shortcut of group.shortcuts) {
      if (shortcut.idempotencyKey === undefined) continue;
      const param = shortcut.params.find((p) => p.name === shortcut.idempotencyKey);
      assert.equal(param?.type, "string", `${shortcut.service} ${shortcut.verb}`);
      assert.equal(shortcut.effect, "write", `${shortcut.service} ${shortcut.verb}`);
    }
  }
  assert.equal(send.idempotencyKey, "idempotency-key");
  assert.equal(create.idempotencyKey, "idempotency-key");
});

Deno.test("calendar +create refuses an empty or spaced --idempotency-key", async () => {
  for (const key of ["", "a b"]) {
    const error = await failure(
      runShortcut(sessionOf(createTestContext(), new FakeClient(() => ({}))), create, {
        argv: {
          summary: "x",
          start: "2026-11-25 14:00",
          end: "2026-11-25 15:00",
          "idempotency-key": key,
        },
      }),
    );
    assert.ok(error instanceof ValidationError);
    assert.equal(error.param, "--idempotency-key");
  }
});

Deno.test("a write's answer that cannot be read is retried with the key, never rerun without it", async () => {
  // The fallback of an invalid_response is the command line again: without the key, a second
  // message. The lifecycle puts the key on it.
  const ctx = createTestContext();
  const unreadable = new ApiError("The service's answer to POST /x cannot be read", {
    type: "invalid_response",
    suggestion: "Check the base URL",
  });
  const client = new FakeClient(() => {
    throw unreadable;
  });
  const error = await failure(runShortcut(sessionOf(ctx, client), reply, {
    argv: { "message-id": "om_1", text: "On it" },
  }));
  const key = (client.requests[0].body as { uuid: string }).uuid;
  assert.equal(
    error.recovery.command,
    `hark im +reply --message-id om_1 --text 'On it' --idempotency-key ${key}`,
  );
  assert.equal(error.recovery.suggestion, "Check the base URL", "its own suggestion stays");
  // A validation error is no reason to run it again: its own recovery stays.
  const invalid = new ValidationError("bad", { param: "--text" });
  assert.equal(
    withRetryAdvice(invalid, {
      definition: reply,
      argv: {},
      values: { "idempotency-key": "k" },
      sources: {},
      profile: "default",
    }),
    invalid,
  );
});

Deno.test("a crash after the service accepted a write is no internal error: it says the write was done", async () => {
  const ctx = createTestContext();
  const client = new FakeClient(() => ({ chat_id: "oc_9" }));
  const crashing = {
    ...chatCreate,
    output: () => {
      throw new RangeError("Maximum call stack size exceeded");
    },
  };
  const error = await failure(runShortcut(sessionOf(ctx, client), crashing, {
    argv: { name: "Release", members: "ou_1", "idempotency-key": "chat-key-1" },
  }));
  assert.equal(error.code, 1);
  assert.equal(error.type, "invalid_response");
  assert.equal(
    error.message,
    "hark im +chat-create was carried out (the service accepted POST /open-apis/im/v1/chats), " +
      "but hark cannot show the service's answer: Maximum call stack size exceeded",
  );
  assert.equal(
    error.recovery.command,
    "hark im +chat-create --name Release --members ou_1 --idempotency-key chat-key-1",
  );
  // Before any write, a crash stays what it is: a bug, exit 5.
  const reading = await failure(
    runShortcut(sessionOf(ctx, new FakeClient(() => ({}))), {
      ...chatCreate,
      run: () => Promise.reject(new TypeError("boom")),
    }, { argv: { name: "Release", members: "ou_1" } }),
  );
  assert.equal(reading.code, 5);
});
