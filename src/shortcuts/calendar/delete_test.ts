import assert from "node:assert/strict";
import { ApiError, CancelledError, ValidationError } from "../../errors/mod.ts";
import { FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { deleteQuestion, remove } from "./delete.ts";

type Deleted = { alreadyGone: boolean };

const EVENT = {
  event_id: "ev_0",
  summary: "Review",
  start_time: { timestamp: String(Date.UTC(2026, 10, 25, 14) / 1000) },
  end_time: { timestamp: String(Date.UTC(2026, 10, 25, 15) / 1000) },
};
const base = (extra = {}) => ({ "event-id": "ev_0", "calendar-id": "primary", ...extra });

Deno.test("delete previews a read and the delete, need_notification from --no-notify", () => {
  const requests = remove.requests(inputOf(base({ "no-notify": true })));
  assert.deepEqual(requests.map((r) => r.method), ["GET", "DELETE"]);
  assert.deepEqual(requests[1].query, { need_notification: false });
  assert.deepEqual(remove.requests(inputOf(base()))[1].query, { need_notification: true });
  assert.throws(
    () => remove.validate!(inputOf(base({ notify: true, "no-notify": true }))),
    (e: unknown) => e instanceof ValidationError && e.param === "--no-notify",
  );
});

Deno.test("delete asks first, and a no deletes nothing", async () => {
  const client = new FakeClient((r) => (r.method === "GET" ? { event: EVENT } : {}));
  await assert.rejects(remove.run!(inputOf(base()), client), CancelledError);
  assert.deepEqual(client.requests.map((r) => r.method), ["GET"]);
  const yes = new FakeClient((r) => (r.method === "GET" ? { event: EVENT } : {}));
  const result = await remove.run!(inputOf(base(), { confirm: true }), yes) as Deleted;
  assert.deepEqual(yes.requests.map((r) => r.method), ["GET", "DELETE"]);
  assert.equal(result.alreadyGone, false);
});

Deno.test("a delete retried after a lost answer finds the event gone: that is deleted", async () => {
  const client = new FakeClient((r) => {
    if (r.method === "GET") return { event: EVENT };
    throw new ApiError("event not found", { apiCode: 193001, httpStatus: 404 });
  });
  const result = await remove.run!(inputOf(base({ yes: true })), client) as Deleted;
  assert.equal(result.alreadyGone, true);
  const out = remove.output!(result, inputOf(base({ yes: true }))) as Record<string, unknown>;
  assert.equal(out.deleted, true);
  assert.equal(out.already_deleted, true);
  // Lark answers a deleted event with 193003 under HTTP 403: deleted too, not a permission error.
  const deleted = new FakeClient((r) => {
    if (r.method === "GET") return { event: EVENT };
    throw new ApiError("The event was deleted (code 193003)", {
      apiCode: 193003,
      httpStatus: 403,
      type: "not_found",
    });
  });
  const gone = await remove.run!(inputOf(base({ yes: true })), deleted) as Deleted;
  assert.equal(gone.alreadyGone, true);
  const other = new FakeClient((r) => {
    if (r.method === "GET") return { event: EVENT };
    throw new ApiError("no permission", { apiCode: 190002 });
  });
  await assert.rejects(remove.run!(inputOf(base({ yes: true })), other), /no permission/);
});

Deno.test("delete refuses a whole series without --all-instances and says so in the question", async () => {
  const series = { ...EVENT, recurrence: "FREQ=DAILY" };
  const client = new FakeClient((r) => (r.method === "GET" ? { event: series } : {}));
  await assert.rejects(
    remove.run!(inputOf(base({ yes: true })), client),
    (e: unknown) => e instanceof ValidationError && e.param === "--all-instances",
  );
  assert.match(deleteQuestion(series, "UTC"), /^Delete the whole series "Review"/);
  const instance = { ...EVENT, recurring_event_id: "s_0" };
  assert.equal(
    deleteQuestion(instance, "UTC"),
    'Delete one instance of "Review" (2026-11-25 14:00)?',
  );
});
