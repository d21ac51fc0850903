import assert from "node:assert/strict";
import { classifyFetchFailure, describeChain } from "./fetch_failure.ts";

Deno.test("classifyFetchFailure() tells refused connections and DNS failures from drops", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const refused = await fetch(`http://127.0.0.1:${port}/`).catch((e) => e);
  assert.equal(classifyFetchFailure(refused), "connect");
  const dns = new TypeError("fetch failed", {
    cause: new Error("client error (Connect): dns error: failed to lookup address information"),
  });
  assert.equal(classifyFetchFailure(dns), "dns");
  const dropped = new TypeError("fetch failed", {
    cause: new Error("client error (SendRequest): connection closed before message completed"),
  });
  assert.equal(classifyFetchFailure(dropped), "sent");
  assert.equal(classifyFetchFailure("weird"), "sent");
});

Deno.test("describeChain() joins the messages of an error and its causes", () => {
  const error = new Error("outer", { cause: new Error("inner") });
  assert.equal(describeChain(error), "outer: inner");
});
