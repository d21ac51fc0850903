import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { at, FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { suggestion, SUGGESTION_PATH } from "./suggestion.ts";

const DAY = Date.UTC(2026, 11, 1);

Deno.test("+suggestion asks Lark with the window, people, chats, length, exclusions and rule", async () => {
  const client = new FakeClient(() => ({
    suggestions: [
      {
        event_start_time: "2026-12-01T10:00:00Z",
        event_end_time: "2026-12-01T11:00:00Z",
        recommend_reason: "free",
      },
      { event_start_time: "soon", event_end_time: "2026-12-01T11:00:00Z" },
    ],
    ai_action_guidance: "ask them",
  }));
  const warnings: string[] = [];
  const input = inputOf({
    start: at(DAY),
    end: at(DAY + 8 * 3_600_000, "--end"),
    attendees: "ou_2,oc_9",
    duration: "1h",
    exclude: "2026-12-01 12:00~2026-12-01 13:00",
    rrule: "FREQ=DAILY;COUNT=3",
  }, { warnings });
  suggestion.validate!(input);
  const rows = await suggestion.run!(input, client);
  assert.equal(client.requests[0].path, SUGGESTION_PATH);
  assert.deepEqual(client.requests[0].body, {
    search_start_time: "2026-12-01T00:00:00+00:00",
    search_end_time: "2026-12-01T08:00:00+00:00",
    timezone: "UTC",
    duration_minutes: 60,
    attendee_user_ids: ["ou_2"],
    attendee_chat_ids: ["oc_9"],
    event_rrule: "FREQ=DAILY;COUNT=3",
    excluded_event_times: [{
      event_start_time: "2026-12-01T12:00:00+00:00",
      event_end_time: "2026-12-01T13:00:00+00:00",
    }],
  });
  // A suggestion whose time cannot be read is left out.
  assert.deepEqual(rows, [{
    start_time: "2026-12-01T10:00:00+00:00",
    end_time: "2026-12-01T11:00:00+00:00",
    reason: "free",
  }]);
  assert.deepEqual(warnings, ["Lark suggests: ask them"]);
});

Deno.test("+suggestion refuses a bad length, exclusion, attendee or rule", () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ duration: "25h" }, "--duration"],
    [{ duration: "30" }, "--duration"],
    [{ exclude: "12:00" }, "--exclude"],
    [{ attendees: "omm_1" }, "--attendees"],
    [{ rrule: "COUNT=2" }, "--rrule"],
  ];
  for (const [values, flag] of cases) {
    assert.throws(
      () => suggestion.validate!(inputOf({ start: at(DAY), ...values })),
      (e: unknown) => e instanceof ValidationError && e.param === flag,
      flag,
    );
  }
});
