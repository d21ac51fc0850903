import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { ROOM_FIND_PATH, roomFind } from "./room_find.ts";

const SLOTS = "2026-12-01 10:00~2026-12-01 11:00,2026-12-02 10:00~2026-12-02 11:00";

Deno.test("+room-find sends one room_find per slot with the filters, and the user, and lists rooms", async () => {
  const client = new FakeClient((r) => ({
    available_rooms: String((r.body as Record<string, unknown>).event_start_time).startsWith(
        "2026-12-01",
      )
      ? [{ room_id: "omm_1", room_name: "Jupiter", capacity: 12, reserve_until_time: "x" }, {
        room_name: "no id",
      }]
      : [],
  }));
  const input = inputOf({
    slot: SLOTS,
    city: " Singapore ",
    floor: "F2",
    "room-name": "Jup",
    "min-capacity": 6,
    "max-capacity": 20,
    attendees: "ou_2,oc_9",
    rrule: "freq=weekly",
  }, { config: { users: { default: { open_id: "ou_me" } } } });
  roomFind.validate!(input);
  const rows = await roomFind.run!(input, client);
  assert.equal(client.requests.length, 2);
  assert.equal(client.requests[0].path, ROOM_FIND_PATH);
  assert.deepEqual(client.requests[0].body, {
    event_start_time: "2026-12-01T10:00:00+00:00",
    event_end_time: "2026-12-01T11:00:00+00:00",
    timezone: "UTC",
    city: "Singapore",
    floor: "F2",
    room_name: "Jup",
    min_capacity: 6,
    max_capacity: 20,
    attendee_user_ids: ["ou_2", "ou_me"],
    attendee_chat_ids: ["oc_9"],
    event_rrule: "FREQ=WEEKLY",
  });
  assert.deepEqual(rows, [{
    start_time: "2026-12-01T10:00:00+00:00",
    end_time: "2026-12-01T11:00:00+00:00",
    room_id: "omm_1",
    room_name: "Jupiter",
    capacity: 12,
    reserve_until_time: "x",
  }]);
});

Deno.test("+room-find refuses bad slots, capacities, attendees, rules and names", () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ slot: "2026-12-01 10:00" }, "--slot"],
    [{ slot: "2026-12-01 11:00~2026-12-01 10:00" }, "--slot"],
    [{ slot: SLOTS, "min-capacity": 0 }, "--min-capacity"],
    [{ slot: SLOTS, "max-capacity": -1 }, "--max-capacity"],
    [{ slot: SLOTS, "min-capacity": 10, "max-capacity": 5 }, "--max-capacity"],
    [{ slot: SLOTS, attendees: "omm_1" }, "--attendees"],
    [{ slot: SLOTS, rrule: "FREQ=SOMETIMES" }, "--rrule"],
    [{ slot: SLOTS, city: " " }, "--city"],
    [{ slot: SLOTS, "room-name": "a\u0007" }, "--room-name"],
  ];
  for (const [values, flag] of cases) {
    assert.throws(
      () => roomFind.validate!(inputOf(values as { slot: string })),
      (e: unknown) => e instanceof ValidationError && e.param === flag,
      flag,
    );
  }
});
