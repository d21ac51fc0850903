import assert from "node:assert/strict";
import { drawConversation } from "./conversation.ts";
import { textWidth } from "../../output/text_width.ts";

const ID_1 = `om_${"1".repeat(32)}`;
const ID_2 = `om_${"2".repeat(32)}`;
const ID_3 = `om_${"3".repeat(32)}`;
const LONG = "Deploy finished on staging, smoke tests green, rolling out to production now; " +
  "watch the dashboards for the next hour and page me if the error rate moves";

/** Rows as `+messages` reads them by default: newest first. */
const ROWS = [
  {
    message_id: ID_3,
    msg_type: "interactive",
    create_time: "2026-11-23T09:40:00Z",
    sender: { id: "cli_1", sender_type: "app" },
    text: "[card] Build #42 passed",
  },
  {
    message_id: ID_2,
    msg_type: "text",
    thread_id: "omt_1",
    create_time: "2026-11-23T09:31:00Z",
    sender: { id: "ou_2", sender_name: "Quentin Anderson" },
    text: "Thanks!\nWatching.",
  },
  {
    message_id: ID_1,
    msg_type: "text",
    create_time: "2026-11-23T09:30:00Z",
    sender: { id: "ou_1", sender_name: "Grace Zhang" },
    text: LONG,
  },
];

Deno.test("drawConversation() reads oldest to newest: sender, time and id, then the text", () => {
  const text = drawConversation(ROWS, { timeZone: "UTC", width: 80 });
  assert.equal(
    text,
    `Grace Zhang · 2026-11-23 09:30 · ${ID_1}\n` +
      "  Deploy finished on staging, smoke tests green, rolling out to production now;\n" +
      "  watch the dashboards for the next hour and page me if the error rate moves\n" +
      "\n" +
      `Quentin Anderson · 2026-11-23 09:31 · ${ID_2} · thread omt_1\n` +
      "  Thanks!\n" +
      "  Watching.\n" +
      "\n" +
      `app cli_1 · 2026-11-23 09:40 · ${ID_3} · interactive\n` +
      "  [card] Build #42 passed\n",
  );
});

Deno.test("drawConversation() wraps to the width, never cuts, and escapes server text", () => {
  const rows = [{ ...ROWS[2], text: `${LONG} \x1b[2J` }];
  const text = drawConversation(rows, { timeZone: "UTC", width: 40 });
  const body = text.split("\n").slice(1).filter((l) => l !== "");
  for (const line of body) assert.ok(textWidth(line) <= 40, line);
  assert.equal(body.map((l) => l.trim()).join(" "), `${LONG} \\x1b[2J`);
  assert.ok(!text.includes("\x1b"));
});
