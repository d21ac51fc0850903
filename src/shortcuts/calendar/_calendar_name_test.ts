import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { FakeClient } from "../../../tests/support/fake_client.ts";
import { isCalendarName, resolveCalendarId } from "./_calendar_name.ts";

const ID = (n: string) => `feishu.cn_${n}@group.calendar.feishu.cn`;

/** A calendar list of two pages. */
function calendarService() {
  return new FakeClient((r) => {
    const second = r.query?.page_token === "p2";
    return second
      ? {
        calendar_list: [{ calendar_id: ID("team2"), summary: "Team" }],
        has_more: false,
      }
      : {
        calendar_list: [
          { calendar_id: ID("me"), summary: "Ann", type: "primary" },
          { calendar_id: ID("team"), summary: "Team" },
          { calendar_id: ID("ops"), summary: " Ops Rota " },
        ],
        has_more: true,
        page_token: "p2",
      };
  });
}

Deno.test("isCalendarName() takes primary and ids with @ as ids, anything else as a title", () => {
  assert.equal(isCalendarName("primary"), false);
  assert.equal(isCalendarName(ID("x")), false);
  assert.equal(isCalendarName("Ops rota"), true);
});

Deno.test("resolveCalendarId() finds a title across pages, case and spaces aside, and sends nothing for an id", async () => {
  const client = calendarService();
  assert.equal(await resolveCalendarId(client, "ops rota"), ID("ops"));
  assert.deepEqual(client.requests.map((r) => r.query?.page_token), [undefined, "p2"]);
  assert.equal(client.requests[0].path, "/open-apis/calendar/v4/calendars");
  const idOnly = calendarService();
  assert.equal(await resolveCalendarId(idOnly, ID("ops")), ID("ops"));
  assert.equal(idOnly.requests.length, 0);
});

Deno.test("resolveCalendarId() refuses an ambiguous or unknown title, listing the candidates", async () => {
  await assert.rejects(
    resolveCalendarId(calendarService(), "Team"),
    (e: unknown) =>
      e instanceof ValidationError && e.param === "--calendar-id" &&
      e.message.includes("is ambiguous") && e.message.includes(ID("team")) &&
      e.message.includes(ID("team2")),
  );
  await assert.rejects(
    resolveCalendarId(calendarService(), "Holidays"),
    (e: unknown) =>
      e instanceof ValidationError && e.param === "--calendar-id" &&
      /No calendar is named "Holidays" \(--calendar-id\); yours: "Ann"/.test(e.message),
  );
});
