import assert from "node:assert/strict";
import {
  CHAT_WITHOUT_BOT,
  CHAT_WITHOUT_FIRST_USER,
  createSeedCalendar,
  createSeedData,
} from "./seed_data.ts";

const ANCHOR = Date.parse("2026-03-02T00:00:00Z") / 1000;

Deno.test("createSeedData() makes 50 distinct users and 10 chats, the same for the same seed", () => {
  const data = createSeedData(3);
  assert.equal(data.users.length, 50);
  assert.equal(data.chats.length, 10);
  assert.equal(new Set(data.users.map((u) => u.open_id)).size, 50);
  assert.ok(data.users.every((u) => /^ou_[0-9a-f]{32}$/.test(u.open_id)));
  assert.ok(data.users.every((u) => /^on_/.test(u.union_id) && u.email.endsWith("@example.com")));
  assert.ok(data.chats.every((c) => /^oc_[0-9a-f]{32}$/.test(c.chat_id)));
  assert.deepEqual(createSeedData(3), data);
});

Deno.test("createSeedCalendar() spans -200..+250 days and scales with eventsPerDay", () => {
  const base = createSeedCalendar(1, 0, ANCHOR);
  const dense = createSeedCalendar(1, 0, ANCHOR, 50);
  assert.ok(dense.length >= 450 * 50 + base.length / 2);
  const starts = base.map((e) =>
    "timestamp" in e.start_time
      ? Number(e.start_time.timestamp)
      : Date.parse(`${e.start_time.date}T00:00:00Z`) / 1000
  );
  assert.ok(Math.min(...starts) < ANCHOR - 190 * 86_400);
  assert.ok(Math.max(...starts) > ANCHOR + 240 * 86_400);
  assert.deepEqual(createSeedCalendar(1, 0, ANCHOR), base);
  assert.notDeepEqual(createSeedCalendar(1, 1, ANCHOR), base);
});

Deno.test("createSeedData() puts the first user and the bot in every chat but one each", () => {
  const { users, chats } = createSeedData(9);
  const first = users[0].open_id;
  chats.forEach((chat, i) => {
    assert.ok(chat.member_open_ids.length >= 3, `${chat.name} has too few members`);
    assert.equal(new Set(chat.member_open_ids).size, chat.member_open_ids.length);
    assert.equal(chat.member_open_ids.includes(first), i !== CHAT_WITHOUT_FIRST_USER);
    assert.equal(chat.bot_member, i !== CHAT_WITHOUT_BOT);
  });
  assert.deepEqual(chats.filter((c) => c.chat_type === "public").map((c) => c.name), [
    "Random",
    "Offsite Planning",
  ]);
  assert.deepEqual(users.map((u) => u.resigned).lastIndexOf(true), users.length - 1);
  assert.equal(users.filter((u) => u.resigned).length, 1);
  assert.ok(users.slice(1).every((u) => users.some((l) => l.open_id === u.leader_open_id)));
  assert.ok(users.every((u) => /^\+1555\d{7}$/.test(u.mobile) && u.job_title !== ""));
});

Deno.test("createSeedData() gives profiles time zones around the world, and one none", () => {
  const { users } = createSeedData(5);
  const zones = new Set(users.map((u) => u.time_zone));
  for (
    const zone of [
      "Europe/London",
      "Asia/Shanghai",
      "America/Los_Angeles",
      "Pacific/Auckland",
      undefined,
    ]
  ) {
    assert.ok(zones.has(zone), String(zone));
  }
  // The signed-in user and the next person share working hours; the third has no zone.
  assert.deepEqual(users.slice(0, 3).map((u) => u.time_zone), [
    "Europe/London",
    "Europe/Berlin",
    undefined,
  ]);
  assert.equal("time_zone" in users[2], false);
  for (const user of users.filter((u) => u.time_zone !== undefined)) {
    assert.equal(
      Intl.DateTimeFormat("en", { timeZone: user.time_zone }).resolvedOptions().timeZone,
      user.time_zone,
    );
  }
});
