/**
 * The machine contract of `hark schema`: exit codes and error types as the code has them, the
 * `--input` flag, repeatable and negated flags with their real defaults, one-of groups.
 */

import assert from "node:assert/strict";
import {
  ApiError,
  AuthError,
  CancelledError,
  ERROR_TYPES,
  ExitCode,
  InternalError,
  NetworkError,
  PendingError,
  PermissionError,
  ValidationError,
} from "../../errors/mod.ts";
import { createTestContext } from "../../../tests/support/test_context.ts";
import { readGlobals } from "../globals.ts";
import { parseArgv } from "../parse_argv.ts";
import { buildRoot } from "../root.ts";
import { buildSchema } from "./describe.ts";

const root = buildRoot();

Deno.test("hark schema lists every exit code of src/errors once, with its meaning", async () => {
  const { exit_codes } = await buildSchema(root);
  assert.deepEqual(
    exit_codes.map((e) => [e.name, e.code]),
    Object.entries(ExitCode),
  );
  assert.equal(new Set(exit_codes.map((e) => e.code)).size, exit_codes.length);
  for (const row of exit_codes) assert.ok(row.meaning.length > 0, row.name);
});

Deno.test("hark schema lists every error type under each exit code it comes with", async () => {
  const { exit_codes } = await buildSchema(root);
  for (const [type, facts] of Object.entries(ERROR_TYPES)) {
    const under = exit_codes.filter((e) => e.error_types.some((t) => t.type === type));
    assert.deepEqual(under.map((e) => e.code).sort(), [...facts.codes].sort(), type);
  }
  const listed = exit_codes.flatMap((e) => e.error_types.map((t) => t.type));
  assert.deepEqual([...new Set(listed)].sort(), Object.keys(ERROR_TYPES).sort());
});

Deno.test("each error class's type and exit code are a row of the table", () => {
  const errors = [
    new ValidationError("x"),
    new AuthError("x"),
    new PermissionError("x"),
    new ApiError("x"),
    new NetworkError("x"),
    new CancelledError(),
    new PendingError("x", { command: "hark auth login" }),
    new InternalError("x"),
  ];
  for (const error of errors) {
    assert.equal(ERROR_TYPES[error.type].codes[0], error.code, error.type);
  }
});

Deno.test("hark schema gives --no-x switches their real default and what they turn off", async () => {
  const schema = await buildSchema(root);
  const noColor = schema.global_options.find((o) => o.name === "no-color");
  assert.deepEqual(
    { default: noColor?.default, negates: noColor?.negates, type: noColor?.type },
    { default: false, negates: "color", type: "bool" },
  );
  // What the parser makes of it: colour on unless --no-color is given.
  const ctx = createTestContext();
  const globals = async (argv: string[]) => readGlobals(ctx, (await parseArgv(root, argv)).globals);
  assert.equal((await globals(["config", "get", "x"])).color, true);
  assert.equal((await globals(["config", "get", "x", "--no-color"])).color, false);
  const login = schema.commands.find((c) => c.name === "auth")?.commands
    .find((c) => c.name === "auth login");
  const noWait = login?.options.find((o) => o.name === "no-wait");
  assert.deepEqual({ default: noWait?.default, negates: noWait?.negates }, {
    default: false,
    negates: "wait",
  });
});

Deno.test("hark schema marks repeatable flags, and lists --input and jq filtering", async () => {
  const schema = await buildSchema(root);
  const login = schema.commands.find((c) => c.name === "auth")?.commands
    .find((c) => c.name === "auth login");
  assert.equal(login?.options.find((o) => o.name === "scope")?.repeatable, true);
  assert.equal(login?.options.find((o) => o.name === "device-code")?.repeatable, undefined);
  assert.deepEqual(schema.shortcut_options.map((o) => o.flags), ["--input <path>"]);
  assert.deepEqual(
    schema.global_options.filter((o) => ["jq", "fields"].includes(o.name)).map((o) => o.flags),
    ["--jq <expr>", "--fields <a,b>"],
  );
});

Deno.test("one-of groups in hark schema are the ones validation enforces", async () => {
  const schema = await buildSchema(root);
  const withGroups = schema.services.flatMap((s) => s.shortcuts).filter((s) => s.one_of);
  assert.deepEqual(withGroups.map((s) => s.name), [
    "im +send",
    "im +reply",
    "im +messages",
    "im +thread",
    "im +forward",
  ]);
  const { loadServices } = await import("../../shortcuts/services.ts");
  const { inputOf } = await import("../../../tests/support/fake_client.ts");
  const shortcuts = (await loadServices()).flatMap((s) => s.shortcuts);
  const sample: Record<string, string> = {
    "chat-id": "oc_1",
    "user-id": "ou_1",
    email: "a@example.com",
    "message-id": "om_1",
    "thread-id": "omt_1",
    text: "hi",
    markdown: "hi",
    content: '{"text":"hi"}',
  };
  for (const described of withGroups) {
    const shortcut = shortcuts.find((s) => `${s.service} ${s.verb}` === described.name)!;
    for (const group of described.one_of!) {
      // The other groups get one member each; this one none, then two.
      const others = Object.fromEntries(
        described.one_of!.filter((g) => g !== group).map((g) => [g[0], sample[g[0]]]),
      );
      // +reply needs the message it answers; +thread's group is where that id goes.
      const base: Record<string, string> = group.includes("message-id")
        ? others
        : { ...others, "message-id": sample["message-id"] };
      await assert.rejects(
        async () => await shortcut.validate!(inputOf(base)),
        (e: unknown) =>
          e instanceof ValidationError && group.every((name) => e.message.includes(`--${name}`)),
        `${described.name}: none of ${group.join(", ")}`,
      );
      const two = { ...base, [group[0]]: sample[group[0]], [group[1]]: sample[group[1]] };
      await assert.rejects(
        async () => await shortcut.validate!(inputOf(two)),
        (e: unknown) => e instanceof ValidationError && /Conflicting flags/.test(e.message),
        `${described.name}: two of ${group.join(", ")}`,
      );
    }
  }
});
