/**
 * `hark api <METHOD> <path>`: a raw call to any Open Platform endpoint, with the same auth,
 * retries, errors and output as the shortcuts.
 *
 * @module
 */

import { API_METHODS } from "../../api_call/api_methods.ts";
import { type CommandSpec, defineCommand, flag } from "../command_spec.ts";

/** The flags of `hark api`. */
export const API_FLAGS = {
  params: flag.string("<json>", {
    description: "query parameters as a JSON object, @file, or - for stdin (10 MiB at most)",
  }),
  data: flag.string("<json>", {
    description: "request body as JSON, @file, or - for stdin (10 MiB at most)",
  }),
  "idempotency-key": flag.string("<key>", {
    description: "mark a POST/PATCH as safe to retry (the body must carry the key, e.g. as uuid)",
  }),
  scope: flag.list("<scope>", {
    description: "a scope the call needs, named if permission is denied",
  }),
};

/** `hark api`. */
export const apiCommand: CommandSpec = defineCommand({
  name: "api",
  description:
    "Call any Open Platform endpoint with hark's auth, retries and errors; prints the answer's data",
  args: [
    { name: "METHOD", description: `HTTP method: ${API_METHODS.join(", ")}`, required: true },
    {
      name: "path",
      description: "the endpoint, such as /open-apis/calendar/v4/calendars (prefix optional)",
      required: true,
    },
  ],
  flags: API_FLAGS,
  examples: [
    "hark api GET /open-apis/calendar/v4/calendars",
    `hark api GET search/v1/user --params '{"query": "ann", "page_size": 5}'`,
    'hark api POST /open-apis/im/v1/messages --params \'{"receive_id_type": "chat_id"}\' ' +
    "--data @message.json",
    "hark api GET /open-apis/authen/v1/user_info --dry-run",
  ],
  run: async (call) => (await import("./call_api.ts")).runApiCommand(call),
});
