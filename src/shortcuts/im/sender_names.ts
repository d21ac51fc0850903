/**
 * Sender names for message listings. Lark fills `sender.sender_name` itself when asked
 * (`with_sender_name=true`); for a sender it leaves unnamed, hark uses the names the page's
 * mentions carry, then asks the contact API for the rest in batches: as the user
 * `POST /open-apis/contact/v3/users/basic_batch` (names only, 10 ids a call, for
 * `contact:user.basic_profile:readonly`), as the bot `GET /open-apis/contact/v3/users/batch`
 * (50 ids a call, for the profile scopes), the calls at most ten at a time. Every answer is
 * remembered for the rest of the listing, so a 50,000-message chat costs one lookup per ten or
 * fifty people, not one per message (`contact/profile_scopes.ts` has the facts).
 *
 * @module
 */

import { HarkError, PermissionError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { objectsField, stringField } from "../../json/fields.ts";
import type { ApiCaller, ShortcutInput } from "../definition.ts";
import { MAX_WORKERS, runPool } from "../run_pool.ts";
import { NAME_LOOKUP_SCOPES } from "../contact/profile_scopes.ts";

/** The most ids one `basic_batch` call takes (lark-cli `batchResolveByBasicContact`). */
export const BASIC_BATCH_MAX = 10;
/** The most ids one `users/batch` call takes (lark-mcp `contact.v3.user.batch`). */
export const USER_BATCH_MAX = 50;

/** The sender of a message, as the read endpoints give it. */
export interface Sender {
  /** An open id for a user, an app id for a bot. */
  id: string;
  /** `open_id` or `app_id`. */
  id_type?: string;
  /** `user` or `app`. */
  sender_type?: string;
  /** The name, with `with_sender_name=true`. */
  sender_name?: string;
  [key: string]: unknown;
}

/** What name resolution reads of a message. */
export interface NamedMessage {
  /** The sender. */
  sender?: Sender;
  /** Mentions carry names of the people they name. */
  mentions?: { id: string; name: string }[];
}

/**
 * The request that names several people by open id: `basic_batch` as the user, `users/batch` as
 * the bot.
 *
 * @param openIds at most {@link BASIC_BATCH_MAX} (user) or {@link USER_BATCH_MAX} (bot) people
 * @param input the shortcut input (the identity decides the endpoint)
 */
export function namesRequest(
  openIds: readonly string[],
  input: ShortcutInput<unknown>,
): ApiRequest {
  const scopes = [...NAME_LOOKUP_SCOPES[input.identity]];
  return input.identity === "user"
    ? {
      method: "POST",
      path: "/open-apis/contact/v3/users/basic_batch",
      query: { user_id_type: "open_id" },
      body: { user_ids: [...openIds] },
      // It only reads: a retry after a lost answer does no harm.
      repeatable: true,
      scopes,
    }
    : {
      method: "GET",
      path: "/open-apis/contact/v3/users/batch",
      query: { user_id_type: "open_id", user_ids: [...openIds] },
      scopes,
    };
}

/**
 * The names an answer of {@link namesRequest} gives, by open id: `users[].user_id` (the id in
 * `user_id_type`) of `basic_batch`, `items[].open_id` of `users/batch`.
 *
 * @param data the answer's `data`
 * @param input the shortcut input (the identity decides the shape)
 */
export function namesOf(data: unknown, input: ShortcutInput<unknown>): Map<string, string> {
  const names = new Map<string, string>();
  const [list, idKey] = input.identity === "user" ? ["users", "user_id"] : ["items", "open_id"];
  for (const person of objectsField(data, list)) {
    const id = stringField(person, idKey);
    const name = stringField(person, "name");
    if (id && name) names.set(id, name);
  }
  return names;
}

/** Fills in sender names, remembering every name for the rest of a listing. */
export class SenderNames {
  readonly #client: ApiCaller;
  readonly #input: ShortcutInput<unknown>;
  /** Names by open id; "" for a person the service would not name. */
  readonly #known = new Map<string, string>();
  #lookups = true;

  /**
   * @param client calls the contact API
   * @param input the shortcut input (identity, warnings)
   */
  constructor(client: ApiCaller, input: ShortcutInput<unknown>) {
    this.#client = client;
    this.#input = input;
  }

  /**
   * Gives every user sender of `messages` its `sender_name`: the service's, else one already
   * known, else one a mention carries, else one looked up. A lookup the token may not make
   * stops the lookups for the rest of the listing, with one warning; a person the service does
   * not know stays unnamed.
   *
   * @param messages a page of messages; changed in place
   * @returns the same messages
   * @throws what the client throws for failures other than the service refusing a lookup
   */
  async fill<T extends NamedMessage>(messages: T[]): Promise<T[]> {
    for (const message of messages) {
      const sender = message.sender;
      if (sender?.sender_type === "user" && sender.sender_name) {
        this.#known.set(sender.id, sender.sender_name);
      }
      for (const mention of message.mentions ?? []) {
        if (mention.id.startsWith("ou_") && mention.name && !this.#known.has(mention.id)) {
          this.#known.set(mention.id, mention.name);
        }
      }
    }
    const unknown = [
      ...new Set(
        messages
          .map((m) => m.sender)
          .filter((s): s is Sender =>
            s?.sender_type === "user" && !s.sender_name && !this.#known.has(s.id)
          )
          .map((s) => s.id),
      ),
    ];
    if (unknown.length > 0 && this.#lookups) await this.#lookUp(unknown);
    for (const message of messages) {
      const sender = message.sender;
      if (sender?.sender_type === "user" && !sender.sender_name) {
        const name = this.#known.get(sender.id);
        if (name) sender.sender_name = name;
      }
    }
    return messages;
  }

  async #lookUp(openIds: string[]): Promise<void> {
    const size = this.#input.identity === "user" ? BASIC_BATCH_MAX : USER_BATCH_MAX;
    const batches: string[][] = [];
    for (let i = 0; i < openIds.length; i += size) batches.push(openIds.slice(i, i + size));
    await runPool(batches, MAX_WORKERS, async (batch) => {
      if (!this.#lookups) return;
      let found = new Map<string, string>();
      try {
        found = namesOf(
          await this.#client.request<unknown>(namesRequest(batch, this.#input)),
          this.#input,
        );
      } catch (error) {
        if (error instanceof PermissionError) {
          if (this.#lookups) {
            this.#lookups = false;
            const scopes = NAME_LOOKUP_SCOPES[this.#input.identity];
            this.#input.warn(
              `Some sender names are not shown: looking people up needs the ` +
                `${scopes.length === 1 ? "scope" : "scopes"} ${
                  scopes.map((s) => `"${s}"`).join(", ")
                } (${error.message})`,
            );
          }
          return;
        }
        // The service would not name these people (outside the contacts the app may see, or
        // unknown): they stay unnamed. Anything else is the listing's failure.
        if (!(error instanceof HarkError && error.type === "api")) throw error;
      }
      // A person the service left out of its answer is not asked about again.
      for (const openId of batch) this.#known.set(openId, found.get(openId) ?? "");
    });
  }
}
