/**
 * `hark api <METHOD> <path>`: a raw call to any Open Platform endpoint, with the same auth,
 * retries, errors and output as the shortcuts.
 *
 * @module
 */

import { API_METHODS } from "../../api_call/api_methods.ts";
import { DEFAULT_MAX_PAGES } from "../../shortcuts/max_pages.ts";
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
  "raw-field": flag.list("<key=value>", {
    short: "f",
    description: "a string field: a query parameter of a GET or DELETE, else a body key",
  }),
  field: flag.list("<key=value>", {
    short: "F",
    description: "a typed field (true, false, null and numbers as JSON; @file reads the file), " +
      "placed as -f",
  }),
  "page-all": flag.bool({
    description: "follow page_token to the last page and print the items of all pages together",
  }),
  "max-pages": flag.string("<n>", {
    description: `the most pages --page-all reads, a safety limit (default ${DEFAULT_MAX_PAGES})`,
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
    "hark api GET search/v1/user -f query=ann -F page_size=20 --page-all",
    'hark api POST /open-apis/im/v1/messages --params \'{"receive_id_type": "chat_id"}\' ' +
    "--data @message.json",
    "hark api GET /open-apis/authen/v1/user_info --dry-run",
  ],
  run: async (call) => (await import("./call_api.ts")).runApiCommand(call),
});
