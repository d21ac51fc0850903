/**
 * The rest of the idempotency `hark mcp` claims, end to end with the SDK's client against the
 * sandbox (issue 25, item 1): every write tool hinted idempotent that `mcp_idempotency_test.ts`
 * does not call is called twice with identical arguments, and what the sandbox (or the --files
 * folder) holds after the second call is what it held after the first. A last step lists the
 * tools and fails for a write tool hinted idempotent that no test here or there calls twice.
 * One server (with a --files folder) and one sandbox for the whole file.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { createShortcutEnv, type ShortcutEnv } from "../shortcuts/_shortcut_env.ts";
import { connectHarkMcp, type HarkMcp } from "./_mcp_client.ts";

/** The tools `mcp_idempotency_test.ts` calls twice. */
const CHECKED_THERE = [
  "im_send",
  "im_reply",
  "calendar_create",
  "im_chat_create",
  "im_chat_members_add",
];

/** The tools this file calls twice, one step each. */
const CHECKED_HERE = [
  "calendar_delete",
  "calendar_find_time",
  "calendar_rsvp",
  "calendar_update",
  "im_download",
  "im_pin",
  "im_unpin",
  "im_forward",
  "im_chat_update",
  "im_chat_members_remove",
];

interface ToolJson {
  name: string;
  annotations?: { readOnlyHint?: boolean; idempotentHint?: boolean };
}

type Result = Awaited<ReturnType<HarkMcp["client"]["callTool"]>>;

async function attempt(mcp: HarkMcp, name: string, args: Record<string, unknown>) {
  return await mcp.client.callTool({ name, arguments: args });
}

function structured(name: string, result: Result): Record<string, unknown> {
  assert.equal(result.isError, undefined, `${name}: ${JSON.stringify(result)}`);
  return result.structuredContent as Record<string, unknown>;
}

async function call(mcp: HarkMcp, name: string, args: Record<string, unknown>) {
  return structured(name, await attempt(mcp, name, args));
}

/** A listing tool's rows. */
async function rows<T>(mcp: HarkMcp, name: string, args: Record<string, unknown>): Promise<T[]> {
  return (await call(mcp, name, { ...args, page_all: true })).items as T[];
}

/** The business requests the sandbox saw since the last clear, as "METHOD path". */
async function sent(env: ShortcutEnv): Promise<string[]> {
  return (await env.requests()).map((r) => `${r.method} ${r.path}`);
}

function day(offset: number, time: string): string {
  const date = new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return `${date} ${time}`;
}

async function names(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

Deno.test("hark mcp: the other tools hinted idempotent apply an identical call once", async (t) => {
  const env = await createShortcutEnv();
  const folder = await Deno.realPath(await Deno.makeTempDir());
  const mcp = await connectHarkMcp(
    { ...env.hark.env, HARK_USER_ACCESS_TOKEN: env.token },
    ["--files", folder],
  );
  const [me, ann, bob] = env.sb.users;
  const twice = async (name: string, args: Record<string, unknown>) => {
    const first = await call(mcp, name, args);
    const second = await call(mcp, name, args);
    return [first, second];
  };
  const eventsNamed = async (summary: string) =>
    (await env.get<{ summary: string; deleted?: boolean }[]>("/sandbox/events")).filter((e) =>
      e.summary === summary
    );
  try {
    await t.step("calendar_update twice sets the fields and adds the attendee once", async () => {
      const created = await call(mcp, "calendar_create", {
        summary: "Update me",
        start: day(5, "09:00"),
        end: day(5, "10:00"),
      });
      const args = {
        event_id: created.event_id,
        summary: "Updated",
        add_attendees: ann.open_id,
        yes: true,
      };
      const [first, second] = await twice("calendar_update", args);
      assert.deepEqual(first.attendees_added, [ann.open_id]);
      assert.deepEqual(second.attendees_added, [], "the attendee is there already");
      assert.deepEqual(second.changes, [], "the summary is set already");
      assert.deepEqual(second.event, first.event);
      assert.equal((await eventsNamed("Updated")).length, 1);
      const get = await call(mcp, "calendar_get", { event_id: created.event_id });
      const attendees = (get.attendees as { user_id: string }[]).map((a) => a.user_id);
      assert.equal(attendees.filter((id) => id === ann.open_id).length, 1, String(attendees));
    });

    await t.step("calendar_delete twice deletes once; the retry finds it gone", async () => {
      const created = await call(mcp, "calendar_create", {
        summary: "Delete me",
        start: day(6, "09:00"),
        end: day(6, "10:00"),
      });
      const path = `/open-apis/calendar/v4/calendars/primary/events/${created.event_id}`;
      await env.clearRequests();
      const args = { event_id: created.event_id, yes: true };
      const first = await call(mcp, "calendar_delete", args);
      assert.deepEqual([first.deleted, first.already_deleted], [true, false]);
      const second = await attempt(mcp, "calendar_delete", args);
      // The retry reads the event first and stops there: nothing more is deleted. (An answer
      // that says so is an error, not_found, or a success marked already_deleted.)
      if (second.isError) {
        const { error } = second.structuredContent as { error: { type: string } };
        assert.equal(error.type, "not_found", JSON.stringify(second));
      } else assert.equal(structured("calendar_delete", second).already_deleted, true);
      assert.deepEqual(await sent(env), [`GET ${path}`, `DELETE ${path}`, `GET ${path}`]);
      const events = await eventsNamed("Delete me");
      assert.deepEqual(events.map((e) => e.deleted), [true]);
    });

    await t.step("calendar_find_time with create twice books one meeting", async () => {
      const args = {
        attendees: `${ann.open_id},${bob.open_id}`,
        duration: "30m",
        start: day(8, "00:00"),
        end: day(11, "00:00"),
        include_weekends: true,
        create: true,
        summary: "Found twice",
      };
      const [first, second] = await twice("calendar_find_time", args);
      assert.equal(second.event_id, first.event_id);
      assert.equal((await eventsNamed("Found twice")).length, 1);
    });

    await t.step("calendar_rsvp twice sets the answer once", async () => {
      const agenda = (await call(mcp, "calendar_agenda", {
        start: day(1, "00:00"),
        end: day(15, "00:00"),
        limit: 200,
      })).items as { event_id: string; self_rsvp_status: string }[];
      const invitation = agenda.find((e) => e.self_rsvp_status !== "accept");
      assert.ok(invitation, JSON.stringify(agenda));
      const before = await call(mcp, "calendar_get", { event_id: invitation.event_id });
      await env.clearRequests();
      const args = { event_id: invitation.event_id, status: "tentative" };
      const [first, second] = await twice("calendar_rsvp", args);
      assert.deepEqual(second, first);
      const after = await call(mcp, "calendar_get", { event_id: invitation.event_id });
      assert.equal(after.self_rsvp_status, "tentative");
      const count = (event: Record<string, unknown>) => (event.attendees as unknown[]).length;
      assert.equal(count(after), count(before), "nobody was added or removed");
      const replies = (await sent(env)).filter((r) => r.endsWith("/reply"));
      assert.equal(replies.length, 2, "each call sets the answer; the second changes nothing");
    });

    await t.step("im_pin twice pins once, im_unpin twice takes it off", async () => {
      const chat = env.sb.chats[0].chat_id;
      const message = await call(mcp, "im_send", { chat_id: chat, text: "pin me" });
      const pinned = async () =>
        (await rows<{ message_id: string }>(mcp, "im_pins", { chat_id: chat }))
          .filter((p) => p.message_id === message.message_id).length;
      const [first, second] = await twice("im_pin", { message_id: message.message_id });
      assert.deepEqual(second, first, "the pin there is, made once");
      assert.equal(await pinned(), 1);
      const [off, again] = await twice("im_unpin", { message_id: message.message_id, yes: true });
      assert.deepEqual(again, off);
      assert.equal(await pinned(), 0);
      assert.equal(
        (await env.get<{ message_id: string }[]>("/sandbox/messages"))
          .filter((m) => m.message_id === message.message_id).length,
        1,
        "the message stays",
      );
    });

    await t.step("im_forward twice forwards once", async () => {
      const [from, to] = env.sb.chats.filter((c) => c.bot_member);
      const message = await call(mcp, "im_send", { chat_id: from.chat_id, text: "forward me" });
      const [first, second] = await twice("im_forward", {
        message_id: message.message_id,
        chat_id: to.chat_id,
      });
      assert.equal(second.message_id, first.message_id);
      const copies = (await env.get<{ chat_id: string; body: { content: string } }[]>(
        "/sandbox/messages",
      )).filter((m) => m.body.content === JSON.stringify({ text: "forward me" }));
      assert.deepEqual(copies.map((m) => m.chat_id), [from.chat_id, to.chat_id]);
    });

    await t.step(
      "im_chat_update and im_chat_members_remove twice change the chat once",
      async () => {
        const room = await call(mcp, "im_chat_create", {
          name: "Effects room",
          members: `${ann.open_id},${bob.open_id}`,
        });
        const [first, second] = await twice("im_chat_update", {
          chat_id: room.chat_id,
          name: "Renamed room",
          yes: true,
        });
        assert.deepEqual(second, first);
        const chats = (await rows<{ chat_id: string; name: string }>(mcp, "im_chats", {}))
          .filter((c) => c.chat_id === room.chat_id);
        assert.deepEqual(chats.map((c) => c.name), ["Renamed room"]);

        const members = async () =>
          (await rows<{ member_id: string }>(mcp, "im_chat_members", { chat_id: room.chat_id }))
            .map((m) => m.member_id).sort();
        const args = { chat_id: room.chat_id, members: bob.open_id, yes: true };
        const removed = await call(mcp, "im_chat_members_remove", args);
        assert.deepEqual(removed.items, [{ member_id: bob.open_id, status: "removed" }]);
        const once = await members();
        assert.deepEqual(once, [me.open_id, ann.open_id].sort());
        const again = await call(mcp, "im_chat_members_remove", args);
        // Lark answers a member already gone as one it could not remove; nobody else goes.
        assert.deepEqual(again.items, [{ member_id: bob.open_id, status: "refused" }]);
        assert.deepEqual(await members(), once);
      },
    );

    await t.step("im_download twice leaves one file", async () => {
      await Deno.writeTextFile(join(folder, "report.txt"), "quarterly numbers");
      const chat = env.sb.chats[0].chat_id;
      const message = await call(mcp, "im_send", { chat_id: chat, file: "report.txt" });
      const sentMessage = (await env.get<{ message_id: string; body: { content: string } }[]>(
        "/sandbox/messages",
      )).find((m) => m.message_id === message.message_id)!;
      const key = JSON.parse(sentMessage.body.content).file_key as string;
      const args = { message_id: message.message_id, key, output: "copy.txt" };
      await call(mcp, "im_download", args);
      // Without force the retry writes nothing and says why.
      const refused = await attempt(mcp, "im_download", args);
      assert.equal(refused.isError, true);
      assert.match(JSON.stringify(refused.structuredContent), /a file is already there/);
      const forced = { ...args, force: true, yes: true };
      const [first, second] = await twice("im_download", forced);
      assert.deepEqual(second, first);
      await Deno.mkdir(join(folder, "in"));
      await twice("im_download", { ...forced, output: "in/" });
      assert.deepEqual(await names(folder), ["copy.txt", "in", "report.txt"]);
      assert.deepEqual(await names(join(folder, "in")), ["report.txt"]);
      assert.equal(await Deno.readTextFile(join(folder, "copy.txt")), "quarterly numbers");
      assert.equal(await Deno.readTextFile(join(folder, "in", "report.txt")), "quarterly numbers");
    });

    await t.step("every write tool hinted idempotent is called twice by a test", async () => {
      const { tools } = await mcp.client.listTools() as { tools: ToolJson[] };
      const claimed = tools.filter((tool) =>
        tool.annotations?.readOnlyHint === false && tool.annotations?.idempotentHint === true
      ).map((tool) => tool.name);
      const checked = new Set([...CHECKED_THERE, ...CHECKED_HERE]);
      const unchecked = claimed.filter((name) => !checked.has(name));
      assert.deepEqual(unchecked, [], "hinted idempotent, never called twice against the sandbox");
      // And the list here claims nothing the server does not hint.
      assert.deepEqual(CHECKED_HERE.filter((name) => !claimed.includes(name)), []);
      assert.ok(claimed.length >= CHECKED_HERE.length + CHECKED_THERE.length, String(claimed));
    });
  } finally {
    await mcp.close();
    await env.close();
    await Deno.remove(folder, { recursive: true });
  }
});
