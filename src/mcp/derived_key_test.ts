import assert from "node:assert/strict";
import { canonicalJson, DerivedKeys, KEY_WINDOW_MINUTES } from "./derived_key.ts";

const MINUTE = 60_000;
const FACTS = {
  tool: "im_send",
  profile: "default",
  identity: "user" as const,
  arguments: { chat_id: "oc_1", text: "deploy finished" },
};

Deno.test("canonicalJson() sorts keys at every level, so key order never matters", () => {
  assert.equal(
    canonicalJson({ b: [{ d: 1, c: null }], a: "x", skip: undefined }),
    '{"a":"x","b":[{"c":null,"d":1}]}',
  );
  assert.equal(canonicalJson({ a: 1, b: 2 }), canonicalJson({ b: 2, a: 1 }));
  assert.equal(canonicalJson("é\n"), '"é\\n"');
});

Deno.test("DerivedKeys gives identical calls one UUID-shaped key within the window", async () => {
  let now = Date.UTC(2026, 10, 21, 9, 3);
  const keys = new DerivedKeys(() => now);
  const first = await keys.keyOf(FACTS);
  assert.match(first, /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.ok(first.length <= 50, "IM's uuid takes at most 50 characters");
  const reordered = { ...FACTS, arguments: { text: "deploy finished", chat_id: "oc_1" } };
  now += 4 * MINUTE;
  assert.equal(await keys.keyOf(reordered), first);
  // Past the clock's window edge (09:10) but within ten minutes of the first call: kept.
  now += 5 * MINUTE;
  assert.equal(await keys.keyOf(FACTS), first);
  // Ten minutes after the first call, the same call is a new one.
  now += (KEY_WINDOW_MINUTES - 9) * MINUTE;
  const later = await keys.keyOf(FACTS);
  assert.notEqual(later, first);
  assert.equal(await keys.keyOf(FACTS), later);
});

Deno.test("DerivedKeys: another argument, tool, profile or identity is another call", async () => {
  const now = Date.UTC(2026, 10, 21, 9, 0);
  const keys = new DerivedKeys(() => now);
  const base = await keys.keyOf(FACTS);
  const others = await Promise.all([
    keys.keyOf({ ...FACTS, arguments: { ...FACTS.arguments, text: "deploy failed" } }),
    keys.keyOf({ ...FACTS, tool: "im_reply" }),
    keys.keyOf({ ...FACTS, profile: "work" }),
    keys.keyOf({ ...FACTS, identity: "bot" }),
  ]);
  assert.equal(new Set([base, ...others]).size, 5);
});

Deno.test("DerivedKeys: a new server derives the same key within the same clock window", async () => {
  const now = Date.UTC(2026, 10, 21, 9, 2);
  const first = await new DerivedKeys(() => now).keyOf(FACTS);
  assert.equal(await new DerivedKeys(() => now + 7 * MINUTE).keyOf(FACTS), first);
  assert.notEqual(await new DerivedKeys(() => now + 8 * MINUTE).keyOf(FACTS), first);
});
