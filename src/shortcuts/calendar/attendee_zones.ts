/**
 * Each person's time zone for `calendar +find-time`: Lark's free/busy does not say where a person
 * lives, so hark reads `time_zone` from each person's contact profile (`contact +get-user`'s
 * request). The lookup is best effort: a profile without a zone, with a value that is not an IANA
 * zone, one hark may not read (a permission error, a person outside the contacts it may see) or
 * of no such user leaves that person in the viewer's zone, and one warning names them; any other
 * failure (the network, a 5xx after retries, a rejected token) is thrown like any call's.
 *
 * @module
 */

import { ApiError, PermissionError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { objectField } from "../../json/fields.ts";
import { terminalSafe } from "../../output/mod.ts";
import { checkTimeZone } from "../../time/mod.ts";
import type { ApiCaller, ShortcutInput } from "../definition.ts";
import { userRequest } from "../contact/get_user.ts";
import { quoted } from "../contact/ids.ts";
import type { NoSlotReason } from "./find_slots.ts";
import { SIGNED_IN_USER } from "./freebusy.ts";

/** The longest zone name taken from a profile: the tz database's names are under 40 characters. */
const MAX_ZONE_LENGTH = 64;
/** Lark's contact codes for a person hark cannot read: no such user, outside the visible range. */
const NO_SUCH_USER = 41012;
const NOT_VISIBLE = 41050;
/** The most people one warning names per reason. */
const NAMED_MAX = 5;

/**
 * The profile lookup of one person: `contact +get-user`'s request (its `user_id_type` told by
 * the id). In a preview, the signed-in user whose open id is not known yet is `{open_id}`.
 *
 * @param person an open id, or the preview's placeholder of the signed-in user
 */
export function profileRequest(person: string): ApiRequest {
  return userRequest(person === SIGNED_IN_USER ? "{open_id}" : person);
}

/** What a profile said of a person's zone: the zone, or why it is unknown. */
export type ZoneFinding = { zone: string } | { unknown: string };

/**
 * Reads a profile's `time_zone`: a zone only when it is an IANA name of sane length; anything
 * else is unknown, the value (server text) quoted, cut and made safe for a terminal.
 *
 * @param value `data.user.time_zone` as the service gave it
 */
export function zoneFinding(value: unknown): ZoneFinding {
  if (value === undefined || value === null || value === "") {
    return { unknown: "no time zone in the profile" };
  }
  if (typeof value !== "string") return { unknown: `a time zone that is a ${typeof value}` };
  if (value.length <= MAX_ZONE_LENGTH) {
    try {
      return { zone: checkTimeZone(value, { param: "time_zone" }) };
    } catch {
      // Not a zone: said below.
    }
  }
  return { unknown: `not a time zone: ${terminalSafe(quoted(value), { breaks: "space" })}` };
}

/**
 * Looks up one person's zone. A profile hark may not read, or of no such user, leaves the zone
 * unknown; any other failure is thrown.
 *
 * @param client the API client
 * @param request the profile's request
 * @throws the call's error, unless it says the profile may not be read or does not exist
 */
export async function lookUpZone(client: ApiCaller, request: ApiRequest): Promise<ZoneFinding> {
  try {
    const data = await client.request(request);
    return zoneFinding(objectField(data, "user")?.time_zone);
  } catch (error) {
    if (error instanceof PermissionError) {
      const code = error.apiCode === undefined ? "" : `code ${error.apiCode}; `;
      return {
        unknown: `the profile may not be read (${code}it needs ${
          (request.scopes ?? []).join(", ")
        })`,
      };
    }
    if (error instanceof ApiError && error.apiCode === NO_SUCH_USER) {
      return { unknown: `no such user (code ${NO_SUCH_USER})` };
    }
    if (error instanceof ApiError && error.apiCode === NOT_VISIBLE) {
      return { unknown: `outside the contacts you may see (code ${NOT_VISIBLE})` };
    }
    throw error;
  }
}

/**
 * The one warning for the people whose zone is unknown, grouped by why.
 *
 * @param unknown each person's reason, in order
 * @param timeZone the zone their hours were read in
 */
export function unknownZonesWarning(unknown: [string, string][], timeZone: string): string {
  const byReason = new Map<string, string[]>();
  for (const [person, why] of unknown) byReason.set(why, [...byReason.get(why) ?? [], person]);
  const groups = [...byReason].map(([why, people]) => {
    const named = people.slice(0, NAMED_MAX).join(", ");
    const more = people.length > NAMED_MAX ? ` and ${people.length - NAMED_MAX} more` : "";
    return `${named}${more} (${why})`;
  });
  const count = unknown.length === 1 ? "1 person" : `${unknown.length} people`;
  return `Cannot tell the time zone of ${count}: ${groups.join("; ")}. Their working hours ` +
    `were read in ${timeZone}; pass --timezone to choose one zone for everyone`;
}

/**
 * Each person's zone: their profile's when it was found, else the viewer's, with one warning
 * naming the people whose zone is unknown. Without lookups (`--timezone`), everyone's is the
 * viewer's.
 *
 * @param input the shortcut input (the viewer's zone, the warning)
 * @param people everyone searched for, in order
 * @param found what each profile looked up said
 * @returns the IANA zone of each person, by open id
 */
export function zonesOf(
  input: ShortcutInput<unknown>,
  people: readonly string[],
  found: ReadonlyMap<string, ZoneFinding>,
): Record<string, string> {
  const unknown: [string, string][] = [];
  const zones: Record<string, string> = {};
  for (const person of people) {
    const finding = found.get(person);
    if (finding !== undefined && "unknown" in finding) unknown.push([person, finding.unknown]);
    zones[person] = finding !== undefined && "zone" in finding ? finding.zone : input.timeZone;
  }
  if (unknown.length > 0) input.warn(unknownZonesWarning(unknown, input.timeZone));
  return zones;
}

/**
 * When zones kept people's hours apart, the zones, for the no-slot message.
 *
 * @param reason why no slot was found
 * @param zones each person's zone
 */
export function zonesNote(reason: NoSlotReason, zones: Record<string, string>): string {
  const distinct = [...new Set(Object.values(zones))];
  if (reason !== "no_common_working_time" || distinct.length < 2) return "";
  return ` (each person's hours read in their own zone: ${distinct.join(", ")}; --timezone ` +
    "reads them in one)";
}
