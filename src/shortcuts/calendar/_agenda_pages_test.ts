import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { encodeCursor } from "../../json/page_cursor.ts";
import {
  type AgendaBinding,
  type AgendaCursor,
  agendaCursorOf,
  type AgendaPiece,
  agendaToken,
  pageThrough,
  resumedPiece,
} from "./_agenda_pages.ts";

const BINDING: AgendaBinding = {
  calendar: "primary",
  span: { start: 0, end: 365 * 86_400 },
  timeZone: "UTC",
  identity: "user",
  profile: "default",
};

const namesPageToken = (e: unknown) =>
  e instanceof ValidationError && e.param === "--page-token" && e.code === 2;

Deno.test("agendaCursorOf() reads back the cursor of a token made for the same arguments", async () => {
  const first = await agendaCursorOf(undefined, BINDING);
  assert.deepEqual({ piece: first.piece, skip: first.skip }, { piece: 0, skip: 0 });
  const token = agendaToken({ piece: 7, skip: 3 }, first.binding);
  const again = await agendaCursorOf(` ${token} `, { ...BINDING });
  assert.deepEqual({ piece: again.piece, skip: again.skip }, { piece: 7, skip: 3 });
  assert.equal(resumedPiece(token), 7);
  assert.equal(resumedPiece(undefined), 0);
});

Deno.test("agendaCursorOf() refuses a token of other arguments or another listing, naming --page-token", async () => {
  const { binding } = await agendaCursorOf(undefined, BINDING);
  const token = agendaToken({ piece: 1, skip: 0 }, binding);
  for (
    const other of [
      { ...BINDING, calendar: "team" },
      { ...BINDING, span: { start: 0, end: 30 * 86_400 } },
      { ...BINDING, timeZone: "Asia/Tokyo" },
      { ...BINDING, identity: "bot" },
      { ...BINDING, profile: "work" },
    ]
  ) {
    await assert.rejects(
      () => agendaCursorOf(token, other),
      (e: unknown) => namesPageToken(e) && /another calendar, span/.test((e as Error).message),
    );
  }
  // A token of MCP's pages (an offset) with the same binding is no agenda cursor.
  const mcp = encodeCursor({ o: 20, b: binding });
  // Lark's own page tokens, text that is no token, a negative position.
  for (
    const bad of [mcp, "ZmFrZV90b2tlbg", "h1.!!", agendaToken({ piece: -1, skip: 0 }, binding)]
  ) {
    await assert.rejects(
      () => agendaCursorOf(bad, BINDING),
      (e: unknown) =>
        namesPageToken(e) && /not a token calendar \+agenda printed/.test((e as Error).message),
    );
  }
});

async function* piecesOf(rows: string[][], from = 0): AsyncGenerator<AgendaPiece<string>> {
  for (let index = from; index < rows.length; index++) yield { index, rows: rows[index] };
}

async function page(rows: string[][], start: AgendaCursor, limit?: number) {
  const more: AgendaCursor[] = [];
  const got: string[] = [];
  for await (const batch of pageThrough(piecesOf(rows), start, limit, (c) => more.push(c))) {
    got.push(...batch);
  }
  return { got, more: more[0] };
}

Deno.test("pageThrough() cuts at the limit inside a piece and resumes at the first event left out", async () => {
  const rows = [["a", "b", "c"], [], ["d", "e"], ["f"]];
  const first = await page(rows, { piece: 0, skip: 0 }, 2);
  assert.deepEqual(first, { got: ["a", "b"], more: { piece: 0, skip: 2 } });
  const second = await page(rows, first.more, 2);
  // The cut falls at the end of a piece: the cursor is the next piece that has events.
  assert.deepEqual(second, { got: ["c", "d"], more: { piece: 2, skip: 1 } });
  const third = await page(rows, second.more, 2);
  assert.deepEqual(third, { got: ["e", "f"], more: undefined });
  assert.deepEqual(await page(rows, { piece: 0, skip: 3 }, 1), {
    got: ["d"],
    more: { piece: 2, skip: 1 },
  });
});

Deno.test("pageThrough() says nothing more when the cut falls on the last event, or without a limit", async () => {
  const rows = [["a"], ["b", "c"], [], []];
  assert.deepEqual(await page(rows, { piece: 0, skip: 0 }, 3), {
    got: ["a", "b", "c"],
    more: undefined,
  });
  assert.deepEqual(await page(rows, { piece: 0, skip: 0 }), {
    got: ["a", "b", "c"],
    more: undefined,
  });
  // The piece before the one resumed at is read for what it carries, never printed.
  assert.deepEqual(await page(rows, { piece: 1, skip: 1 }, 5), { got: ["c"], more: undefined });
});
