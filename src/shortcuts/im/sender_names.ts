/**
 * Sender names for message listings. Lark fills `sender.sender_name` itself when asked
 * (`with_sender_name=true`); for a sender it leaves unnamed, hark uses the names the page's
 * mentions carry, then asks the contact API once per person (at most ten at a time), caching
 * every answer for the rest of the listing, so a 50,000-message chat costs one lookup per
 * person, not per message.
 *
 * @module
 */

import { HarkError, PermissionError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { objectField, stringField } from "../../json/fields.ts";
import type { ApiCaller, ShortcutInput } from "../definition.ts";
import { MAX_WORKERS, runPool } from "../run_pool.ts";

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

/** The scopes a contact lookup needs, per identity (lark-cli `+get-user`). */
export const LOOKUP_SCOPES = {
  user: "contact:user.basic_profile:readonly",
  bot: "contact:user.base:readonly",
} as const;

/**
 * The request of one person's profile by open id.
 *
 * @param openId the person
 * @param input the shortcut input (the identity decides the scope)
 */
export function userLookupRequest(openId: string, input: ShortcutInput<unknown>): ApiRequest {
  return {
    method: "GET",
    path: `/open-apis/contact/v3/users/${encodeURIComponent(openId)}`,
    query: { user_id_type: "open_id" },
    scopes: [LOOKUP_SCOPES[input.identity]],
  };
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
    await runPool(openIds, MAX_WORKERS, async (openId) => {
      if (!this.#lookups) return;
      try {
        const data = await this.#client.request<unknown>(userLookupRequest(openId, this.#input));
        this.#known.set(openId, stringField(objectField(data, "user"), "name") ?? "");
      } catch (error) {
        if (error instanceof PermissionError) {
          if (this.#lookups) {
            this.#lookups = false;
            this.#input.warn(
              `Some sender names are not shown: looking people up needs the scope ` +
                `"${LOOKUP_SCOPES[this.#input.identity]}" (${error.message})`,
            );
          }
          return;
        }
        // The service does not know this person (left the company, another tenant).
        if (error instanceof HarkError && error.type === "api") {
          this.#known.set(openId, "");
          return;
        }
        throw error;
      }
    });
  }
}
