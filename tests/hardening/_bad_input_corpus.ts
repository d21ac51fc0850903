/**
 * The generated corpus of malformed hark invocations: unknown flags and commands, wrong types,
 * out-of-range numbers, bad dates, unicode and control characters, huge values, empty strings,
 * missing values, bad enums, scopes, profile names, config keys and values, bad JSON and paths.
 *
 * Each case names why it is wrong and the exit code it must end with: 2 (validation) unless a
 * documented code fits better (`config get` of a key that is not set is 1, "not found").
 *
 * @module
 */

import type { TreeNode } from "../../src/cli/command_tree.ts";
import { addCalendarRoomCases } from "./_bad_input_calendar_rooms.ts";

/** One malformed invocation. */
export interface BadCase {
  /** The arguments after `hark` (without `--json`, which the runner adds). */
  argv: string[];
  /** What is wrong with it. */
  why: string;
  /** The expected exit code; default 2. */
  code?: number;
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** Text on stdin. */
  stdin?: string;
}

/** Files the corpus points `--input`, `--params @file` and `--data @file` at. */
export interface CorpusFiles {
  /** A folder. */
  dir: string;
  /** A path that does not exist. */
  missing: string;
  /** A file that is not JSON. */
  notJson: string;
  /** A file holding a JSON array. */
  jsonArray: string;
  /** An empty file. */
  empty: string;
  /** A JSON object with a bad `limit`. */
  badLimit: string;
  /** A JSON object with a bad `start`. */
  badStart: string;
  /** A JSON object with an unknown field. */
  unknownField: string;
}

const HUGE = "x".repeat(100_000);
const HUGE_DIGITS = "9".repeat(100_000);

/** Control and odd unicode characters that no validated value may hold. */
export const CONTROL = [
  "\u0000",
  "\u0007",
  "\u001b[31m",
  "\r",
  "\n",
  "\t",
  "\u007f",
  "\u202e",
  "\ufeff",
  "\u200b",
];

const BAD_DATETIMES = [
  "",
  " ",
  "the day after tomorrow",
  "next week",
  "2026-13-01",
  "2026-00-10",
  "2026-02-30",
  "2026-11-31",
  "2026-11-00",
  "2026/11/01",
  "11/01/2026",
  "01-11-2026",
  "2026-11-01T25:00:00Z",
  "2026-11-01 24:00",
  "2026-11-01 10:60",
  "2026-11-01T10:00:61Z",
  "2026-11-01T10:00:00+25:00",
  "2026-11",
  "2026-W45",
  "9999999999999",
  "-1",
  "1e9",
  "0x1F",
  "NaN",
  "Infinity",
  "２０２６-１１-０１",
  "٢٠٢٦-١١-٠١",
  "2026-11-01\u0000",
  "2026-11-0\u0007",
  "\u202e2026-11-01",
  "2026‐11‐01",
  "null",
  "[]",
  HUGE,
  HUGE_DIGITS,
];

const BAD_INTS = [
  "",
  " ",
  "abc",
  "1.5",
  "-1",
  "0",
  "-0",
  "1e3",
  "0x10",
  "NaN",
  "Infinity",
  "２０",
  "٣",
  "5\u0000",
  "5\n6",
  "\u202e5",
  "99999999999999999999999",
  "5 apples",
  "+-5",
  "true",
  HUGE,
  HUGE_DIGITS,
];

const BAD_FORMATS = [
  "",
  "xml",
  "yaml",
  "JSON",
  "Table",
  "tablé",
  "json ",
  "csv\u0000",
  "t\u0007able",
  "--json",
  HUGE,
];

const BAD_IDENTITIES = [
  "",
  "admin",
  "USER",
  "Bot",
  "tenant",
  "user\n",
  "b\u0000ot",
  "ボット",
  HUGE,
];

const BAD_SCOPES = [
  "",
  " ",
  "calendar",
  "a:b:c:d",
  ":::",
  "calendar:calendar:readonly:extra",
  "calendar:calendar:read\u0007only",
  "calendar:\u0000:readonly",
  "calendar: calendar:readonly",
  "日历",
  "a:b:c:d:e:f",
  HUGE,
];

const BAD_PROFILES = [
  "",
  " ",
  "../etc",
  "a/b",
  "a\\b",
  "a b",
  "a\u0000b",
  "a\nb",
  "\u202eevil",
  "名前",
  "x".repeat(65),
  "$(id)",
  "a;b",
  "*",
  HUGE,
];

const BAD_KEYS = [
  "",
  " ",
  ".",
  "..",
  "apps",
  "apps.",
  "apps..app_id",
  "apps.default.nope",
  "apps.default.app_id.extra",
  "constructor",
  "apps.constructor.app_id",
  "preferences.colour",
  "preferences",
  "users.default.access_token",
  "__proto__.polluted",
  "apps.__proto__.app_id",
  "constructor.prototype.x",
  "apps.../app_id",
  "apps.a/b.app_id",
  "apps.名前.app_id",
  "preferences.color\u0000",
  "preferences.\u202ecolor",
  HUGE,
];

/** Values each settable key must refuse. */
const BAD_VALUES: Record<string, string[]> = {
  "preferences.output_format": ["", "xml", "JSON", "table\n", "jsón", HUGE],
  "preferences.color": ["", "maybe", "2", "on\u0000", "truee", HUGE],
  "active_profile": BAD_PROFILES.slice(0, 10),
  "apps.default.app_id": ["", " ", "a b", "cli\u0000x", "cli_\n", HUGE],
  "apps.default.app_secret": ["s3cret", "", "@plain:s3cret", "@keychain:", "@env:", "@env:A B"],
  "apps.default.base_url": [
    "",
    "not a url",
    "ftp://example.com",
    "javascript:alert(1)",
    "http://",
    "https://exa mple.com",
    "//example.com",
    "file:///etc/passwd",
    `https://${HUGE}`,
  ],
  "apps.default.accounts_url": ["", "accounts", "ftp://x.example.com", "http://"],
  "apps.default.device_authorization_path": ["", "oauth/device", "https://x.example.com/a", " /a"],
  "apps.default.credential_command": ["", "vault", "{}", "[]", "[1,2]", '"vault"', "[", "null"],
};

const BAD_METHODS = ["", "FETCH", "G ET", "GET\u0000", "CONNECT", "TRACE", "ＧＥＴ", HUGE];

const BAD_PATHS = [
  "",
  " ",
  "https://evil.example.com/open-apis/x",
  "http://127.0.0.1/open-apis/x",
  "/open-apis/a b",
  "/open-apis/x\u0000",
  "/open-apis/x\ny",
  "/open-apis/\t",
];

const BAD_JSON = [
  "",
  " ",
  "not json",
  "{",
  "{'a': 1}",
  "[1, 2]",
  '"text"',
  "42",
  "null",
  "true",
  '{"a": 1,}',
  '{"a": \u0000}',
  `{"a": "${HUGE}"`,
];

/** Long flags of a command that take a value. */
function valueFlags(node: TreeNode): string[] {
  return (node.spec.flags ?? []).filter((f) => f.value !== undefined).map((f) => `--${f.name}`);
}

/** Every runnable command below `root`, with its path from the root. */
export function leafCommands(root: TreeNode): { path: string[]; command: TreeNode }[] {
  const found: { path: string[]; command: TreeNode }[] = [];
  const walk = (node: TreeNode) => {
    if (node.commands.length === 0) found.push({ path: node.path.slice(1), command: node });
    node.commands.forEach(walk);
  };
  walk(root);
  return found;
}

/** Valid positional arguments for a command, so only the injected fault is wrong. */
function positionalsOf(path: string[]): string[] {
  const key = path.join(" ");
  if (key === "config get") return ["preferences.color"];
  if (key === "config set") return ["preferences.color", "true"];
  if (key === "profile use" || key === "profile remove") return ["default"];
  if (key === "api") return ["GET", "/open-apis/authen/v1/user_info"];
  if (key === "completion") return ["bash"];
  return [];
}

/**
 * Builds the corpus.
 *
 * @param root the loaded command tree, for the per-command cases (unknown and value-less flags)
 * @param files the prepared files
 */
export function buildCorpus(root: TreeNode, files: CorpusFiles): BadCase[] {
  const cases: BadCase[] = [];
  const add = (why: string, argv: string[], extra: Partial<BadCase> = {}) =>
    cases.push({ why, argv, ...extra });

  // Unknown, misspelt and mangled flags on every command.
  const unknownFlags = [
    "--bogus",
    "--jsonn",
    "--ünïcödé",
    "--x\u0007y",
    "--\u202eflag",
    "-z",
    "-Q",
    `--${HUGE}`,
    "--no-such-thing=1",
  ];
  const leaves = leafCommands(root);
  for (const { path, command } of leaves) {
    const base = [...path, ...positionalsOf(path)];
    for (const flag of unknownFlags) add(`unknown flag ${flag.slice(0, 20)}`, [...base, flag]);
    // A flag given without its value, as the last word.
    for (const flag of valueFlags(command)) add(`no value for ${flag}`, [...path, flag]);
    // Too many positional arguments.
    if (!["schema"].includes(path[0])) {
      add("an extra positional argument", [...base, "extra", "words"]);
    }
  }
  // Global flags without values or with bad ones, before and after the command.
  for (const where of ["before", "after"] as const) {
    const place = (flags: string[], command: string[]) =>
      where === "before" ? [...flags, ...command] : [...command, ...flags];
    for (const value of BAD_FORMATS) {
      add(`bad --format ${where}`, place(["--format", value], ["calendar", "+agenda"]));
      add(`bad --format ${where}`, place(["--format", value], ["profile", "list"]));
      add(`bad --format ${where}`, place(["--format", value], ["auth", "status"]));
    }
    for (const value of BAD_IDENTITIES) {
      for (const shortcut of [["calendar", "+agenda"], ["im", "+send", "--chat-id", "oc_1"]]) {
        add(`bad --as ${where}`, place(["--as", value], shortcut));
      }
    }
    for (const value of BAD_PROFILES) {
      for (
        const command of [
          ["calendar", "+agenda"],
          ["contact", "+search-user", "--query", "a"],
          ["auth", "status"],
          ["auth", "token"],
          ["config", "get", "preferences.color"],
        ]
      ) {
        add(`bad --profile ${where}`, place(["--profile", value], command));
      }
    }
  }
  add("--profile without a value", ["calendar", "+agenda", "--profile"]);
  add("--format without a value", ["calendar", "+agenda", "--format"]);
  for (const value of BAD_PROFILES) {
    add("bad profile name from HARK_PROFILE", ["calendar", "+agenda"], {
      env: { HARK_PROFILE: value },
    });
  }

  // Unknown commands and shortcuts.
  for (
    const argv of [
      ["nope"],
      ["calendar", "+nope"],
      ["calendar", "agenda"],
      ["calendar", "+Agenda"],
      ["calendar", "+agenda+"],
      ["im", "+sned"],
      ["im", "send"],
      ["contact", "+search"],
      ["auth", "logn"],
      ["config", "gte"],
      ["profile", "delete"],
      ["+agenda"],
      ["calendar", ""],
      [""],
      ["calendar", "+ａｇｅｎｄａ"],
      ["calendar", "+agenda\u0000"],
      ["\u202ecalendar"],
      [HUGE],
      ["calendar", HUGE],
      ["schema", "nope"],
      ["schema", "calendar", "+nope"],
      ["schema", "auth", "nope"],
      ["schema", HUGE],
    ]
  ) add("unknown command or shortcut", argv);

  // Dates and times.
  const dateSites: { name: string; build: (v: string) => string[] }[] = [
    { name: "+agenda --start", build: (v) => ["calendar", "+agenda", "--start", v] },
    { name: "+agenda --end", build: (v) => ["calendar", "+agenda", "--end", v] },
    {
      name: "+freebusy --start",
      build: (v) => ["calendar", "+freebusy", "--user-id", "ou_1", "--start", v],
    },
    {
      name: "+freebusy --end",
      build: (v) => ["calendar", "+freebusy", "--user-id", "ou_1", "--end", v],
    },
    {
      name: "+create --start",
      build: (v) => [
        "calendar",
        "+create",
        "--summary",
        "Review",
        "--start",
        v,
        "--end",
        "2026-11-25 15:00",
      ],
    },
    {
      name: "+create --end",
      build: (v) => [
        "calendar",
        "+create",
        "--summary",
        "Review",
        "--start",
        "2026-11-25 14:00",
        "--end",
        v,
      ],
    },
  ];
  for (const site of dateSites) {
    for (const value of BAD_DATETIMES) add(`bad datetime for ${site.name}`, site.build(value));
  }
  add("bad datetime from HARK_CALENDAR_START", ["calendar", "+agenda"], {
    env: { HARK_CALENDAR_START: "not a date" },
  });
  add("bad datetime from HARK_CALENDAR_END", ["calendar", "+agenda"], {
    env: { HARK_CALENDAR_END: "2026-02-30" },
  });
  // Ranges that end before they start.
  for (
    const [start, end] of [
      ["2026-11-10", "2026-11-01"],
      ["2026-11-10 10:00", "2026-11-10 09:00"],
      ["2026-11-10T10:00:00Z", "2026-11-10T10:00:00Z"],
    ]
  ) {
    add("--end before --start", ["calendar", "+agenda", "--start", start, "--end", end]);
    add("--end before --start", [
      "calendar",
      "+freebusy",
      "--user-id",
      "ou_1",
      "--start",
      start,
      "--end",
      end,
    ]);
    add("--end before --start", [
      "calendar",
      "+create",
      "--summary",
      "x",
      "--start",
      start,
      "--end",
      end,
    ]);
  }

  // Numbers.
  for (const value of BAD_INTS) {
    add("bad --limit", ["contact", "+search-user", "--query", "a", "--limit", value]);
  }
  for (const value of ["abc", "0", "-3", "1.5"]) {
    add("bad limit from HARK_CONTACT_LIMIT", ["contact", "+search-user", "--query", "a"], {
      env: { HARK_CONTACT_LIMIT: value },
    });
  }

  // Empty and missing required values.
  add("empty --query", ["contact", "+search-user", "--query", ""]);
  add("blank --query", ["contact", "+search-user", "--query", "   "]);
  add("missing --query", ["contact", "+search-user"]);
  add("--page-all with a value", ["contact", "+search-user", "--query", "a", "--page-all=yes"]);
  add("empty --summary", [
    "calendar",
    "+create",
    "--summary",
    "",
    "--start",
    "2026-11-25 14:00",
    "--end",
    "2026-11-25 15:00",
  ]);
  add("missing --summary", [
    "calendar",
    "+create",
    "--start",
    "2026-11-25 14:00",
    "--end",
    "2026-11-25 15:00",
  ]);
  add("missing --start and --end", ["calendar", "+create", "--summary", "x"]);
  for (const attendees of ["", ",", " , ", "ou 1", "ou_1,ou 2", "ou_\u0000", "ou_1\u0007"]) {
    add("bad --attendees", [
      "calendar",
      "+create",
      "--summary",
      "x",
      "--start",
      "2026-11-25 14:00",
      "--end",
      "2026-11-25 15:00",
      "--attendees",
      attendees,
    ]);
  }
  add("+freebusy as bot without --user-id", ["calendar", "+freebusy", "--as", "bot"]);
  add("+search-user as bot", ["contact", "+search-user", "--query", "a", "--as", "bot"]);
  for (const id of ["", "  "]) {
    add("empty --calendar-id", ["calendar", "+agenda", "--calendar-id", id]);
    add("empty --calendar-id", [
      "calendar",
      "+create",
      "--summary",
      "x",
      "--start",
      "2026-11-25 14:00",
      "--end",
      "2026-11-25 15:00",
      "--calendar-id",
      id,
    ]);
  }

  // The event shortcuts: ids, answers, views, find-time's window and rules.
  const BAD_EVENT_IDS = ["", " ", "a b", "e_0\u0000", "\u202ee_0", "e_0\n", HUGE];
  for (const id of BAD_EVENT_IDS) {
    add("bad --event-id", ["calendar", "+get", "--event-id", id]);
    add("bad --event-id", ["calendar", "+rsvp", "--event-id", id, "--status", "accept"]);
    add("bad --event-id", ["calendar", "+update", "--event-id", id, "--summary", "x"]);
    add("bad --event-id", ["calendar", "+delete", "--event-id", id, "--yes"]);
  }
  for (const verb of ["+get", "+rsvp", "+update", "+delete"]) {
    add("missing --event-id", ["calendar", verb]);
  }
  for (const status of ["", "yes", "Accept", "accept ", "maybe", "needs_action", HUGE]) {
    add("bad --status", ["calendar", "+rsvp", "--event-id", "e_0", "--status", status]);
  }
  add("missing --status", ["calendar", "+rsvp", "--event-id", "e_0"]);
  add("nothing to change", ["calendar", "+update", "--event-id", "e_0"]);
  // (+update --start alone is no mistake: it keeps the event's length.)
  add("--duration with an --end read differently by country", [
    "calendar",
    "+create",
    "--summary",
    "x",
    "--start",
    "2026-11-25 14:00",
    "--end",
    "01/02",
    "--duration",
    "30m",
  ]);
  add("empty --summary", ["calendar", "+update", "--event-id", "e_0", "--summary", " "]);
  for (const ids of ["", ",", "ou 1", "ou_1\u0007"]) {
    add("bad --add-attendees", [
      "calendar",
      "+update",
      "--event-id",
      "e_0",
      "--add-attendees",
      ids,
    ]);
    add("bad --remove-attendees", [
      "calendar",
      "+update",
      "--event-id",
      "e_0",
      "--remove-attendees",
      ids,
    ]);
  }
  add("the same attendee added and removed", [
    "calendar",
    "+update",
    "--event-id",
    "e_0",
    "--add-attendees",
    "ou_1",
    "--remove-attendees",
    "ou_1",
  ]);
  for (const value of BAD_DATETIMES.slice(0, 12)) {
    add("bad datetime for +update --start", [
      "calendar",
      "+update",
      "--event-id",
      "e_0",
      "--start",
      value,
      "--end",
      "2026-11-25 15:00",
    ]);
  }
  add("--notify with --no-notify", [
    "calendar",
    "+delete",
    "--event-id",
    "e_0",
    "--notify",
    "--no-notify",
    "--yes",
  ]);
  for (const view of ["", "month", "WEEK", "grid", HUGE]) {
    add("bad --view", ["calendar", "+agenda", "--view", view]);
    add("bad --view", ["calendar", "+freebusy", "--user-id", "ou_1", "--view", view]);
  }
  add("--view week with --end", [
    "calendar",
    "+agenda",
    "--view",
    "week",
    "--end",
    "2026-11-30",
  ]);
  for (const ability of ["", "all", "can_see", "NONE"]) {
    add("bad --attendee-ability", [
      "calendar",
      "+create",
      "--summary",
      "x",
      "--start",
      "2026-11-25 14:00",
      "--end",
      "2026-11-25 15:00",
      "--attendee-ability",
      ability,
    ]);
  }
  for (const value of BAD_INTS) add("bad --limit", ["calendar", "+calendars", "--limit", value]);
  const findTime = ["calendar", "+find-time", "--attendees", "ou_1,ou_2"];
  for (const duration of ["", "0m", "-5m", "soon", "1x", "30", "1h-5m", HUGE]) {
    add("bad --duration", [...findTime, "--duration", duration]);
  }
  add("missing --duration", findTime);
  add("missing --attendees", ["calendar", "+find-time", "--duration", "30m"]);
  for (const attendees of ["", ",", "ou 1", "ou_1\u0000"]) {
    add("bad --attendees", [
      "calendar",
      "+find-time",
      "--attendees",
      attendees,
      "--duration",
      "30m",
    ]);
  }
  for (const hours of ["", "18:00-09:00", "25:00-26:00", "9-5", "09:00", "09:00-09:00", HUGE]) {
    add("bad --working-hours", [...findTime, "--duration", "30m", "--working-hours", hours]);
  }
  for (const value of BAD_INTS) {
    add("bad --limit", [...findTime, "--duration", "30m", "--limit", value]);
  }
  for (const value of BAD_DATETIMES.slice(0, 12)) {
    add("bad datetime for +find-time --start", [
      ...findTime,
      "--duration",
      "30m",
      "--start",
      value,
    ]);
    add("bad datetime for +find-time --end", [...findTime, "--duration", "30m", "--end", value]);
  }
  add("+find-time --end before --start", [
    ...findTime,
    "--duration",
    "30m",
    "--start",
    "2026-11-25",
    "--end",
    "2026-11-24",
  ]);
  add("+find-time bad --timezone", [...findTime, "--duration", "30m", "--timezone", "Mars/Base"]);
  addCalendarRoomCases(add);

  // im +send: targets, bodies and types.
  const chat = ["im", "+send", "--chat-id", "oc_1"];
  add("no target", ["im", "+send", "--text", "hi"]);
  add("two targets", ["im", "+send", "--chat-id", "oc_1", "--user-id", "ou_1", "--text", "hi"]);
  add("three targets", [
    "im",
    "+send",
    "--chat-id",
    "oc_1",
    "--user-id",
    "ou_1",
    "--email",
    "a@example.com",
    "--text",
    "hi",
  ]);
  for (const flag of ["--chat-id", "--user-id", "--email"]) {
    add(`empty ${flag}`, ["im", "+send", flag, "", "--text", "hi"]);
  }
  add("empty --text", [...chat, "--text", ""]);
  add("empty --markdown", [...chat, "--markdown", ""]);
  add("no body and empty stdin", chat, { stdin: "" });
  add("--text and --markdown", [...chat, "--text", "a", "--markdown", "b"]);
  add("--text and --content", [...chat, "--text", "a", "--content", "{}", "--msg-type", "text"]);
  add("--content without --msg-type", [...chat, "--content", '{"text":"a"}']);
  add("--msg-type without --content", [...chat, "--text", "a", "--msg-type", "text"]);
  for (const value of ["", "video", "TEXT", "text ", "t\u0000ext", "テキスト", HUGE]) {
    add("bad --msg-type", [...chat, "--content", '{"text":"a"}', "--msg-type", value]);
  }
  for (const value of BAD_JSON.filter((v) => v.trim() === "" || !v.startsWith('{"a": 1}'))) {
    add("bad --content JSON", [...chat, "--content", value, "--msg-type", "text"]);
  }
  // The service takes at most 50 characters.
  for (const value of ["", "k".repeat(51), HUGE]) {
    add("bad --idempotency-key", [...chat, "--text", "hi", "--idempotency-key", value]);
  }

  // IM: ids, windows, bodies, files and chats.
  const BAD_IDS = ["", "  ", ...CONTROL.map((c) => `x${c}1`), "a b", HUGE];
  for (const id of [...BAD_IDS, "general", "om_1", "ou_1", "oc_"]) {
    add("bad --chat-id for +messages", ["im", "+messages", "--chat-id", id]);
  }
  for (const id of [...BAD_IDS, "oc_1", "omt_1", "om_"]) {
    add("bad --message-id for +reply", ["im", "+reply", "--message-id", id, "--text", "hi"]);
    add("bad --message-id for +thread", ["im", "+thread", "--message-id", id]);
    add("bad --message-id for +download", [
      "im",
      "+download",
      "--message-id",
      id,
      "--key",
      "file_1",
      "--output",
      files.missing,
    ]);
  }
  for (const id of [...BAD_IDS, "om_1", "oc_1"]) {
    add("bad --thread-id for +thread", ["im", "+thread", "--thread-id", id]);
  }
  for (const ids of ["", ",", "om_1,,om_2", "om_1, om 2", "om_1,oc_2", `om_1,om_\u202e2`]) {
    add("bad --message-id list for +get", ["im", "+get", "--message-id", ids]);
  }
  add("too many ids for +get", [
    "im",
    "+get",
    "--message-id",
    Array.from({ length: 501 }, (_, i) => `om_${i}`).join(","),
  ]);
  add("+get without ids", ["im", "+get"]);
  add("+messages without a chat", ["im", "+messages"]);
  add("+thread without a thread", ["im", "+thread"]);
  add("+thread with both ids", ["im", "+thread", "--message-id", "om_1", "--thread-id", "omt_1"]);
  for (const flag of ["--start", "--end"]) {
    for (const value of BAD_DATETIMES) {
      add(`bad datetime for +messages ${flag}`, [
        "im",
        "+messages",
        "--chat-id",
        "oc_1",
        flag,
        value,
      ]);
    }
  }
  add("+messages --end before --start", [
    "im",
    "+messages",
    "--chat-id",
    "oc_1",
    "--start",
    "2026-11-10",
    "--end",
    "2026-11-01",
  ]);
  for (const value of BAD_INTS) {
    add("bad --limit for +messages", ["im", "+messages", "--chat-id", "oc_1", "--limit", value]);
    add("bad --max-pages for +thread", [
      "im",
      "+thread",
      "--thread-id",
      "omt_1",
      "--max-pages",
      value,
    ]);
  }
  for (const value of ["", "newest", "ASC", "asc\u0000", HUGE]) {
    add("bad --order", ["im", "+messages", "--chat-id", "oc_1", "--order", value]);
  }
  add("bad chat id from HARK_IM_CHAT_ID", ["im", "+messages"], {
    env: { HARK_IM_CHAT_ID: "not-a-chat" },
  });
  // Bodies of +reply, and files of +send and +reply.
  const reply = ["im", "+reply", "--message-id", "om_1"];
  add("+reply without a message", ["im", "+reply", "--text", "hi"]);
  add("+reply without a body and empty stdin", reply, { stdin: "" });
  add("+reply with two bodies", [...reply, "--text", "a", "--markdown", "b"]);
  add("+reply with --msg-type and --text", [...reply, "--text", "a", "--msg-type", "text"]);
  for (const value of ["", "k".repeat(51), HUGE]) {
    add("bad --idempotency-key for +reply", [...reply, "--text", "hi", "--idempotency-key", value]);
  }
  for (const command of [["im", "+send", "--chat-id", "oc_1"], reply]) {
    for (
      const [flag, path, why] of [
        ["--file", files.missing, "a file that does not exist"],
        ["--file", files.dir, "a folder"],
        ["--file", files.empty, "an empty file"],
        ["--file", "", "an empty path"],
        ["--image", files.notJson, "a file that is not an image"],
        ["--image", files.missing, "an image that does not exist"],
        ["--image", files.empty, "an empty image"],
        ["--image", `${files.dir}\u0000x.png`, "a path holding a NUL"],
      ]
    ) {
      add(`${command[1]} ${flag}: ${why}`, [...command, flag, path]);
    }
    add(`${command[1]} with --file and --text`, [
      ...command,
      "--file",
      files.notJson,
      "--text",
      "a",
    ]);
    add(`${command[1]} with --image and --file`, [
      ...command,
      "--image",
      files.notJson,
      "--file",
      files.notJson,
    ]);
  }
  // +download: keys, types and where the file goes.
  const download = ["im", "+download", "--message-id", "om_1"];
  add("+download without --key", [...download, "--output", files.missing]);
  add("+download without --output", [...download, "--key", "file_1"]);
  for (const key of [...BAD_IDS, "abc"]) {
    add("bad --key for +download", [...download, "--key", key, "--output", files.missing]);
  }
  for (const type of ["", "video", "IMAGE", "file\u0000"]) {
    add("bad --type for +download", [
      ...download,
      "--key",
      "abc",
      "--type",
      type,
      "--output",
      files.missing,
    ]);
  }
  for (
    const [output, why] of [
      ["", "an empty --output"],
      [files.notJson, "an --output that exists, without --force"],
      [`${files.missing}/x.pdf`, "an --output in a folder that does not exist"],
      [`${files.missing}/`, "an --output folder that does not exist"],
    ]
  ) {
    add(`+download with ${why}`, [...download, "--key", "file_1", "--output", output]);
  }
  // +chats and +chat-create.
  for (const query of ["", "   ", "x".repeat(65), "a\u0007b", HUGE]) {
    add("bad --query for +chats", ["im", "+chats", "--query", query]);
  }
  for (const value of BAD_INTS) add("bad --limit for +chats", ["im", "+chats", "--limit", value]);
  const create = ["im", "+chat-create", "--name", "Release"];
  add("+chat-create without --name", ["im", "+chat-create", "--members", "ou_1"]);
  for (const name of ["", "   ", "x".repeat(61), "a\u0007b", HUGE]) {
    add("bad --name for +chat-create", ["im", "+chat-create", "--name", name]);
  }
  add("+chat-create of a public chat named by one letter", [
    "im",
    "+chat-create",
    "--name",
    "A",
    "--type",
    "public",
  ]);
  for (const members of ["", ",", "ou_1,,ou_2", "ou 1", "ou_1,on_2", "ou_1\u202e"]) {
    add("bad --members for +chat-create", [...create, "--members", members]);
  }
  add("too many --members for +chat-create", [
    ...create,
    "--members",
    Array.from({ length: 51 }, (_, i) => `ou_${i}`).join(","),
  ]);
  for (const type of ["", "secret", "PUBLIC"]) {
    add("bad --type for +chat-create", [...create, "--type", type]);
  }
  add("bad --description for +chat-create", [...create, "--description", "d".repeat(101)]);
  for (const value of ["", "k".repeat(51)]) {
    add("bad --idempotency-key for +chat-create", [...create, "--idempotency-key", value]);
  }
  // +messages-search.
  const search = ["im", "+messages-search"];
  add("+messages-search of nothing", search);
  add("+messages-search as bot", [...search, "--query", "x", "--as", "bot"]);
  for (const query of ["a\u0007b", "x".repeat(201), HUGE]) {
    add("bad --query for +messages-search", [...search, "--query", query]);
  }
  for (const sender of ["", "on_1", "ou 1"]) {
    add("bad --sender for +messages-search", [...search, "--query", "x", "--sender", sender]);
  }
  for (const kind of ["", "pdf", "IMAGE"]) {
    add("bad --attachment for +messages-search", [...search, "--query", "x", "--attachment", kind]);
  }
  add("the same --sender-type kept and left out", [
    ...search,
    "--sender-type",
    "bot",
    "--exclude-sender-type",
    "bot",
  ]);
  // +chat-update and +chat-members, -add, -remove.
  const update = ["im", "+chat-update", "--chat-id", "oc_1"];
  add("+chat-update of nothing", update);
  add("+chat-update without --chat-id", ["im", "+chat-update", "--name", "x"]);
  for (const id of ["", "ou_1", "oc_", ".", "..", "oc 1", HUGE]) {
    add("bad --chat-id for +chat-update", ["im", "+chat-update", "--chat-id", id, "--name", "x"]);
    add("bad --chat-id for +chat-members", ["im", "+chat-members", "--chat-id", id]);
  }
  for (const name of ["", "   ", "x".repeat(61), "a\u0007b", HUGE]) {
    add("bad --name for +chat-update", [...update, "--name", name]);
  }
  add("bad --description for +chat-update", [...update, "--description", "d".repeat(101)]);
  for (const who of ["", "owner", "ONLY_OWNER"]) {
    add("bad --edit-permission for +chat-update", [...update, "--edit-permission", who]);
  }
  for (const owner of ["", "ou 1", "ou_1\u202e"]) {
    add("bad --owner for +chat-update", [...update, "--owner", owner, "--yes"]);
  }
  for (const token of ["", "a b", "a\u001b[2J", "x".repeat(1025)]) {
    add("bad --page-token for +chat-members", [
      "im",
      "+chat-members",
      "--chat-id",
      "oc_1",
      "--page-token",
      token,
    ]);
  }
  for (const verb of ["+chat-members-add", "+chat-members-remove"]) {
    add(`${verb} without --members`, ["im", verb, "--chat-id", "oc_1"]);
    for (const members of ["", ",", "ou 1", "ou_1,on_2"]) {
      add(`bad --members for ${verb}`, ["im", verb, "--chat-id", "oc_1", "--members", members]);
    }
  }

  // Reactions, pins, forward, recall, read status, urgent.
  for (const id of ["", "oc_1", "om_", "..", "om 1", HUGE]) {
    add("bad --message-id for +reaction-add", [
      "im",
      "+reaction-add",
      "--message-id",
      id,
      "--emoji",
      "OK",
    ]);
    add("bad --message-id for +pin", ["im", "+pin", "--message-id", id]);
    add("bad --message-id for +recall", ["im", "+recall", "--message-id", id, "--yes"]);
  }
  for (const emoji of ["", "thumbs up", "OK\u001b[2J", "x".repeat(65)]) {
    add("bad --emoji for +reaction-add", [
      "im",
      "+reaction-add",
      "--message-id",
      "om_1",
      "--emoji",
      emoji,
    ]);
    add("bad --emoji for +reactions", [
      "im",
      "+reactions",
      "--message-id",
      "om_1",
      "--emoji",
      emoji,
    ]);
  }
  add("+reaction-remove without --reaction-id", ["im", "+reaction-remove", "--message-id", "om_1"]);
  add("bad --reaction-id", [
    "im",
    "+reaction-remove",
    "--message-id",
    "om_1",
    "--reaction-id",
    "..",
  ]);
  add("bad --chat-id for +pins", ["im", "+pins", "--chat-id", "om_1"]);
  add("+pins with --end before --start", [
    "im",
    "+pins",
    "--chat-id",
    "oc_1",
    "--start",
    "2026-11-02",
    "--end",
    "2026-11-01",
  ]);
  add("+forward without a receiver", ["im", "+forward", "--message-id", "om_1"]);
  add("+forward as user", [
    "im",
    "+forward",
    "--message-id",
    "om_1",
    "--chat-id",
    "oc_1",
    "--as",
    "user",
  ]);
  add("+forward with a long key", [
    "im",
    "+forward",
    "--message-id",
    "om_1",
    "--chat-id",
    "oc_1",
    "--idempotency-key",
    "k".repeat(51),
  ]);
  add("+message-read-users as user", [
    "im",
    "+message-read-users",
    "--message-id",
    "om_1",
    "--as",
    "user",
  ]);
  for (const ids of ["", ",", "ou 1", "ou_1,on_1"]) {
    add("bad --user-ids for +urgent", ["im", "+urgent", "--message-id", "om_1", "--user-ids", ids]);
  }
  for (
    const listing of [["+messages", "--chat-id", "oc_1"], ["+thread", "--thread-id", "omt_1"], [
      "+chats",
    ]]
  ) {
    for (const token of ["", "a b", "a\u001b[2J", "x".repeat(1025)]) {
      add(`bad --page-token for ${listing[0]}`, ["im", ...listing, "--page-token", token]);
    }
  }
  const newChat = ["im", "+chat-create", "--name", "x"];
  for (const bots of ["", ",", "ou_1", "cli 1", "cli_1,cli_2,cli_3,cli_4,cli_5,cli_6"]) {
    add("bad --bots for +chat-create", [...newChat, "--bots", bots]);
  }
  add("--owner of another kind than --members", [
    ...newChat,
    "--members",
    "ou_1",
    "--owner",
    "on_1",
  ]);
  add("--set-bot-manager as user", [...newChat, "--owner", "ou_1", "--set-bot-manager"]);
  const sendTo = ["im", "+send", "--chat-id", "oc_1"];
  for (
    const [flag, value] of [
      ["--image-key", "file_1"],
      ["--file-key", "img_1"],
      ["--file-key", ""],
      ["--audio", ""],
      ["--audio", "./a.mp3"],
      ["--video", "file_1"],
    ]
  ) {
    add(`bad ${flag} for +send`, [...sendTo, flag, value]);
  }
  add("--cover without --video", [...sendTo, "--text", "hi", "--cover", "img_1"]);
  for (const mention of ["", "on_1", "ou 1", "ou_1\u202e"]) {
    add("bad --mention for +send", [...sendTo, "--text", "hi", "--mention", mention]);
  }
  add("--mention with --file-key", [...sendTo, "--file-key", "file_1", "--mention", "ou_1"]);
  add("+messages --user-id as bot", ["im", "+messages", "--user-id", "ou_1", "--as", "bot"]);
  add("+messages with --chat-id and --user-id", [
    "im",
    "+messages",
    "--chat-id",
    "oc_1",
    "--user-id",
    "ou_1",
  ]);
  add("+messages without a chat", ["im", "+messages"]);
  add("bad --user-id for +messages", ["im", "+messages", "--user-id", "ou 1"]);
  for (const kinds of ["", ",", "group", "private,all"]) {
    add("bad --search-types for +chats", ["im", "+chats", "--query", "a", "--search-types", kinds]);
  }
  add("bad --member-ids for +chats", ["im", "+chats", "--member-ids", "on_1"]);
  add("bad --sort-by for +chats", ["im", "+chats", "--query", "a", "--sort-by", "name"]);
  add("+chats filters without a query or members", ["im", "+chats", "--is-manager"]);
  add("bad --kind for +urgent", [
    "im",
    "+urgent",
    "--message-id",
    "om_1",
    "--user-ids",
    "ou_1",
    "--kind",
    "fax",
  ]);

  // contact +get-user and +me.
  for (const id of BAD_IDS) {
    add("bad --user-id for +get-user", ["contact", "+get-user", "--user-id", id]);
  }
  add("+get-user without --user-id", ["contact", "+get-user"]);
  add("+me as bot", ["contact", "+me", "--as", "bot"]);
  add("bad --user-id for +send", ["im", "+send", "--user-id", "ou 1", "--text", "hi"]);

  // --input files.
  for (
    const [path, why] of [
      [files.missing, "--input file that does not exist"],
      [files.dir, "--input that is a folder"],
      [files.notJson, "--input file that is not JSON"],
      [files.jsonArray, "--input file holding an array"],
      [files.empty, "--input file that is empty"],
      [files.badLimit, "--input with a bad limit"],
      [files.unknownField, "--input with an unknown field"],
      ["", "--input with an empty path"],
    ]
  ) {
    add(why, ["contact", "+search-user", "--query", "a", "--input", path]);
  }
  add("--input with a bad start", ["calendar", "+agenda", "--input", files.badStart]);
  for (const text of ["not json", "[1]", "", '{"limit": "x"}', '"query"']) {
    add("--input - with bad JSON on stdin", ["contact", "+search-user", "--input", "-"], {
      stdin: text,
    });
  }

  // auth.
  for (const scope of BAD_SCOPES) {
    add("bad scope for auth login", ["auth", "login", "--scope", scope]);
    add("bad scope for auth check", ["auth", "check", "--scope", scope]);
    add("bad scope for api", ["api", "GET", "/open-apis/authen/v1/user_info", "--scope", scope]);
    add("bad scope among good ones", [
      "auth",
      "login",
      "--scope",
      "calendar:calendar:readonly",
      "--scope",
      scope,
    ]);
  }
  add("auth check with no scope", ["auth", "check"]);
  add("--no-wait with --device-code", ["auth", "login", "--no-wait", "--device-code", "dc_1"]);
  add("empty --device-code", ["auth", "login", "--device-code", ""]);

  // config get / set.
  for (const key of BAD_KEYS) {
    add("bad key for config set", ["config", "set", key, "x"]);
  }
  for (
    const key of BAD_KEYS.filter((k) =>
      !["", "apps", "preferences", "users.default.access_token"].includes(k)
    )
  ) {
    // A key that cannot exist is a validation error; one that is merely unset is "not found".
    add("bad key for config get", ["config", "get", key], { code: codeOfGet(key) });
  }
  for (const [key, values] of Object.entries(BAD_VALUES)) {
    for (const value of values) add(`bad value for ${key}`, ["config", "set", key, value]);
  }
  add("config set without a value", ["config", "set", "preferences.color"]);
  add("config set without anything", ["config", "set"]);
  add("config init --non-interactive without --app-id", ["config", "init", "--non-interactive"]);
  for (const id of ["", " ", "a b", "cli\u0000", HUGE]) {
    add("bad --app-id for config init", [
      "config",
      "init",
      "--non-interactive",
      "--app-id",
      id,
      "--app-secret-stdin",
    ], { stdin: "secret" });
  }
  for (const url of ["", "not a url", "ftp://x.example.com", "larc", "http://"]) {
    add("bad --base-url for config init", [
      "config",
      "init",
      "--non-interactive",
      "--app-id",
      "cli_a1",
      "--app-secret-stdin",
      "--base-url",
      url,
    ], { stdin: "secret" });
  }
  for (const format of ["", "xml", "JSON"]) {
    add("bad --output-format for config init", [
      "config",
      "init",
      "--non-interactive",
      "--app-id",
      "cli_a1",
      "--app-secret-stdin",
      "--output-format",
      format,
    ], { stdin: "secret" });
  }
  add("config init with an empty secret on stdin", [
    "config",
    "init",
    "--non-interactive",
    "--app-id",
    "cli_a1",
    "--app-secret-stdin",
  ], { stdin: "" });
  add("config init with two secret sources", [
    "config",
    "init",
    "--non-interactive",
    "--app-id",
    "cli_a1",
    "--app-secret",
    "s",
    "--app-secret-stdin",
  ], { stdin: "s" });

  // profile.
  for (const name of BAD_PROFILES) {
    add("bad name for profile use", ["profile", "use", name]);
    add("bad name for profile remove", ["profile", "remove", name]);
  }
  add("profile use without a name", ["profile", "use"]);

  // api.
  for (const method of BAD_METHODS) add("bad api method", ["api", method, "/open-apis/x"]);
  for (const path of BAD_PATHS) add("bad api path", ["api", "GET", path]);
  add("api without a path", ["api", "GET"]);
  add("api without anything", ["api"]);
  for (const json of BAD_JSON) {
    add("bad --params JSON", ["api", "GET", "/open-apis/x", "--params", json]);
    if (json !== "[1, 2]") add("bad --data JSON", ["api", "POST", "/open-apis/x", "--data", json]);
  }
  for (const params of ['{"a": {"b": 1}}', '{"a": [{"b": 1}]}', '{"a": [[1]]}']) {
    add("--params with nested values", ["api", "GET", "/open-apis/x", "--params", params]);
  }
  for (
    const file of [
      `@${files.missing}`,
      `@${files.dir}`,
      `@${files.notJson}`,
      `@${files.empty}`,
      "@",
    ]
  ) {
    add("bad --params file", ["api", "GET", "/open-apis/x", "--params", file]);
    add("bad --data file", ["api", "POST", "/open-apis/x", "--data", file]);
  }
  add("--params and --data both from stdin", [
    "api",
    "POST",
    "/open-apis/x",
    "--params",
    "-",
    "--data",
    "-",
  ], { stdin: "{}" });
  add("--data from empty stdin", ["api", "POST", "/open-apis/x", "--data", "-"], { stdin: "" });
  add("empty --idempotency-key for api", [
    "api",
    "POST",
    "/open-apis/x",
    "--data",
    "{}",
    "--idempotency-key",
    "",
  ]);

  // completion.
  for (const shell of ["", "powershell", "BASH", "bash\u0000", "sh", HUGE]) {
    add("bad completion shell", ["completion", shell]);
  }
  cases.push(...apiCommandCases(files));
  return cases;
}

/**
 * Malformed API commands (issue 24), on a read with path, query and paging, and a write with
 * a typed body and nested objects: every mistake is caught before anything is sent.
 */
function apiCommandCases(files: CorpusFiles): BadCase[] {
  const cases: BadCase[] = [];
  const add = (why: string, argv: string[], extra: Partial<BadCase> = {}) =>
    cases.push({ why, argv, ...extra });
  const view = ["calendar", "events", "instance-view"];
  const viewOk = [...view, "--calendar-id", "primary", "--start-time", "1", "--end-time", "2"];
  const create = ["calendar", "events", "create", "--calendar-id", "primary"];
  const send = ["im", "messages", "create", "--receive-id-type", "chat_id", "--receive-id", "oc_1"];
  add("a required path parameter missing", [...view, "--start-time", "1", "--end-time", "2"]);
  add("a required query parameter missing", [...view, "--calendar-id", "primary"]);
  for (const id of ["", " ", ".", ".."]) {
    add("a path id that is empty or a dot segment", [...viewOk, "--calendar-id", id]);
  }
  for (const value of ["email", "", "OPEN_ID", "open_id\u0000", HUGE]) {
    add("a value outside an enum", [...viewOk, "--user-id-type", value]);
  }
  for (const value of ["ten", "", "1e", "0x10", "1,5", "\u202e5", HUGE_DIGITS + "x"]) {
    add("a number flag that is not a number", [
      "calendar",
      "events",
      "list",
      "--calendar-id",
      "c",
      "--page-size",
      value,
    ]);
  }
  for (const value of ["yes", "1", "", "TRUE\n"]) {
    add("a boolean flag that is not true or false", [...create, "--need-notification", value]);
  }
  for (const json of BAD_JSON) {
    add("bad JSON in --data of an API command", [...create, "--data", json]);
  }
  for (const json of BAD_JSON) {
    add("bad JSON in --params of an API command", [...viewOk, "--params", json]);
  }
  const badBodies: [string, unknown][] = [
    ["the required body field missing", { summary: "x" }],
    ["an unknown body field", {
      start_time: { timestamp: "1" },
      end_time: { timestamp: "2" },
      colour: 1,
    }],
    ["a nested unknown field", { start_time: { timestmp: "1" }, end_time: { timestamp: "2" } }],
    ["a body field of the wrong type", { start_time: "1", end_time: { timestamp: "2" } }],
    ["a nested list of the wrong type", {
      start_time: { timestamp: "1" },
      end_time: { timestamp: "2" },
      attendee_ability: 3,
    }],
  ];
  for (const [why, body] of badBodies) add(why, [...create, "--data", JSON.stringify(body)]);
  // As JSON text: an object literal's __proto__ would set the prototype, not a field.
  add("a field named like a prototype", [
    ...create,
    "--data",
    '{"start_time": {"timestamp": "1"}, "end_time": {"timestamp": "2"}, "__proto__": {"a": 1}}',
  ]);
  add("an unknown query parameter in --params", [...viewOk, "--params", '{"page_sise": 1}']);
  add("a query parameter that is an object", [...viewOk, "--params", '{"user_id_type": {"a": 1}}']);
  add("a body sent to a method that takes none", [...viewOk, "--data", "{}"]);
  for (const file of [files.missing, files.dir, files.notJson, files.jsonArray, files.empty]) {
    add("a bad --data file of an API command", [...create, "--data", `@${file}`]);
  }
  add("--params and --data of an API command both on stdin", [
    ...create,
    "--params",
    "-",
    "--data",
    "-",
  ], { stdin: "{}" });
  add("an identity the method does not accept", [...send, "--msg-type", "text", "--as", "user"]);
  add("--page-all on a method without pages", [...viewOk, "--page-all"]);
  add("--max-pages below one", [
    "calendar",
    "events",
    "list",
    "--calendar-id",
    "c",
    "--page-all",
    "--max-pages",
    "0",
  ]);
  for (
    const argv of [
      ["calendar", "evnts", "list"],
      ["calendar", "events", "lst"],
      ["docx", "document", "create\u0000"],
      ["dcx", "document", "create"],
      ["docx", HUGE],
      ["schema", "calendar.v4.calendarEvent.nope"],
      ["schema", "calendar", "events", "nope"],
      ["schema", "docx", "nope"],
    ]
  ) add("an unknown API service, resource or method", argv);
  return cases;
}

/**
 * `config get` answers 2 for a key that is not a dot path (an empty part, white space, control
 * characters) and 1 ("not found", documented) for a well-formed key that is not set, such as
 * `__proto__.polluted`: it must not read the object's prototype.
 */
function codeOfGet(key: string): number | undefined {
  const malformed = key.split(".").includes("") || /[\s\p{Cc}]/u.test(key);
  return malformed ? undefined : 1;
}
