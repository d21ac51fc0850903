import assert from "node:assert/strict";
import { eventJson, statusCell } from "./_event_json.ts";
import { agenda } from "./agenda.ts";
import { inputOf } from "../../../tests/support/fake_client.ts";

const EVENT = {
  event_id: "e1",
  summary: "Review",
  start_time: { timestamp: "1795435200", timezone: "Europe/Berlin" },
  end_time: { timestamp: "1795438800", timezone: "Europe/Berlin" },
  create_time: "1795000000",
};

function shown(event: Record<string, unknown>) {
  const warnings: string[] = [];
  const json = eventJson({ ...EVENT, ...event }, "UTC", (w) => warnings.push(w));
  return { json, warnings };
}

Deno.test("eventJson() leaves out a time that is not one, with a warning, never passing it on", () => {
  for (const bad of ["abc", "1e308", "99999999999999", "-99999999999999", "1795435200.5", ""]) {
    const { json, warnings } = shown({ start_time: { timestamp: bad } });
    assert.equal("start_time" in json, false, bad);
    assert.equal(json.end_time, "2026-11-23T13:00:00+00:00", `${bad}: the end is still shown`);
    assert.deepEqual(warnings, [
      `The service sent a start_time that is not a time (${
        JSON.stringify({ timestamp: bad })
      }): hark left it out`,
    ]);
    const created = shown({ create_time: bad });
    assert.equal("create_time" in created.json, false, bad);
    assert.deepEqual(created.warnings, [
      `The service sent a create_time that is not a time (${
        JSON.stringify(bad)
      }): hark left it out`,
    ]);
  }
  const date = shown({ start_time: { date: "2026-13-45" }, end_time: { date: "2026-12-03" } });
  assert.equal("start_time" in date.json, false);
  assert.equal(date.json.end_time, "2026-12-02", "the end's real last day");
});

Deno.test("eventJson() shows readable times as before and warns of nothing", () => {
  const { json, warnings } = shown({});
  assert.deepEqual(json, {
    event_id: "e1",
    summary: "Review",
    start_time: "2026-11-23T12:00:00+00:00",
    end_time: "2026-11-23T13:00:00+00:00",
    all_day: false,
    event_timezone: "Europe/Berlin",
    create_time: "2026-11-18T11:06:40+00:00",
  });
  assert.deepEqual(warnings, []);
  // An event without times has none to warn of.
  assert.deepEqual(shown({ start_time: undefined, end_time: undefined }).warnings, []);
});

Deno.test("+agenda's STATUS shows a confirmed event the user declined as declined", () => {
  const columns = agenda.columns;
  assert.ok(typeof columns === "function");
  const status = columns(inputOf({})).find((c) => c.header === "STATUS");
  assert.ok(status && typeof status.value === "function");
  const cellOf = status.value;
  const row = (extra: Record<string, unknown>) => ({ ...shown({}).json, ...extra });
  assert.equal(cellOf(row({ status: "confirmed", self_rsvp_status: "decline" })), "declined");
  assert.equal(cellOf(row({ status: "confirmed", self_rsvp_status: "accept" })), "confirmed");
  assert.equal(cellOf(row({ status: "cancelled", self_rsvp_status: "decline" })), "cancelled");
  assert.equal(statusCell({ status: "tentative", self_rsvp_status: "decline" }), "tentative");
});
