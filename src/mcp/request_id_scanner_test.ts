import assert from "node:assert/strict";
import { RequestIdScanner } from "./request_id_scanner.ts";

function idOf(...pieces: string[]): string | number | undefined {
  const scanner = new RequestIdScanner();
  for (const piece of pieces) scanner.feed(piece);
  return scanner.id;
}

Deno.test("RequestIdScanner finds the top-level id wherever it is, in pieces", () => {
  const params = `{"name":"im_send","arguments":{"text":"${"x".repeat(1000)}"}}`;
  const sdkOrder = `{"method":"tools/call","params":${params},"jsonrpc":"2.0","id":42}`;
  assert.equal(idOf(sdkOrder), 42);
  assert.equal(idOf(...sdkOrder.match(/.{1,7}/gs)!), 42, "split anywhere");
  assert.equal(idOf(`{"jsonrpc":"2.0","id":"req-7","method":"x","params":${params}}`), "req-7");
  assert.equal(idOf(`{ "id" : 3 , "method": "x"}`), 3);
});

Deno.test("RequestIdScanner ignores ids that are nested, quoted, or not ids at all", () => {
  assert.equal(idOf(`{"method":"x","params":{"id":5,"arguments":{"id":6}}}`), undefined);
  assert.equal(idOf(`{"method":"x","params":{"text":"\\",\\"id\\":9}"}}`), undefined);
  assert.equal(idOf(`{"id":1.5,"method":"x"}`), undefined);
  assert.equal(idOf(`{"id":null,"method":"x"}`), undefined);
  assert.equal(idOf(`{"id":{"a":1},"method":"x"}`), undefined);
  assert.equal(idOf(`[{"id":1},{"id":2}]`), undefined, "a batch has no one id");
  assert.equal(idOf(`{"identity":4,"method":"x"}`), undefined);
  assert.equal(idOf(`not json at all "id": 4`), undefined);
  assert.equal(idOf(`{"method":"x","params":{"deep":${"[".repeat(10_000)}`), undefined);
});
