import assert from "node:assert/strict";
import {
  ApiError,
  AuthError,
  errorFromApiCode,
  ExitCode,
  NetworkError,
  PermissionError,
  ValidationError,
} from "../../errors/mod.ts";
import type { Config } from "../../config/mod.ts";
import { createTestContext } from "../../../tests/support/test_context.ts";
import { at, FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { findTime, type FindTimeResult } from "./find_time.ts";
import { bookingKey, searchOf } from "./find_time_search.ts";

// Monday 2026-11-23 08:00 UTC.
const NOW = Date.UTC(2026, 10, 23, 8);
const values = (extra = {}) => ({
  attendees: "ou_1,ou_2",
  duration: "30m",
  "working-hours": "09:00-18:00",
  limit: 3,
  summary: "Meeting",
  "attendee-ability": "can_see_others",
  "calendar-id": "primary",
  "max-pieces": 128,
  ...extra,
});
const input = (extra = {}, identity: "user" | "bot" = "bot") =>
  inputOf(values(extra), { ctx: createTestContext({ now: NOW }), identity });

Deno.test("find-time asks each profile and free/busy per person, at most 10 at once, and finds common slots", async () => {
  let inFlight = 0;
  let peak = 0;
  const client = new FakeClient(async (r) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 1));
    inFlight--;
    if (r.method === "GET") return { user: { time_zone: "UTC" } };
    const user = (r.body as { user_id: string }).user_id;
    // ou_1 is busy 09:00-10:00 on Monday; everyone else is free.
    return {
      freebusy_list: user === "ou_1"
        ? [{ start_time: "2026-11-23T09:00:00Z", end_time: "2026-11-23T10:00:00Z" }]
        : [],
    };
  });
  const many = Array.from({ length: 25 }, (_, i) => `ou_${i + 1}`).join(",");
  const result = await findTime.run!(input({ attendees: many }), client) as FindTimeResult;
  assert.equal(client.requests.length, 50);
  assert.deepEqual(
    client.requests.filter((r) => r.method === "GET").map((r) => r.path),
    Array.from({ length: 25 }, (_, i) => `/open-apis/contact/v3/users/ou_${i + 1}`),
  );
  assert.ok(peak <= 10 && peak > 1, `peak ${peak}`);
  assert.deepEqual(result.slots.map((s) => s.start_time), [
    "2026-11-23T10:00:00+00:00",
    "2026-11-23T10:30:00+00:00",
    "2026-11-23T11:00:00+00:00",
  ]);
});

Deno.test("find-time warns when there is no slot, and --create then fails, booking nothing", async () => {
  const busy = new FakeClient((r) =>
    r.method === "GET" ? { user: { time_zone: "Europe/London" } } : {
      freebusy_list: [{ start_time: "2026-11-23T00:00:00Z", end_time: "2026-12-01T00:00:00Z" }],
    }
  );
  const warnings: string[] = [];
  const plain = inputOf(values(), {
    ctx: createTestContext({ now: NOW }),
    identity: "bot",
    warnings,
  });
  const result = await findTime.run!(plain, busy) as FindTimeResult;
  assert.deepEqual(result.slots, []);
  assert.match(warnings[0], /^No free 30m slot between 2026-11-23 08:00 and 2026-11-28 00:00: /);
  await assert.rejects(
    findTime.run!(input({ create: true }), busy),
    (e: unknown) => e instanceof Error && "type" in e && e.type === "no_slot",
  );
  assert.equal(warnings.length, 1);
  assert.ok(
    busy.requests.every((r) =>
      r.path.endsWith("/freebusy/list") || r.path.startsWith("/open-apis/contact/v3/users/")
    ),
  );
});

Deno.test("find-time --create books the first slot with the attendees and a stable key", async () => {
  const client = new FakeClient((r) => {
    if (r.path.endsWith("/freebusy/list")) return { freebusy_list: [] };
    if (r.method === "GET") return { user: { time_zone: "Europe/London" } };
    if (r.path.endsWith("/attendees")) {
      return { attendees: [{ user_id: "ou_1" }, { user_id: "ou_2" }] };
    }
    return { event: { event_id: "ev_0", ...(r.body as object) } };
  });
  const result = await findTime.run!(input({ create: true }), client) as FindTimeResult;
  const book = client.requests.find((r) => r.path.endsWith("/events"))!;
  assert.equal(book.query!.idempotency_key, bookingKey(input(), searchOf(input())));
  assert.deepEqual((book.body as Record<string, unknown>).start_time, {
    timestamp: String(Date.UTC(2026, 10, 23, 9) / 1000),
    timezone: "UTC",
  });
  assert.equal(result.booked!.event.event_id, "ev_0");
  assert.equal(result.booked!.attendees.length, 2);
  const shown = findTime.output!(result, input({ create: true })) as Record<string, unknown>;
  assert.equal(shown.event_id, "ev_0");
  assert.deepEqual(shown.attendee_zones, { ou_1: "Europe/London", ou_2: "Europe/London" });
});

/** A client that answers profiles from `zones` (a thrown error as such) and free/busy from `busy`. */
function zonedClient(
  zones: Record<string, unknown>,
  busy: Record<string, { start_time: string; end_time: string }[]> = {},
): FakeClient {
  return new FakeClient((r) => {
    if (r.method === "GET") {
      const id = decodeURIComponent(r.path.split("/").at(-1)!);
      const zone = zones[id];
      if (zone instanceof Error) throw zone;
      return { user: zone === undefined ? { open_id: id } : { open_id: id, time_zone: zone } };
    }
    return { freebusy_list: busy[(r.body as { user_id: string }).user_id] ?? [] };
  });
}

// Monday 2026-11-23 in UTC: London is on GMT (UTC+0), Auckland on NZDT (UTC+13).
const MONDAY = { start: at(Date.UTC(2026, 10, 23)), end: at(Date.UTC(2026, 10, 24), "--end") };
const FAR_APART = {
  attendees: "ou_lon,ou_akl",
  duration: "1h",
  "working-hours": "07:00-21:00",
  ...MONDAY,
};
const LONDON_EVENING = {
  ou_lon: [{ start_time: "2026-11-23T18:00:00Z", end_time: "2026-11-23T21:00:00Z" }],
};

Deno.test("find-time reads each person's hours in their profile's zone: London and Auckland", async () => {
  const client = zonedClient(
    { ou_lon: "Europe/London", ou_akl: "Pacific/Auckland" },
    LONDON_EVENING,
  );
  const warnings: string[] = [];
  const zoned = inputOf(values(FAR_APART), {
    ctx: createTestContext({ now: NOW }),
    identity: "bot",
    warnings,
  });
  const result = await findTime.run!(zoned, client) as FindTimeResult;
  // London works 07-21 UTC; Auckland's Monday ends 08:00 UTC and its Tuesday starts 18:00 UTC,
  // when London is busy: one hour is common.
  assert.deepEqual(result.slots.map((s) => [s.start_time, s.end_time]), [
    ["2026-11-23T07:00:00+00:00", "2026-11-23T08:00:00+00:00"],
  ]);
  const zones = { ou_lon: "Europe/London", ou_akl: "Pacific/Auckland" };
  assert.deepEqual(result.zones, zones);
  assert.deepEqual(result.slots[0].attendee_zones, zones);
  assert.deepEqual(findTime.output!(result, zoned), result.slots);
  assert.deepEqual(warnings, []);
  assert.deepEqual(
    client.requests.filter((r) => r.method === "GET").map((r) => [r.path, r.query]),
    ["ou_lon", "ou_akl"].map((id) => [
      `/open-apis/contact/v3/users/${id}`,
      { user_id_type: "open_id", department_id_type: "open_department_id" },
    ]),
  );

  // --timezone UTC: both read 07-21 UTC; no profile is asked.
  const utc = zonedClient({ ou_lon: "Europe/London", ou_akl: "Pacific/Auckland" }, LONDON_EVENING);
  const one = await findTime.run!(input({ ...FAR_APART, timezone: "UTC" }), utc) as FindTimeResult;
  assert.deepEqual(one.slots.map((s) => s.start_time), [
    "2026-11-23T07:00:00+00:00",
    "2026-11-23T08:00:00+00:00",
    "2026-11-23T09:00:00+00:00",
  ]);
  assert.deepEqual(one.slots[0].attendee_zones, { ou_lon: "UTC", ou_akl: "UTC" });
  assert.ok(utc.requests.every((r) => r.path.endsWith("/freebusy/list")), "no lookups");
  assert.equal(utc.requests.length, 2);
});

Deno.test("find-time says when the zones leave no common working time", async () => {
  const warnings: string[] = [];
  const client = zonedClient({ ou_lon: "Europe/London", ou_akl: "Pacific/Auckland" });
  const result = await findTime.run!(
    inputOf(values({ ...FAR_APART, "working-hours": "09:00-18:00" }), {
      ctx: createTestContext({ now: NOW }),
      identity: "bot",
      warnings,
    }),
    client,
  ) as FindTimeResult;
  assert.deepEqual(result.slots, []);
  assert.equal(warnings.length, 1);
  assert.match(
    warnings[0],
    /inside everyone's working hours on a working day \(each person's hours read in their own zone: Europe\/London, Pacific\/Auckland; --timezone reads them in one\)$/,
  );
});

Deno.test("find-time reads unknown, invalid and huge zones in the viewer's, with one warning", async () => {
  const warnings: string[] = [];
  const people = ["ou_ok", "ou_none", "ou_bad", "ou_huge", "ou_esc", "ou_num", "ou_offset"];
  const client = zonedClient({
    ou_ok: "europe/london",
    ou_bad: "Mars/Base",
    ou_huge: `Europe/${"A".repeat(100_000)}`,
    ou_esc: "\u001b]0;pwned\u0007\u202eEurope/London",
    ou_num: 42,
    ou_offset: "+08:00",
  });
  // Tokyo's 08-20 and London's overlap 08:00-11:00 UTC: slots exist, no other warning.
  const viewer = inputOf(values({ attendees: people.join(","), "working-hours": "08:00-20:00" }), {
    ctx: createTestContext({ now: NOW, timeZone: "Asia/Tokyo" }),
    identity: "bot",
    warnings,
  });
  const result = await findTime.run!(viewer, client) as FindTimeResult;
  assert.deepEqual(result.zones, {
    ou_ok: "Europe/London",
    ou_none: "Asia/Tokyo",
    ou_bad: "Asia/Tokyo",
    ou_huge: "Asia/Tokyo",
    ou_esc: "Asia/Tokyo",
    ou_num: "Asia/Tokyo",
    ou_offset: "Asia/Tokyo",
  });
  assert.ok(result.slots.length > 0);
  assert.equal(warnings.length, 1);
  const [warning] = warnings;
  assert.match(warning, /^Cannot tell the time zone of 6 people: /);
  for (const person of people.slice(1)) assert.ok(warning.includes(person), person);
  assert.ok(!warning.includes("ou_ok"));
  assert.match(warning, /ou_none \(no time zone in the profile\)/);
  assert.match(warning, /ou_bad \(not a time zone: "Mars\/Base"\)/);
  assert.match(warning, /ou_num \(a time zone that is a number\)/);
  assert.match(
    warning,
    /\. Their working hours were read in Asia\/Tokyo; pass --timezone to choose one zone for everyone$/,
  );
  assert.ok(warning.length < 1000, `${warning.length} characters`);
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(warning, /[\u0000-\u001f\u007f\u202e]/);
  assert.ok(warning.includes("\\u202e"), "the bidi control shows escaped");
});

Deno.test("find-time treats a profile it may not read, or of no one, as an unknown zone", async () => {
  const warnings: string[] = [];
  const denied = errorFromApiCode(
    { code: 99991672, msg: "Access denied. One of the following scopes is required: [x:y:z]" },
    { scopes: ["contact:user.base:readonly"], caller: { identity: "bot" } },
  );
  assert.ok(denied instanceof PermissionError);
  const client = zonedClient({
    ou_1: denied,
    ou_2: errorFromApiCode({ code: 41012, msg: "user id invalid error" }),
    ou_3: errorFromApiCode({ code: 41050, msg: "no user authority error" }),
    ou_4: "Europe/Berlin",
  });
  const result = await findTime.run!(
    inputOf(values({ attendees: "ou_1,ou_2,ou_3,ou_4" }), {
      ctx: createTestContext({ now: NOW }),
      identity: "bot",
      warnings,
    }),
    client,
  ) as FindTimeResult;
  assert.deepEqual(result.zones, { ou_1: "UTC", ou_2: "UTC", ou_3: "UTC", ou_4: "Europe/Berlin" });
  assert.ok(result.slots.length > 0);
  assert.equal(warnings.length, 1);
  assert.match(
    warnings[0],
    /ou_1 \(the profile may not be read \(code 99991672; it needs contact:contact\.base:readonly, contact:user\.base:readonly\)\); ou_2 \(no such user \(code 41012\)\); ou_3 \(outside the contacts you may see \(code 41050\)\)/,
  );
});

Deno.test("find-time fails when a profile lookup fails otherwise: 503, token, network", async () => {
  for (
    const failure of [
      new ApiError("The service is unavailable: HTTP 503", {
        httpStatus: 503,
        code: ExitCode.Network,
        type: "server_error",
      }),
      new AuthError("Access token invalid or expired (code 99991668)"),
      new NetworkError("Cannot reach the service: connection reset"),
    ]
  ) {
    const client = zonedClient({ ou_1: "Europe/London", ou_2: failure });
    await assert.rejects(findTime.run!(input(), client), (e: unknown) => e === failure);
  }
});

Deno.test("find-time --dry-run lists the profile lookups, and none with --timezone", () => {
  const asBot = findTime.requests(input());
  assert.deepEqual(asBot.map((r) => `${r.method} ${r.path}`), [
    "GET /open-apis/contact/v3/users/ou_1",
    "GET /open-apis/contact/v3/users/ou_2",
    "POST /open-apis/calendar/v4/freebusy/list",
    "POST /open-apis/calendar/v4/freebusy/list",
  ]);
  // Lark's user get doc: an API permission (contact.base) and the name's field permission.
  const profile = ["contact:contact.base:readonly", "contact:user.base:readonly"];
  assert.deepEqual(asBot[0].scopes, profile);
  const asUser = findTime.requests(input({}, "user"));
  assert.deepEqual(asUser.slice(0, 4).map((r) => `${r.method} ${r.path}`), [
    "GET /open-apis/authen/v1/user_info",
    "GET /open-apis/contact/v3/users/{open_id}",
    "GET /open-apis/contact/v3/users/ou_1",
    "GET /open-apis/contact/v3/users/ou_2",
  ]);
  assert.deepEqual(asUser[1].query, {
    user_id_type: "open_id",
    department_id_type: "open_department_id",
  });
  assert.deepEqual(asUser[1].scopes, profile, "basic_profile does not open a profile");
  const known = findTime.requests(
    inputOf(values(), {
      ctx: createTestContext({ now: NOW }),
      config: { users: { default: { open_id: "ou_me" } } } as Config,
    }),
  );
  assert.equal(known[0].path, "/open-apis/contact/v3/users/ou_me");
  const oneZone = findTime.requests(input({ timezone: "UTC", create: true }, "user"));
  assert.ok(!oneZone.some((r) => r.path.includes("/contact/")));
});

Deno.test("find-time refuses a window that takes more than --max-pieces calls, before any", async () => {
  // Eight years are 128 pieces of 40 days at most, for each person.
  const years = { start: at(Date.UTC(2026, 0, 1)), end: at(Date.UTC(2034, 0, 1), "--end") };
  assert.throws(() => findTime.validate!(input(years)), (e) => {
    assert.ok(e instanceof ValidationError, String(e));
    assert.equal(
      e.message,
      "Too long a span for --start/--end: 2,922 days for each of 2 people take 256 requests " +
        "of at most 40 days, more than --max-pieces (128)",
    );
    return true;
  });
  // As the user, the signed-in person counts too, once known.
  const asked: string[] = [];
  const client = new FakeClient((r) => {
    asked.push(r.path);
    if (r.path === "/open-apis/authen/v1/user_info") return { open_id: "ou_me" };
    throw new Error(`no call expected: ${r.path}`);
  });
  const user = input({ ...years, "max-pieces": 300 }, "user");
  findTime.validate!(user);
  await assert.rejects(
    findTime.run!(user, client),
    /for each of 3 people take 384 requests of at most 40 days, more than --max-pieces \(300\)/,
  );
  assert.deepEqual(asked, ["/open-apis/authen/v1/user_info"]);
});

Deno.test("find-time --exclude keeps those times free for everyone: no slot touches them", async () => {
  const client = new FakeClient(() => ({ freebusy_list: [] }));
  const result = await findTime.run!(
    input({
      timezone: "UTC",
      exclude: "2026-11-23 09:00~2026-11-23 10:15, 2026-11-23 11:00~2026-11-23 11:30",
    }),
    client,
  ) as FindTimeResult;
  assert.deepEqual(result.slots.map((s) => s.start_time), [
    "2026-11-23T10:15:00+00:00",
    "2026-11-23T11:30:00+00:00",
    "2026-11-23T12:00:00+00:00",
  ]);
  assert.throws(
    () => findTime.validate!(input({ exclude: "2026-11-23 10:00" })),
    (e: unknown) => e instanceof ValidationError && e.param === "--exclude",
  );
});

Deno.test("find-time with a chat reads its members' free/busy and invites the chat", async () => {
  const client = new FakeClient((r) => {
    if (r.path === "/open-apis/im/v1/chats/oc_team/members") {
      return r.query?.page_token === undefined
        ? {
          items: [{ member_id: "ou_a" }, { member_id: "ou_1" }],
          has_more: true,
          page_token: "p2",
        }
        : { items: [{ member_id: "ou_b" }, { member_id: "\u001b[31m" }], has_more: false };
    }
    if (r.path.endsWith("/events")) {
      return { event: { event_id: "ev_1", summary: "Meeting", start_time: {}, end_time: {} } };
    }
    if (r.path.endsWith("/attendees")) return { attendees: [] };
    const user = (r.body as { user_id: string }).user_id;
    return {
      freebusy_list: user === "ou_b"
        ? [{ start_time: "2026-11-23T09:00:00Z", end_time: "2026-11-23T10:00:00Z" }]
        : [],
    };
  });
  const result = await findTime.run!(
    input({ attendees: "ou_1,oc_team", timezone: "UTC", create: true }),
    client,
  ) as FindTimeResult;
  const asked = client.requests.filter((r) => r.path.endsWith("freebusy/list")).map((r) =>
    (r.body as { user_id: string }).user_id
  );
  // Each person once; the control-character id from the chat is dropped.
  assert.deepEqual(asked.sort(), ["ou_1", "ou_a", "ou_b"]);
  assert.equal(result.slots[0].start_time, "2026-11-23T10:00:00+00:00");
  const invite = client.requests.find((r) => r.path.endsWith("/attendees"))!;
  assert.deepEqual((invite.body as { attendees: unknown[] }).attendees, [
    { type: "user", user_id: "ou_1" },
    { type: "chat", chat_id: "oc_team" },
  ]);
});

Deno.test("find-time refuses a chat with more members than the search takes", async () => {
  const many = Array.from({ length: 101 }, (_, i) => ({ member_id: `ou_m${i}` }));
  const client = new FakeClient(() => ({ items: many, has_more: false }));
  await assert.rejects(
    () => findTime.run!(input({ attendees: "oc_big", timezone: "UTC" }), client),
    (e: unknown) => e instanceof ValidationError && e.param === "--attendees",
  );
});
