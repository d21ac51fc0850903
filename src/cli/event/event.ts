/**
 * `hark event`: `+subscribe` (the event long connection, a long-running command), then the
 * catalogue's `event` API resources.
 *
 * @module
 */

import type { CatalogueRef } from "../catalogue/catalogue_ref.ts";
import { type CommandSpec, defineCommand, flag } from "../command_spec.ts";

/** The flags of `hark event +subscribe`. */
export const SUBSCRIBE_FLAGS = {
  "event-types": flag.string("<types>", {
    description: "only these event types, comma separated (im.message.receive_v1,…); default all",
  }),
  filter: flag.string("<regex>", { description: "only event types matching this pattern" }),
  "output-dir": flag.string("<dir>", {
    description: "write each event to its own file in this folder (atomically) instead of stdout",
  }),
  route: flag.list("<regex>=dir:<path>", {
    description: "events whose type matches go to files in that folder; first match wins",
  }),
  compact: flag.bool({ description: "flat events: a message's text extracted, noise dropped" }),
  quiet: flag.bool({ description: "no status lines on stderr (warnings still show)" }),
  force: flag.bool({
    description: "run beside another subscriber of the same app (each then gets only some events)",
  }),
};

/** `hark event +subscribe`. */
export const subscribeCommand: CommandSpec = defineCommand({
  name: "+subscribe",
  description: "Receive the app's events over Lark's long connection, one JSON line per event",
  details: "Runs until Ctrl-C or SIGTERM, then finishes the events it received and exits 0. " +
    "Runs as the bot (the app's id and secret); the app must receive events through the long " +
    "connection (developer console: Events and Callbacks) and subscribe to the types wanted. " +
    "An event is acknowledged only once written (stdout flushed, or its file in place); one " +
    "delivered again is written once.",
  flags: SUBSCRIBE_FLAGS,
  examples: [
    "hark event +subscribe --event-types im.message.receive_v1 --compact",
    "hark event +subscribe --output-dir ./events --quiet",
    "hark event +subscribe --route '^im\\.=dir:./im' --route '^calendar\\.=dir:./calendar'",
  ],
  notes: "Identities: bot only (--as bot)\n" +
    "One subscriber per app: the service splits events across connections, so a second one " +
    "is refused unless --force.\n" +
    "For agents (hark mcp): a stream does not fit a tool call; run this with --output-dir and " +
    "read the folder's files (one JSON event each, named <ms>_<type>_<id>.json).",
  run: async (call) => (await import("./subscribe.ts")).runSubscribe(call),
});

/**
 * The `event` group.
 *
 * @param catalogue the API catalogue, whose `event` resources the group lists after `+subscribe`
 */
export function eventCommand(catalogue?: CatalogueRef): CommandSpec {
  return {
    name: "event",
    description: "Events: subscribe to the app's events over the long connection",
    examples: ["hark event +subscribe --event-types im.message.receive_v1 --compact"],
    commands: [subscribeCommand],
    ...(catalogue && {
      moreCommands: async () =>
        (await import("../catalogue/api_commands.ts")).apiResourceCommands(catalogue, "event"),
      moreHeading: "API resources",
    }),
  };
}
