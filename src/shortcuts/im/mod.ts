/**
 * The instant-messaging shortcuts. Adding one: a new file in this folder and one line in
 * `shortcuts`.
 *
 * @module
 */

import type { ServiceGroup } from "../service_group.ts";
import { send } from "./send.ts";

/** `hark im`. */
export const imService: ServiceGroup = {
  name: "im",
  description: "Instant messaging: send messages",
  examples: ["hark im +send --chat-id oc_123 --text 'Deploy finished'"],
  shortcuts: [
    send,
  ],
};
