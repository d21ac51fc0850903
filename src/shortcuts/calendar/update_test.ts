import assert from "node:assert/strict";
import { ApiError, ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import type { ParamValues } from "../definition.ts";
import { at, FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { changesOf, patchBody, update, type UpdateResult } from "./update.ts";

const START = Date.UTC(2026, 10, 25, 14);
const EVENT = {
  event_id: "ev_0",
  summary: "Review",
  description: "",
  start_time: { timestamp: String(START / 1000), timezone: "UTC" },
  end_time: { timestamp: String(START / 1000 + 3600), timezone: "UTC" },
};
const base = <const E extends ParamValues>(extra?: E) =>
  Object.assign({ "event-id": "ev_0", "calendar-id": "primary" }, extra);

/** A service with one event and its attendees, recording every write. */
function service(
  event: Record<string, unknown> = EVENT,
  attendees: Record<string, string>[] = [{ type: "user", user_id: "ou_1" }],
) {
  return new FakeClient((r: ApiRequest) => {
    if (r.method === "GET" && r.path.endsWith("/attendees")) {
      return { items: attendees, has_more: false };
    }
    if (r.method === "GET") return { event };
    if (r.method === "PATCH") return { event: { ...event, ...(r.body as object) } };
    return {};
  });
}

Deno.test("patchBody() holds only the fields given, start and end when both are", () => {
  assert.deepEqual(patchBody(inputOf(base({ summary: "New" }))), { summary: "New" });
  assert.deepEqual(patchBody(inputOf(base({ location: "Room 4", "no-notify": true }))), {
    location: { name: "Room 4" },
    need_notification: false,
  });
  // One alone is worked out from the event once read (movedTimes).
  assert.deepEqual(patchBody(inputOf(base({ start: at(START) }))), {});
  const both = patchBody(inputOf(base({ start: at(START), end: at(START + 1800_000, "--end") })));
  assert.deepEqual(both.end_time, { timestamp: String(START / 1000 + 1800), timezone: "UTC" });
});

Deno.test("changesOf() lists what differs, times in hark's JSON shape", () => {
  const body = patchBody(
    inputOf(base({ summary: "Review", start: at(START + 3600_000), end: at(START + 7200_000) })),
  );
  assert.deepEqual(changesOf(EVENT, body, "UTC"), [
    {
      field: "start_time",
      before: "2026-11-25T14:00:00+00:00",
      after: "2026-11-25T15:00:00+00:00",
    },
    { field: "end_time", before: "2026-11-25T15:00:00+00:00", after: "2026-11-25T16:00:00+00:00" },
  ]);
});

Deno.test("update validate needs something to change and refuses the same id in both lists", () => {
  assert.throws(() => update.validate!(inputOf(base())), /Nothing to change/);
  assert.throws(
    () => update.validate!(inputOf(base({ "add-attendees": "ou_1", "remove-attendees": "ou_1" }))),
    /both add and remove "ou_1"/,
  );
});

Deno.test("update reads, re-reads, patches only the given fields, and skips attendees already so", async () => {
  const client = service();
  const result = await update.run!(
    inputOf(base({ summary: "New", "add-attendees": "ou_1,ou_2", "remove-attendees": "ou_3" })),
    client,
  ) as UpdateResult;
  assert.deepEqual(
    client.requests.map((r) => `${r.method} ${r.path.split("/").slice(-1)}`),
    ["GET ev_0", "GET attendees", "GET ev_0", "PATCH ev_0", "POST attendees"],
  );
  assert.deepEqual(client.requests[3].body, { summary: "New" });
  assert.ok(client.requests[3].idempotencyKey, "a patch may be retried");
  assert.deepEqual(client.requests[4].body, { attendees: [{ type: "user", user_id: "ou_2" }] });
  assert.deepEqual(result.added, ["ou_2"]);
  assert.deepEqual(result.removed, []);
  assert.deepEqual(result.changes, [{ field: "summary", before: "Review", after: "New" }]);
});

Deno.test("update removes attendees with batch_delete by open id", async () => {
  const client = service();
  await update.run!(inputOf(base({ "remove-attendees": "ou_1" })), client);
  const last = client.requests.at(-1)!;
  assert.equal(
    last.path,
    "/open-apis/calendar/v4/calendars/primary/events/ev_0/attendees/batch_delete",
  );
  assert.deepEqual(last.query, { user_id_type: "open_id" });
  assert.deepEqual(last.body, { delete_ids: [{ type: "user", user_id: "ou_1" }] });
});

Deno.test("update --no-notify tells batch_delete too, whose default is to notify", async () => {
  const client = service();
  await update.run!(inputOf(base({ "remove-attendees": "ou_1", "no-notify": true })), client);
  assert.deepEqual(client.requests.at(-1)!.body, {
    delete_ids: [{ type: "user", user_id: "ou_1" }],
    need_notification: false,
  });
  const preview = update.requests(inputOf(base({ "remove-attendees": "ou_1", notify: true })));
  assert.equal((preview.at(-1)!.body as Record<string, unknown>).need_notification, true);
});

Deno.test("update stops without writing when the event changed between its reads", async () => {
  let reads = 0;
  const client = new FakeClient((r) => {
    if (r.method !== "GET") throw new Error("must not write");
    reads++;
    return { event: reads === 1 ? EVENT : { ...EVENT, summary: "Changed by Ann" } };
  });
  await assert.rejects(
    update.run!(inputOf(base({ summary: "Mine" })), client),
    (e: unknown) =>
      e instanceof ApiError && e.type === "conflict" &&
      /changed while hark was reading it/.test(e.message) &&
      e.recovery.command === "hark calendar +update --event-id ev_0 --summary Mine",
  );
});

Deno.test("update refuses a whole series without --all-instances, and attendees of an instance", async () => {
  const series = { ...EVENT, recurrence: "FREQ=WEEKLY;BYDAY=MO" };
  await assert.rejects(
    update.run!(inputOf(base({ summary: "x" })), service(series)),
    (e: unknown) => e instanceof ValidationError && e.param === "--all-instances",
  );
  const ok = await update.run!(
    inputOf(base({ summary: "x", "all-instances": true })),
    service(series),
  ) as UpdateResult;
  assert.equal(ok.changes.length, 1);
  const instance = { ...EVENT, event_id: "ev_1795618800", recurring_event_id: "ev_0" };
  await assert.rejects(
    update.run!(inputOf(base({ "add-attendees": "ou_2" })), service(instance)),
    (e: unknown) =>
      e instanceof ValidationError &&
      /--event-id ev_0 --add-attendees ou_2 --all-instances/.test(e.recovery.command),
  );
});

Deno.test("update --start alone moves the event keeping its length; --end alone keeps its start", async () => {
  const moved = service();
  const result = await update.run!(inputOf(base({ start: at(START + 86_400_000) })), moved);
  const patch = moved.requests.find((r) => r.method === "PATCH")!;
  assert.deepEqual(patch.body, {
    start_time: { timestamp: String(START / 1000 + 86_400), timezone: "UTC" },
    end_time: { timestamp: String(START / 1000 + 86_400 + 3600), timezone: "UTC" },
  });
  assert.deepEqual((result as UpdateResult).changes.map((c) => c.field), [
    "start_time",
    "end_time",
  ]);

  const longer = service();
  await update.run!(inputOf(base({ end: at(START + 7200_000, "--end"), notify: true })), longer);
  assert.deepEqual(longer.requests.find((r) => r.method === "PATCH")!.body, {
    start_time: { timestamp: String(START / 1000), timezone: "UTC" },
    end_time: { timestamp: String(START / 1000 + 7200), timezone: "UTC" },
    need_notification: true,
  });
});

Deno.test("update --end alone before the event's start is refused before anything is written", async () => {
  const client = service();
  await assert.rejects(
    update.run!(inputOf(base({ end: at(START - 60_000, "--end") })), client),
    (e: unknown) =>
      e instanceof ValidationError && e.param === "--end" &&
      /--end ".*" is not after its start "2026-11-25 14:00"/.test(e.message),
  );
  assert.ok(client.requests.every((r) => r.method === "GET"));
});

Deno.test("update --start alone is previewed with the end left to the event's length", () => {
  const [, , patch] = update.requests(inputOf(base({ start: at(START) })));
  assert.deepEqual(patch.body, {
    start_time: { timestamp: String(START / 1000), timezone: "UTC" },
    end_time: { timestamp: "{the new start + the event's length}" },
  });
});

Deno.test("update adds and removes meeting rooms and chats by their ids, skipping those already so", async () => {
  const client = service(EVENT, [
    { type: "user", user_id: "ou_1" },
    { type: "resource", room_id: "omm_1" },
    { type: "resource", room_id: "omm_3" },
    { type: "chat", chat_id: "oc_1" },
  ]);
  const result = await update.run!(
    inputOf(base({ "add-attendees": "omm_1,omm_2,oc_2", "remove-attendees": "omm_3,oc_1" })),
    client,
  ) as UpdateResult;
  assert.deepEqual(result.added, ["omm_2", "oc_2"]);
  assert.deepEqual(result.removed, ["omm_3", "oc_1"]);
  const [add, remove] = client.requests.filter((r) => r.method === "POST");
  assert.deepEqual(add.body, {
    attendees: [{ type: "resource", room_id: "omm_2" }, { type: "chat", chat_id: "oc_2" }],
  });
  assert.deepEqual(remove.body, {
    delete_ids: [{ type: "resource", room_id: "omm_3" }, { type: "chat", chat_id: "oc_1" }],
  });
});
