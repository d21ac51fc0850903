import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { at, FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import {
  busyIntervalsOf,
  freebusy,
  mergeBusy,
  SIGNED_IN_USER,
  USER_INFO_PATH,
} from "./freebusy.ts";

const DAY_MS = 86_400_000;
const START = Date.UTC(2026, 0, 1);

Deno.test("mergeBusy() sorts and merges overlapping and touching intervals", () => {
  assert.deepEqual(
    mergeBusy([
      { start_time: "2026-01-01T10:00:00Z", end_time: "2026-01-01T11:00:00Z" },
      { start_time: "2026-01-01T09:00:00Z", end_time: "2026-01-01T10:00:00Z" },
      { start_time: "2026-01-01T10:30:00Z", end_time: "2026-01-01T10:45:00Z" },
      { start_time: "2026-01-02T09:00:00Z", end_time: "2026-01-02T09:30:00Z" },
    ], "UTC"),
    [
      { start_time: "2026-01-01T09:00:00+00:00", end_time: "2026-01-01T11:00:00+00:00" },
      { start_time: "2026-01-02T09:00:00+00:00", end_time: "2026-01-02T09:30:00+00:00" },
    ],
  );
});

Deno.test("freebusy needs --user-id as a bot", () => {
  assert.throws(
    () =>
      freebusy.validate!(
        inputOf({ start: at(START), end: at(START + DAY_MS), "max-pieces": 128 }, {
          identity: "bot",
        }),
      ),
    (e: unknown) => e instanceof ValidationError && e.param === "--user-id",
  );
});

Deno.test("freebusy defaults to the signed-in user from the config", () => {
  const config = { users: { default: { open_id: "ou_me" } } };
  const requests = freebusy.requests(
    inputOf({ start: at(START), end: at(START + 80 * DAY_MS), "max-pieces": 128 }, { config }),
  );
  assert.equal(requests.length, 2);
  assert.deepEqual(requests[0].body, {
    time_min: "2026-01-01T00:00:00+00:00",
    time_max: "2026-02-10T00:00:00+00:00",
    user_id: "ou_me",
    need_rsvp_status: true,
  });
  const unknown = freebusy.requests(
    inputOf({ start: at(START), end: at(START + DAY_MS), "max-pieces": 128 }),
  );
  assert.equal(unknown[0].path, USER_INFO_PATH);
  assert.equal((unknown[1].body as { user_id: string }).user_id, SIGNED_IN_USER);
});

Deno.test("freebusy asks who is signed in when the config does not say, then merges", async () => {
  const client = new FakeClient((r) => {
    if (r.path === USER_INFO_PATH) return { open_id: "ou_me" };
    const body = r.body as { time_min: string };
    return {
      freebusy_list: [{ start_time: body.time_min, end_time: body.time_min.replace("T00", "T01") }],
    };
  });
  const result = await freebusy.run!(
    inputOf({ start: at(START), end: at(START + 60 * DAY_MS) }),
    client,
  );
  assert.equal(client.requests.length, 3);
  assert.equal((client.requests[1].body as { user_id: string }).user_id, "ou_me");
  assert.deepEqual(result, [
    { start_time: "2026-01-01T00:00:00+00:00", end_time: "2026-01-01T01:00:00+00:00" },
    { start_time: "2026-01-31T00:00:00+00:00", end_time: "2026-01-31T01:00:00+00:00" },
  ]);
});

Deno.test("freebusy asks for each block's RSVP; a merged block shows the firmest answer", () => {
  const [request] = freebusy.requests(
    inputOf({ start: at(START), end: at(START + DAY_MS), "max-pieces": 128, "user-id": "ou_1" }),
  );
  assert.equal((request.body as Record<string, unknown>).need_rsvp_status, true);
  const block = (from: string, to: string, rsvp_status?: string) => ({
    start_time: `2026-01-01T${from}:00Z`,
    end_time: `2026-01-01T${to}:00Z`,
    ...(rsvp_status === undefined ? {} : { rsvp_status }),
  });
  assert.deepEqual(
    mergeBusy(
      busyIntervalsOf([
        block("09:00", "10:00", "needs_action"),
        block("09:30", "11:00", "tentative"),
        block("10:30", "12:00", "accept"),
        block("13:00", "14:00", "tentative"),
        block("13:30", "14:30", "needs_action"),
        // A status Lark does not send is dropped, not shown.
        block("16:00", "17:00", "\u001b[31m"),
      ]),
      "UTC",
    ),
    [
      {
        start_time: "2026-01-01T09:00:00+00:00",
        end_time: "2026-01-01T12:00:00+00:00",
        rsvp_status: "accept",
      },
      {
        start_time: "2026-01-01T13:00:00+00:00",
        end_time: "2026-01-01T14:30:00+00:00",
        rsvp_status: "tentative",
      },
      { start_time: "2026-01-01T16:00:00+00:00", end_time: "2026-01-01T17:00:00+00:00" },
    ],
  );
});
