import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { addAttendeesRequests, attendeeOf, inviteesOf } from "./_attendees.ts";

Deno.test("attendeeOf() makes oc_ a chat, omm_ a meeting room, anything else a person", () => {
  assert.deepEqual(attendeeOf("ou_1"), { type: "user", user_id: "ou_1" });
  assert.deepEqual(attendeeOf("oc_1"), { type: "chat", chat_id: "oc_1" });
  assert.deepEqual(attendeeOf("omm_1"), { type: "resource", room_id: "omm_1" });
  const [request] = addAttendeesRequests("primary", "ev", ["ou_1", "oc_2", "omm_3"]);
  assert.deepEqual(request.body, {
    attendees: [
      { type: "user", user_id: "ou_1" },
      { type: "chat", chat_id: "oc_2" },
      { type: "resource", room_id: "omm_3" },
    ],
  });
});

Deno.test("inviteesOf() joins --attendees and --room without duplicates", () => {
  assert.deepEqual(inviteesOf({ attendees: "ou_1,omm_2", room: "omm_2,omm_3" }), [
    "ou_1",
    "omm_2",
    "omm_3",
  ]);
  assert.deepEqual(inviteesOf({}), []);
});

Deno.test("inviteesOf() refuses a --room that is not a meeting room, pointing at +room-find", () => {
  assert.throws(
    () => inviteesOf({ room: "ou_1" }),
    (e: unknown) =>
      e instanceof ValidationError && e.param === "--room" && /omm_/.test(e.message) &&
      /\+room-find/.test(e.recovery.command ?? ""),
  );
  assert.throws(
    () => inviteesOf({ room: " , " }),
    (e: unknown) => e instanceof ValidationError && e.param === "--room",
  );
});
