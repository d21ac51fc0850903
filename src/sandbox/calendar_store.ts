/**
 * Calendars of the sandbox: one primary calendar per seeded user (seeded lazily on first use) and
 * one for the bot, plus the events created and deleted while the server runs.
 *
 * @module
 */

import { type CalendarEvent, createSeedCalendar, type SeedUser } from "./seed_data.ts";
import { type EventInstance, expandEvent } from "./expand_event.ts";

/** The owner key of the bot's calendar. */
export const BOT_OWNER = "bot";

/** A created event with the owner of its calendar, as `GET /sandbox/events` reports it. */
export interface CreatedEvent extends CalendarEvent {
  owner_open_id: string;
  calendar_id: string;
  /** Set once the event was deleted over the API. */
  deleted?: boolean;
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

/** All calendars and their events. */
export class CalendarStore {
  #events = new Map<string, CalendarEvent[]>();
  #created: CreatedEvent[] = [];
  #ids = new Map<string, string>();
  #owners = new Map<string, string>();
  #next = 1;

  constructor(readonly options: CalendarStoreOptions) {
    for (const user of options.users) {
      const id = `feishu.cn_${user.open_id.slice(3, 25)}@group.calendar.feishu.cn`;
      this.#ids.set(user.open_id, id);
      this.#owners.set(id, user.open_id);
    }
    const botId = `feishu.cn_bot_${options.appId}@group.calendar.feishu.cn`;
    this.#ids.set(BOT_OWNER, botId);
    this.#owners.set(botId, BOT_OWNER);
  }

  /** The primary calendar id of an owner (an open_id or `BOT_OWNER`). */
  calendarIdOf(owner: string): string | undefined {
    return this.#ids.get(owner);
  }

  /**
   * The owner of a calendar id; "primary" is the caller's own calendar (the bot's for a tenant
   * token). Undefined for an unknown id.
   */
  ownerOf(calendarId: string, caller: string): string | undefined {
    if (calendarId === "primary") return caller;
    return this.#owners.get(calendarId);
  }

  /** The live events of an owner's calendar (seeded on first use). */
  events(owner: string): CalendarEvent[] {
    let events = this.#events.get(owner);
    if (!events) {
      const index = this.options.users.findIndex((u) => u.open_id === owner);
      events = index < 0 ? [] : createSeedCalendar(
        this.options.seed,
        index,
        this.options.anchorDay,
        this.options.eventsPerDay,
      );
      this.#events.set(owner, events);
    }
    return events;
  }

  /** Instances overlapping `[from, to)`, sorted by start. */
  instances(owner: string, from: number, to: number): EventInstance[] {
    const out: EventInstance[] = [];
    for (const event of this.events(owner)) out.push(...expandEvent(event, from, to));
    const start = (i: EventInstance) =>
      "timestamp" in i.start_time
        ? Number(i.start_time.timestamp)
        : Date.parse(`${i.start_time.date}T00:00:00Z`) / 1000;
    return out.sort((a, b) => start(a) - start(b) || a.event_id.localeCompare(b.event_id));
  }

  /** Adds an event to an owner's calendar. */
  create(owner: string, event: Omit<CalendarEvent, "event_id">): CreatedEvent {
    const serial = String(this.#next++).padStart(12, "0");
    const stored: CalendarEvent = {
      ...event,
      event_id: `${crypto.randomUUID().slice(0, 24)}${serial}_0`,
      create_time: String(Math.floor(Date.now() / 1000)),
    };
    this.events(owner).push(stored);
    const created: CreatedEvent = {
      ...stored,
      owner_open_id: owner,
      calendar_id: this.calendarIdOf(owner)!,
    };
    this.#created.push(created);
    return created;
  }

  /** Finds a live event by id in an owner's calendar. */
  find(owner: string, eventId: string): CalendarEvent | undefined {
    return this.events(owner).find((e) => e.event_id === eventId);
  }

  /** Deletes an event; false when it does not exist. */
  remove(owner: string, eventId: string): boolean {
    const events = this.events(owner);
    const index = events.findIndex((e) => e.event_id === eventId);
    if (index < 0) return false;
    events.splice(index, 1);
    const created = this.#created.find((e) => e.event_id === eventId);
    if (created) created.deleted = true;
    return true;
  }

  /** Records attendees on a created event (for `GET /sandbox/events`). */
  noteAttendees(eventId: string, attendees: Record<string, unknown>[]): void {
    const created = this.#created.find((e) => e.event_id === eventId);
    if (created) created.attendees = [...(created.attendees ?? []), ...attendees];
  }

  /** Events created while the server runs, optionally only those in one owner's calendar. */
  created(owner?: string): CreatedEvent[] {
    return this.#created.filter((e) => owner === undefined || e.owner_open_id === owner);
  }
}
