import assert from "node:assert/strict";
import { withSandbox } from "../test_client.ts";

const EVENTS = "/open-apis/calendar/v4/calendars/primary/events";
const EVENT = {
  summary: "Review",
  start_time: { timestamp: "1796000000" },
  end_time: { timestamp: "1796003600" },
};

Deno.test("an event change raises calendar.calendar.event.changed_v4 only while a user is subscribed", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const token = await client.userToken(["calendar:calendar", "offline_access"]);
    const published = async () =>
      (await (await fetch(`${sandbox.baseUrl}/sandbox/event_stream`)).json()).published;
    assert.equal((await client.json("POST", EVENTS, EVENT, token)).body.code, 0);
    assert.equal(await published(), 0, "nobody subscribed");
    const on = await client.json("POST", `${EVENTS}/subscription`, {}, token);
    assert.equal(on.body.code, 0, on.text);
    const created = await client.json("POST", EVENTS, EVENT, token);
    const id = created.body.data.event.event_id;
    await client.json("PATCH", `${EVENTS}/${id}`, { summary: "Retro" }, token);
    await client.send("DELETE", `${EVENTS}/${id}`, { token });
    assert.equal(await published(), 3, "create, update, delete");
    const off = await client.json("POST", `${EVENTS}/unsubscription`, {}, token);
    assert.equal(off.body.code, 0, off.text);
    assert.equal((await client.json("POST", EVENTS, EVENT, token)).body.code, 0);
    assert.equal(await published(), 3, "unsubscribed");
  });
});

Deno.test("subscribing to event changes takes a user token with a calendar read scope", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const bot = await client.tenantToken();
    const asBot = await client.json("POST", `${EVENTS}/subscription`, {}, bot);
    assert.equal(asBot.body.code, 99991668, asBot.text);
    const noScope = await client.userToken(["contact:user.base:readonly"]);
    const refused = await client.json("POST", `${EVENTS}/subscription`, {}, noScope);
    assert.equal(refused.body.code, 99991679, refused.text);
  });
});
