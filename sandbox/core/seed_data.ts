/**
 * Deterministic seed data for the sandbox: users, chats and per-user calendars. The same seed and
 * the same anchor day always give the same data.
 *
 * @module
 */

/** A seeded user, as search, user_info and the contact API report it. */
export interface SeedUser {
  open_id: string;
  union_id: string;
  user_id: string;
  name: string;
  en_name: string;
  email: string;
  department_ids: string[];
  avatar_url: string;
  /** Phone number in E.164 form. */
  mobile: string;
  job_title: string;
  city: string;
  /** ISO 3166 country code. */
  country: string;
  /**
   * The IANA zone the profile gives (contact v3 `time_zone`); absent when the person has set
   * none.
   */
  time_zone?: string;
  employee_no: string;
  /** Unix second the user joined. */
  join_time: number;
  /** 0 undisclosed, 1 male, 2 female, 3 other (Lark's codes). */
  gender: 0 | 1 | 2 | 3;
  /** The open_id of the user's manager; absent for the top of the tree. */
  leader_open_id?: string;
  /** The user has left: still in the directory, no longer reachable by messages. */
  resigned: boolean;
}

/** A seeded group chat. */
export interface SeedChat {
  chat_id: string;
  name: string;
  description: string;
  /** Members' open_ids; the first one owns the chat. */
  member_open_ids: string[];
  /** Whether the app's bot is a member. */
  bot_member: boolean;
  /** "public" chats can be found by search without being a member. */
  chat_type: "private" | "public";
}

/** Index of the seeded chat the first user is not a member of (to exercise Lark's 230002). */
export const CHAT_WITHOUT_FIRST_USER = 8;
/** Index of the seeded chat the bot is not a member of (to exercise Lark's 230002). */
export const CHAT_WITHOUT_BOT = 9;

/**
 * Time of an event: a Unix second, or a whole day for all-day events; `timezone` is the IANA zone
 * the event is shown in (types/index.d.ts, calendar.v4.calendarEvent: `{date?, timestamp?,
 * timezone?}`).
 */
export type EventTime = { timestamp: string; timezone?: string } | {
  date: string;
  timezone?: string;
};

/** An RSVP status (types/index.d.ts, calendar.v4.calendarEventAttendee: `rsvp_status`). */
export type RsvpStatus = "accept" | "decline" | "tentative" | "needs_action" | "removed";

/** The status of an event or instance. */
export type EventStatus = "confirmed" | "tentative" | "cancelled";

/** What one instance of a series changes, keyed in `exceptions` by its original start second. */
export interface InstanceOverride {
  status?: EventStatus;
  summary?: string;
  description?: string;
  start_time?: EventTime;
  end_time?: EventTime;
  location?: EventLocation;
  /** RSVP of attendees for this instance only, by open_id. */
  rsvp?: Record<string, RsvpStatus>;
}

/** An event's place (types/index.d.ts: `location`). */
export interface EventLocation {
  name?: string;
  address?: string;
  latitude?: number;
  longitude?: number;
}

/** One attendee of an event (types/index.d.ts, calendar.v4.calendarEventAttendee). */
export interface Attendee {
  attendee_id: string;
  type: "user" | "chat" | "third_party" | "resource";
  /** The user's open_id (type "user"). */
  open_id?: string;
  chat_id?: string;
  /** The meeting room (type "resource"). */
  room_id?: string;
  third_party_email?: string;
  rsvp_status: RsvpStatus;
  is_optional: boolean;
  display_name: string;
  /** Settings an attendee changed for themselves only (PATCH by a non-organizer). */
  personal?: {
    free_busy_status?: "busy" | "free";
    visibility?: "default" | "public" | "private";
    color?: number;
    reminders?: { minutes?: number }[];
  };
}

/** A stored calendar event (a one-off event, or the master of a recurring series). */
export interface CalendarEvent {
  event_id: string;
  summary: string;
  description: string;
  start_time: EventTime;
  end_time: EventTime;
  status: EventStatus;
  free_busy_status: "busy" | "free";
  /** The RSVP of the owner of the event's calendar (the organizer for created events). */
  self_rsvp_status: Exclude<RsvpStatus, "removed">;
  /** RFC 5545 rule such as "FREQ=WEEKLY;BYDAY=MO;COUNT=60"; absent for one-off events. */
  recurrence?: string;
  /** Instances of a series that differ from the master, keyed by the instance's start second. */
  exceptions?: Record<string, InstanceOverride>;
  attendees?: Attendee[];
  create_time?: string;
  visibility?: "default" | "public" | "private";
  attendee_ability?: "none" | "can_see_others" | "can_invite_others" | "can_modify_event";
  location?: EventLocation;
  vchat?: Record<string, unknown>;
  reminders?: { minutes?: number }[];
  color?: number;
  description_rich?: string;
  source?: string;
  schemas?: { ui_name?: string; ui_status?: string; app_link?: string }[];
  event_check_in?: Record<string, unknown>;
  attachments?: { file_token?: string }[];
}

/** Everything the seed determines up front. */
export interface SeedData {
  users: SeedUser[];
  chats: SeedChat[];
}

const DAY = 86_400;

const FIRST = [
  "Alice",
  "Bruno",
  "Chen",
  "Dana",
  "Elif",
  "Farid",
  "Grace",
  "Hiro",
  "Ines",
  "Jamal",
  "Kavya",
  "Liam",
  "Mei",
  "Nora",
  "Omar",
  "Priya",
  "Quentin",
  "Rosa",
  "Sven",
  "Tara",
  "Umar",
  "Vera",
  "Wei",
  "Ximena",
  "Yusuf",
  "Zoe",
];
const LAST = [
  "Anderson",
  "Bianchi",
  "Costa",
  "Dubois",
  "Eriksen",
  "Fischer",
  "Garcia",
  "Huang",
  "Ito",
  "Jensen",
  "Kim",
  "Larsen",
  "Moreau",
  "Nakamura",
  "Okafor",
  "Patel",
  "Rossi",
  "Silva",
  "Tanaka",
  "Wang",
  "Zhang",
];
const CHAT_NAMES = [
  "Engineering",
  "Product Launch",
  "Design Review",
  "Release Train",
  "Support Escalations",
  "Random",
  "Data Platform",
  "Mobile Team",
  "Security Council",
  "Offsite Planning",
];
const JOB_TITLES = [
  "Software Engineer",
  "Product Manager",
  "Designer",
  "Data Scientist",
  "Engineering Manager",
  "Support Specialist",
  "Security Analyst",
  "Technical Writer",
];
/**
 * Where the users work, by their place in the list, in turn: city, country, the profile's zone.
 * The first two (the signed-in user, and the person tests and the demo meet with) share most of
 * their working hours all year (London and Berlin change clocks on the same days); the third has
 * no zone in the profile; the others span the world, Auckland 13 hours from London.
 */
const PLACES: [string, string, string | undefined][] = [
  ["London", "GB", "Europe/London"],
  ["Berlin", "DE", "Europe/Berlin"],
  ["Lisbon", "PT", undefined],
  ["Shanghai", "CN", "Asia/Shanghai"],
  ["San Francisco", "US", "America/Los_Angeles"],
  ["Auckland", "NZ", "Pacific/Auckland"],
  ["Singapore", "SG", "Asia/Singapore"],
  ["Tokyo", "JP", "Asia/Tokyo"],
];
const PUBLIC_CHATS = new Set(["Random", "Offsite Planning"]);
const MEETINGS = [
  "1:1",
  "Design review",
  "Customer call",
  "Sprint planning",
  "Incident review",
  "Hiring interview",
  "Roadmap sync",
  "Lunch and learn",
  "Budget review",
  "Pairing session",
  "Vendor demo",
  "Architecture forum",
];
const ALL_DAY = ["Conference", "Public holiday", "Offsite", "Out of office", "Hackathon"];

/** mulberry32: a tiny, fast, deterministic PRNG returning numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A stateless 32-bit hash of some integers (murmur3's finaliser over a running mix): the same
 * inputs always give the same unsigned result, so lazily generated data needs no stored state.
 */
export function hash32(...values: number[]): number {
  let h = 0x9e37_79b9;
  for (const value of values) {
    h = Math.imul(h ^ (value >>> 0), 0x85eb_ca6b);
    h = (h ^ (h >>> 13)) >>> 0;
    h = Math.imul(h, 0xc2b2_ae35);
    h = (h ^ (h >>> 16)) >>> 0;
  }
  return h >>> 0;
}

/** `hash32` as a number in [0, 1). */
export function unit(...values: number[]): number {
  return hash32(...values) / 4_294_967_296;
}

/** `length` lowercase hex digits derived from the integers (a stateless `hex`). */
export function hashHex(length: number, ...values: number[]): string {
  let out = "";
  for (let round = 0; out.length < length; round++) {
    out += hash32(...values, round).toString(16).padStart(8, "0");
  }
  return out.slice(0, length);
}

/** Folds a string into a 32-bit integer (FNV-1a), for hashing ids with `hash32`. */
export function hashString(text: string): number {
  let h = 0x811c_9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x0100_0193);
  return h >>> 0;
}

function hex(random: () => number, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += Math.floor(random() * 16).toString(16);
  return out;
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

/** The open_id of the app's bot: `ou_` and 32 hex digits derived from the app id. */
export function botOpenIdOf(appId: string): string {
  let h = 0x811c9dc5;
  for (const c of appId) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return `ou_${hex(mulberry32(h), 32)}`;
}

/** Formats a Unix second as the UTC date "YYYY-MM-DD". */
export function isoDate(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

/**
 * Builds the users and chats for a seed. The first user (who sign-ins default to) and the bot are
 * members of every chat except `CHAT_WITHOUT_FIRST_USER` and `CHAT_WITHOUT_BOT` respectively;
 * every chat has at least three members; the last user has resigned.
 *
 * @param seed any integer; equal seeds give equal data
 * @param userCount how many users (default 50)
 */
export function createSeedData(seed: number, userCount = 50): SeedData {
  const random = mulberry32(seed);
  const users: SeedUser[] = [];
  const taken = new Set<string>();
  // A second stream for the fields added later, so ids and names stay what they always were.
  const profile = mulberry32((seed ^ 0x5eed_f11e) >>> 0);
  while (users.length < userCount) {
    const first = pick(random, FIRST);
    const last = pick(random, LAST);
    const name = `${first} ${last}`;
    if (taken.has(name)) continue;
    taken.add(name);
    const local = `${first}.${last}`.toLowerCase();
    const [city, country, timeZone] = PLACES[users.length % PLACES.length];
    users.push({
      open_id: `ou_${hex(random, 32)}`,
      union_id: `on_${hex(random, 32)}`,
      user_id: hex(random, 8),
      name,
      en_name: name,
      email: `${local}@example.com`,
      department_ids: [`od-${hex(random, 32)}`],
      avatar_url: `https://example.com/avatar/${local}.png`,
      mobile: `+1555${String(Math.floor(profile() * 10_000_000)).padStart(7, "0")}`,
      job_title: pick(profile, JOB_TITLES),
      city,
      country,
      ...(timeZone === undefined ? {} : { time_zone: timeZone }),
      employee_no: `E${String(1000 + users.length)}`,
      join_time: 1_420_070_400 + Math.floor(profile() * 3000) * 86_400,
      gender: pick(profile, [0, 1, 2, 3] as const),
      resigned: false,
    });
  }
  for (let i = 1; i < users.length; i++) users[i].leader_open_id = users[(i - 1) >> 2].open_id;
  if (users.length > 1) users[users.length - 1].resigned = true;
  const chats = CHAT_NAMES.map((name, index): SeedChat => {
    const members = users.filter(() => random() < 0.3).map((u) => u.open_id);
    const chatId = `oc_${hex(random, 32)}`;
    const first = users[0].open_id;
    const hasFirst = members.includes(first);
    if (index === CHAT_WITHOUT_FIRST_USER && hasFirst) members.splice(members.indexOf(first), 1);
    if (index !== CHAT_WITHOUT_FIRST_USER && !hasFirst) members.unshift(first);
    for (let k = 1; members.length < 3 && k < users.length; k++) {
      const extra = users[(index * 7 + k) % users.length].open_id;
      if (!members.includes(extra) && !(index === CHAT_WITHOUT_FIRST_USER && extra === first)) {
        members.push(extra);
      }
    }
    return {
      chat_id: chatId,
      name,
      description: `${name} discussions`,
      member_open_ids: members,
      bot_member: index !== CHAT_WITHOUT_BOT,
      chat_type: PUBLIC_CHATS.has(name) ? "public" : "private",
    };
  });
  return { users, chats };
}

/**
 * Builds one user's seeded calendar: one-off events most weekdays, weekly and daily series, all-day
 * events and some cancelled ones, from 200 days before to 250 days after `anchorDay`.
 *
 * @param seed the sandbox seed
 * @param userIndex the user's position in the seed's user list
 * @param anchorDay Unix second of a UTC midnight (the server's start day)
 * @param eventsPerDay extra one-off events per day, for load tests
 */
export function createSeedCalendar(
  seed: number,
  userIndex: number,
  anchorDay: number,
  eventsPerDay = 0,
): CalendarEvent[] {
  const random = mulberry32((seed * 7919 + userIndex * 104_729 + 17) >>> 0);
  const events: CalendarEvent[] = [];
  const eventId = () =>
    `${hex(random, 8)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 12)}_0`;
  const first = anchorDay - 200 * DAY;
  const lastDay = anchorDay + 250 * DAY;
  const rsvp = (): CalendarEvent["self_rsvp_status"] => {
    const r = random();
    return r < 0.8 ? "accept" : r < 0.9 ? "tentative" : r < 0.95 ? "needs_action" : "decline";
  };

  const series: [string, string, number, number][] = [
    ["Weekly team sync", "FREQ=WEEKLY;BYDAY=MO", 10, 60],
    ["Daily standup", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", 9, 15],
    ["Focus time", "FREQ=DAILY;INTERVAL=2", 14, 120],
  ];
  for (const [summary, rule, hour, minutes] of series) {
    const start = first + hour * 3600 + Math.floor(random() * 4) * 900;
    const exceptions: CalendarEvent["exceptions"] = {};
    for (let k = 0; k < 6; k++) {
      const day = first + Math.floor(random() * 450) * DAY;
      exceptions[String(day + (start - first))] = { status: "cancelled" };
    }
    const until = new Date(lastDay * 1000).toISOString().replace(/[-:]/g, "").slice(0, 15) + "Z";
    events.push({
      event_id: eventId(),
      summary,
      description: `${summary} (recurring)`,
      start_time: { timestamp: String(start), timezone: "UTC" },
      end_time: { timestamp: String(start + minutes * 60), timezone: "UTC" },
      status: "confirmed",
      free_busy_status: summary === "Focus time" ? "free" : "busy",
      self_rsvp_status: "accept",
      recurrence: `${rule};UNTIL=${until}`,
      exceptions,
    });
  }

  for (let day = first; day < lastDay; day += DAY) {
    const weekday = new Date(day * 1000).getUTCDay();
    const workday = weekday !== 0 && weekday !== 6;
    let count = workday ? (random() < 0.75 ? 1 : 0) + (random() < 0.35 ? 1 : 0) : 0;
    count += eventsPerDay;
    for (let i = 0; i < count; i++) {
      const start = day + (8 + Math.floor(random() * 10)) * 3600 + Math.floor(random() * 4) * 900;
      const length = [30, 45, 60, 90][Math.floor(random() * 4)] * 60;
      const r = random();
      events.push({
        event_id: eventId(),
        summary: pick(random, MEETINGS),
        description: "",
        start_time: { timestamp: String(start), timezone: "UTC" },
        end_time: { timestamp: String(start + length), timezone: "UTC" },
        status: r < 0.08 ? "cancelled" : r < 0.15 ? "tentative" : "confirmed",
        free_busy_status: "busy",
        self_rsvp_status: rsvp(),
      });
    }
    if (random() < 0.05) {
      const days = random() < 0.3 ? 2 + Math.floor(random() * 3) : 1;
      events.push({
        event_id: eventId(),
        summary: pick(random, ALL_DAY),
        description: "",
        start_time: { date: isoDate(day), timezone: "UTC" },
        end_time: { date: isoDate(day + days * DAY), timezone: "UTC" },
        status: random() < 0.1 ? "cancelled" : "confirmed",
        free_busy_status: "free",
        self_rsvp_status: "accept",
      });
    }
  }
  return events;
}
