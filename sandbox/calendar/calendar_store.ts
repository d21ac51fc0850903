/**
 * Calendars of the sandbox: each seeded user's primary calendar (seeded lazily on first use), a
 * shared team calendar for every tenth user, the bot's primary calendar, and the events, attendees
 * and RSVPs created over the API.
 *
 * An event lives in one calendar (its organizer's); it also shows in the primary calendar of each
 * user who is an attendee, with that user's own RSVP, so an attendee's reply changes what the
 * event, its attendee list, the attendee's instance view and free/busy show.
 *
 * @module
 */

import {
  type Attendee,
  type CalendarEvent,
  createSeedCalendar,
  type RsvpStatus,
  type SeedUser,
} from "../core/seed_data.ts";
import {
  type Occurrence,
  occurrencesOf,
  seriesOccurrence,
  seriesStarts,
  timeToSeconds,
} from "./expand_event.ts";

/** The owner key of the bot's calendar. */
export const BOT_OWNER = "bot";

/**
 * What an identity may do with a calendar (types/index.d.ts, calendar.v4.calendar: `role`), from
 * least to most.
 */
export const ROLES = ["free_busy_reader", "reader", "writer", "owner"] as const;

/** A role on a calendar. */
export type Role = (typeof ROLES)[number];

/** A calendar (types/index.d.ts, calendar.v4.calendar.get). */
export interface Calendar {
  calendar_id: string;
  type: "primary" | "shared";
  /** An open_id or `BOT_OWNER`. */
  owner: string;
  summary: string;
  description: string;
  permissions: "private" | "show_only_free_busy" | "public";
  color: number;
  /** Members with their role; the owner is "owner". */
  acl: Map<string, Role>;
}

/** A stored event with the calendar it lives in and who organizes it. */
export interface StoredEvent extends CalendarEvent {
  /** The calendar the event lives in (`organizer_calendar_id`). */
  calendar_id: string;
  /** The organizer: an open_id or `BOT_OWNER`. */
  organizer: string;
  /** Set once deleted over the API. */
  deleted?: boolean;
}

/** A created event as `GET /sandbox/events` reports it. */
export interface CreatedEvent extends StoredEvent {
  owner_open_id: string;
}

/** Where calendars come from. */
export interface CalendarStoreOptions {
  seed: number;
  /** Unix second of the UTC midnight the seeded events are anchored to. */
  anchorDay: number;
  users: SeedUser[];
  eventsPerDay: number;
  appId: string;
}

/** Shared team calendars: one for every tenth seeded user. */
const SHARED_EVERY = 10;

/** The default colour of a calendar (MCP server `calendar_v4` schema of `color`). */
const DEFAULT_COLOR = -14513409;

function hexOf(text: string, length: number): string {
  let h = 0x811c9dc5;
  let out = "";
  while (out.length < length) {
    for (const c of text + out.length) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, "0");
  }
  return out.slice(0, length);
}

/** A 19-digit random number, the shape of Lark's attendee ids (`user_6920431452843818496`). */
function attendeeNumber(): string {
  const digits = crypto.getRandomValues(new Uint8Array(19)).map((b) => b % 10);
  return `6${[...digits.slice(1)].join("")}`;
}

/** All calendars and their events. */
export class CalendarStore {
  #calendars = new Map<string, Calendar>();
  #primary = new Map<string, string>();
  #events = new Map<string, Map<string, StoredEvent>>();
  #invitedTo = new Map<string, Set<StoredEvent>>();
  #created: StoredEvent[] = [];
  #idempotency = new Map<string, StoredEvent>();
  #userIndex = new Map<string, number>();

  constructor(readonly options: CalendarStoreOptions) {
    options.users.forEach((user, index) => {
      this.#userIndex.set(user.open_id, index);
      this.#add({
        calendar_id: `feishu.cn_${user.open_id.slice(3, 25)}@group.calendar.feishu.cn`,
        type: "primary",
        owner: user.open_id,
        summary: user.name,
        description: "",
        permissions: "show_only_free_busy",
        color: DEFAULT_COLOR,
        acl: new Map([[user.open_id, "owner"]]),
      });
    });
    options.users.forEach((user, index) => {
      if (index % SHARED_EVERY !== 0) return;
      const members = options.users.slice(index + 1, index + 3);
      this.#add({
        calendar_id: `feishu.cn_${hexOf(`shared ${user.open_id}`, 22)}@group.calendar.feishu.cn`,
        type: "shared",
        owner: user.open_id,
        summary: `${user.name.split(" ")[0]}'s team`,
        description: `Team calendar of ${user.name}`,
        permissions: "private",
        color: DEFAULT_COLOR,
        acl: new Map<string, Role>([
          [user.open_id, "owner"],
          ...(members[0] ? [[members[0].open_id, "writer"] as [string, Role]] : []),
          ...(members[1] ? [[members[1].open_id, "reader"] as [string, Role]] : []),
        ]),
      });
    });
    this.#add({
      calendar_id: `feishu.cn_bot_${options.appId}@group.calendar.feishu.cn`,
      type: "primary",
      owner: BOT_OWNER,
      summary: options.appId,
      description: "",
      permissions: "show_only_free_busy",
      color: DEFAULT_COLOR,
      acl: new Map([[BOT_OWNER, "owner"]]),
    });
  }

  #add(calendar: Calendar): void {
    this.#calendars.set(calendar.calendar_id, calendar);
    if (calendar.type === "primary") this.#primary.set(calendar.owner, calendar.calendar_id);
  }

  /** Every calendar, primary and shared. */
  allCalendars(): Calendar[] {
    return [...this.#calendars.values()];
  }

  /** The primary calendar of an owner (an open_id or `BOT_OWNER`). */
  primaryOf(owner: string): Calendar | undefined {
    const id = this.#primary.get(owner);
    return id === undefined ? undefined : this.#calendars.get(id);
  }

  /** The primary calendar id of an owner. */
  calendarIdOf(owner: string): string | undefined {
    return this.#primary.get(owner);
  }

  /** A calendar by id; "primary" is the caller's own primary calendar. */
  resolve(calendarId: string, caller: string): Calendar | undefined {
    if (calendarId === "primary") return this.primaryOf(caller);
    return this.#calendars.get(calendarId);
  }

  /**
   * The role of `caller` on `calendar`: its ACL entry, else what the calendar's `permissions`
   * give everyone (public: reader; show_only_free_busy: free_busy_reader; private: none).
   */
  roleOf(calendar: Calendar, caller: string): Role | undefined {
    const member = calendar.acl.get(caller);
    if (member) return member;
    if (calendar.permissions === "public") return "reader";
    if (calendar.permissions === "show_only_free_busy") return "free_busy_reader";
    return undefined;
  }

  /** The calendars `caller` has on its list: its primary first, then shared ones by id. */
  listOf(caller: string): Calendar[] {
    const primary = this.primaryOf(caller);
    const shared = [...this.#calendars.values()]
      .filter((c) => c.type === "shared" && c.acl.has(caller))
      .sort((a, b) => a.calendar_id.localeCompare(b.calendar_id));
    return [...(primary ? [primary] : []), ...shared];
  }

  /** The events living in a calendar, by id (a user's primary is seeded on first use). */
  #home(calendar: Calendar): Map<string, StoredEvent> {
    let events = this.#events.get(calendar.calendar_id);
    if (!events) {
      events = new Map();
      const index = this.#userIndex.get(calendar.owner);
      if (calendar.type === "primary" && index !== undefined) {
        const { seed, anchorDay, eventsPerDay } = this.options;
        const owner = this.options.users[index];
        for (const e of createSeedCalendar(seed, index, anchorDay, eventsPerDay)) {
          // An answer still open (or one given) is an invitation's: the owner is an attendee,
          // so the RSVP it shows can be changed (Lark refuses a reply from a non-attendee).
          const attendees: Attendee[] | undefined = e.self_rsvp_status === "accept" ? undefined : [{
            attendee_id: `user_${attendeeNumber()}`,
            type: "user",
            open_id: owner.open_id,
            rsvp_status: e.self_rsvp_status,
            is_optional: false,
            display_name: owner.name,
          }];
          events.set(e.event_id, {
            ...e,
            ...(attendees ? { attendees } : {}),
            calendar_id: calendar.calendar_id,
            organizer: calendar.owner,
          });
        }
      }
      this.#events.set(calendar.calendar_id, events);
    }
    return events;
  }

  /**
   * The live events shown in a calendar: those living in it and, for a user's primary calendar,
   * those the user is invited to and was not removed from.
   */
  eventsIn(calendar: Calendar): StoredEvent[] {
    const home = [...this.#home(calendar).values()].filter((e) => !e.deleted);
    if (calendar.type !== "primary") return home;
    const invited = [...(this.#invitedTo.get(calendar.owner) ?? [])].filter((e) =>
      !e.deleted && e.calendar_id !== calendar.calendar_id &&
      this.attendeeOf(e, calendar.owner)?.rsvp_status !== "removed"
    );
    return [...home, ...invited];
  }

  /** The occurrences shown in a calendar that overlap `[from, to)`, sorted by start then id. */
  occurrences(calendar: Calendar, from: number, to: number): Occurrence<StoredEvent>[] {
    const out: Occurrence<StoredEvent>[] = [];
    for (const event of this.eventsIn(calendar)) out.push(...occurrencesOf(event, from, to));
    return out.sort((a, b) =>
      timeToSeconds(a.start_time) - timeToSeconds(b.start_time) || a.id.localeCompare(b.id)
    );
  }

  /**
   * Finds an event shown in a calendar by a client's id: a one-off event, a series (its `_0` id)
   * or one instance of a series (`<uid>_<original start second>`).
   *
   * @returns the stored event and, for an instance id, the occurrence
   */
  find(
    calendar: Calendar,
    id: string,
  ): { event: StoredEvent; occurrence?: Occurrence<StoredEvent> } | undefined {
    const shown = this.eventsIn(calendar);
    const exact = shown.find((e) => e.event_id === id);
    if (exact) return { event: exact };
    const m = /^(.+)_(\d+)$/.exec(id);
    if (!m || m[2] === "0") return undefined;
    const series = shown.find((e) => e.recurrence && e.event_id === `${m[1]}_0`);
    if (!series) return undefined;
    const start = Number(m[2]);
    if (!seriesStarts(series, start + 1).includes(start)) return undefined;
    return { event: series, occurrence: seriesOccurrence(series, start) };
  }

  /**
   * Whether a client's id names an event of this calendar that was deleted over the API (a
   * one-off event or series, or any instance of a deleted series): Lark then answers 193003
   * "event is deleted", not 193001.
   */
  wasDeleted(calendar: Calendar, id: string): boolean {
    const seriesId = /^(.+)_(\d+)$/.exec(id);
    const ids = new Set([id, ...(seriesId ? [`${seriesId[1]}_0`] : [])]);
    const all = [
      ...this.#home(calendar).values(),
      ...(calendar.type === "primary" ? this.#invitedTo.get(calendar.owner) ?? [] : []),
    ];
    return all.some((e) => e.deleted === true && ids.has(e.event_id));
  }

  /** The attendee record of a user (by open_id) on an event. */
  attendeeOf(event: CalendarEvent, openId: string): Attendee | undefined {
    return event.attendees?.find((a) => a.type === "user" && a.open_id === openId);
  }

  /**
   * The RSVP of `viewer` for an event or one of its instances: an attendee's own answer (an
   * instance's answer first), the stored one for the calendar owner of a seeded or organized
   * event, else "needs_action".
   */
  rsvpOf(event: StoredEvent, viewer: string, occurrence?: Occurrence): RsvpStatus {
    const attendee = this.attendeeOf(event, viewer);
    if (attendee) return occurrence?.override?.rsvp?.[viewer] ?? attendee.rsvp_status;
    if (event.organizer === viewer) return event.self_rsvp_status;
    return "needs_action";
  }

  /**
   * Creates an event in a calendar; with an idempotency key (unique per calendar, MCP server
   * `calendar_v4` schema: "该 key 在应用和日历维度下唯一") a repeated request gets the first event,
   * even once it was deleted (the route then answers that it is deleted): a key creates at most
   * one event.
   */
  create(
    calendar: Calendar,
    organizer: string,
    fields: Omit<CalendarEvent, "event_id" | "create_time">,
    now: number,
    idempotencyKey?: string,
  ): StoredEvent {
    const key = idempotencyKey === undefined
      ? undefined
      : `${calendar.calendar_id}|${idempotencyKey}`;
    const earlier = key === undefined ? undefined : this.#idempotency.get(key);
    if (earlier) return earlier;
    const event: StoredEvent = {
      ...fields,
      event_id: `${crypto.randomUUID()}_0`,
      create_time: String(Math.floor(now / 1000)),
      calendar_id: calendar.calendar_id,
      organizer,
    };
    this.#home(calendar).set(event.event_id, event);
    this.#created.push(event);
    if (key !== undefined) this.#idempotency.set(key, event);
    return event;
  }

  /** Marks an event deleted everywhere. */
  remove(event: StoredEvent): void {
    event.deleted = true;
  }

  /**
   * Adds attendees to an event; a user already invited keeps their record (a removed one is
   * invited again with "needs_action").
   *
   * @returns the attendee records, in the order given
   */
  addAttendees(event: StoredEvent, added: Omit<Attendee, "attendee_id">[]): Attendee[] {
    event.attendees ??= [];
    return added.map((fresh) => {
      const same = event.attendees!.find((a) =>
        a.type === fresh.type && a.open_id === fresh.open_id && a.chat_id === fresh.chat_id &&
        a.third_party_email === fresh.third_party_email
      );
      if (same) {
        if (same.rsvp_status === "removed") same.rsvp_status = fresh.rsvp_status;
        return same;
      }
      const attendee: Attendee = { attendee_id: `${fresh.type}_${attendeeNumber()}`, ...fresh };
      event.attendees!.push(attendee);
      if (attendee.open_id !== undefined) {
        const set = this.#invitedTo.get(attendee.open_id) ?? new Set();
        set.add(event);
        this.#invitedTo.set(attendee.open_id, set);
      }
      return attendee;
    });
  }

  /** Events created while the server runs, optionally only those organized by one owner. */
  created(owner?: string): CreatedEvent[] {
    return this.#created
      .filter((e) => owner === undefined || e.organizer === owner)
      .map((e) => ({ ...e, owner_open_id: e.organizer }));
  }
}
