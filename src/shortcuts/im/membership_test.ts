import assert from "node:assert/strict";
import {
  ApiError,
  AuthError,
  errorFromApiCode,
  NetworkError,
  PermissionError,
} from "../../errors/mod.ts";
import { collect, inputOf } from "../../../tests/support/fake_client.ts";
import { explainMembership, membershipErrors, withMembership } from "./membership.ts";

const notInChat = () =>
  new PermissionError(
    "Insufficient permission (code 230002): Bot/User can NOT be out of the chat.",
    {
      code: 2,
      apiCode: 230002,
      requestId: "log-1",
      command: "hark auth login --scope im:message.group_msg",
    },
  );

Deno.test("explainMembership() names the identity, the chat and the way in, keeping the code", () => {
  const bot = explainMembership(notInChat(), inputOf({}, { identity: "bot" }), { chatId: "oc_1" });
  assert.ok(bot instanceof PermissionError);
  assert.equal(bot.code, 2);
  assert.equal(bot.apiCode, 230002);
  assert.equal(bot.requestId, "log-1");
  assert.match(
    bot.message,
    /^The app's bot is not a member of chat "oc_1": .*230002.*out of the chat/,
  );
  // SPEC's type and exit code for 230002 stay; its sign-in does not: no scope puts a bot in a chat.
  assert.equal(bot.type, "permission");
  assert.equal(bot.recovery.command, "hark im +chats --as bot");
  assert.match(bot.recovery.suggestion, /^Add the app's bot to the chat in Lark/);
  assert.doesNotMatch(bot.recovery.suggestion, /sign in/i);
  const user = explainMembership(notInChat(), inputOf({}), {}) as PermissionError;
  assert.match(user.message, /^You are not a member of the message's chat/);
  assert.match(user.recovery.suggestion, /^Ask a member to add you/);
  assert.equal(user.recovery.command, "hark im +chats");
  // A profile other than the default is named, so the command runs as printed.
  const work = { ...inputOf({}, { identity: "bot" }), profile: "work" };
  assert.equal(
    (explainMembership(notInChat(), work, {}) as PermissionError).recovery.command,
    "hark im +chats --as bot --profile work",
  );
  const resource = explainMembership(
    new ApiError("The service answered with code 234004: App not in chat.", {
      apiCode: 234004,
      httpStatus: 400,
    }),
    inputOf({}, { identity: "bot" }),
    {},
  );
  assert.ok(resource instanceof ApiError);
  assert.equal(resource.httpStatus, 400);
  assert.match(resource.message, /bot is not a member/);
  // A code outside SPEC's map leads to the chats the bot is in.
  assert.equal(resource.recovery.command, "hark im +chats --as bot");
});

Deno.test("explainMembership() leaves other failures alone", () => {
  const other = new ApiError("nope", { apiCode: 230001 });
  assert.equal(explainMembership(other, inputOf({}), {}), other);
  const network = new NetworkError("down");
  assert.equal(explainMembership(network, inputOf({}), {}), network);
});

Deno.test("withMembership() and membershipErrors() explain failures of calls and listings", async () => {
  await assert.rejects(
    withMembership(inputOf({}), Promise.reject(notInChat()), { chatId: "oc_2" }),
    /chat "oc_2"/,
  );
  assert.equal(await withMembership(inputOf({}), Promise.resolve(7)), 7);
  async function* failing() {
    yield [{ a: 1 }];
    throw notInChat();
  }
  await assert.rejects(collect(membershipErrors(inputOf({}), failing())), /You are not a member/);
});

Deno.test("explainMembership() reads 230001 as IM's invalid parameter and finds the right id", () => {
  const spec = errorFromApiCode(
    {
      code: 230001,
      msg: "Your request contains an invalid request parameter, ext=invalid receive_id",
    },
    { requestId: "log-7" },
  ) as AuthError;
  const input = inputOf({ "chat-id": "oc_missing", text: "hi" });
  const explained = explainMembership(spec, input, { chatId: "oc_missing" });
  assert.ok(explained instanceof AuthError);
  // SPEC's exit code and type for 230001 stay.
  assert.equal(explained.code, 2);
  assert.equal(explained.type, "auth");
  assert.equal(explained.apiCode, 230001);
  assert.equal(explained.requestId, "log-7");
  assert.equal(
    explained.message,
    "Invalid request parameter (code 230001): Your request contains an invalid request " +
      "parameter, ext=invalid receive_id (log id log-7)",
  );
  assert.match(explained.recovery.suggestion, /^In IM, code 230001 means a parameter .*invalid/);
  assert.match(explained.recovery.suggestion, /check --chat-id "oc_missing" /);
  // Signing in again changes nothing: the recovery lists the chats, with their ids.
  assert.doesNotMatch(explained.recovery.suggestion, /sign in/i);
  assert.equal(explained.recovery.command, "hark im +chats");
  const asBot = explainMembership(spec, inputOf({ "chat-id": "oc_x" }, { identity: "bot" }), {});
  assert.equal((asBot as AuthError).recovery.command, "hark im +chats --as bot");
  // Other token errors are not IM's to explain.
  const expired = errorFromApiCode({ code: 99991663, msg: "token expired" });
  assert.equal(explainMembership(expired, input, {}), expired);
});

Deno.test("explainMembership() leads a 230001 on a person to the people search or profile", () => {
  const spec = errorFromApiCode({
    code: 230001,
    msg: "Your request contains an invalid request parameter, ext=invalid receive_id",
  }) as AuthError;
  const byEmail = explainMembership(
    spec,
    inputOf({ email: "nobody@example.com", text: "hi" }, { identity: "bot" }),
    {},
  ) as AuthError;
  // The people search is the user's: no --as bot on it.
  assert.equal(byEmail.recovery.command, "hark contact +search-user --query nobody@example.com");
  assert.match(byEmail.recovery.suggestion, /check --email "nobody@example.com"/);
  const byId = explainMembership(spec, inputOf({ "user-id": "ou_gone" }), {}) as AuthError;
  assert.equal(byId.recovery.command, "hark contact +get-user --user-id ou_gone");
});
