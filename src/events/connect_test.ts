import assert from "node:assert/strict";
import { ApiError } from "../errors/mod.ts";
import { checkConnectionUrl } from "./connect.ts";

const LARK = new URL("https://open.feishu.cn");
const LOCAL = new URL("http://127.0.0.1:8080");

Deno.test("checkConnectionUrl() opens wss: on the service's own domain only", () => {
  const ok = "wss://msg-frontier.feishu.cn/ws/v2?device_id=1&service_id=2&ticket=secret";
  assert.equal(checkConnectionUrl(ok, LARK).host, "msg-frontier.feishu.cn");
  for (const bad of ["wss://evil.example/ws", "wss://feishu.cn.evil.example/ws"]) {
    assert.throws(() => checkConnectionUrl(bad, LARK), ApiError);
  }
});

Deno.test("checkConnectionUrl() refuses ws: off loopback, other schemes, and loopback for a remote service", () => {
  const refused = (raw: string, base: URL) =>
    assert.throws(() => checkConnectionUrl(raw, base), ApiError);
  refused("ws://msg-frontier.feishu.cn/ws", LARK);
  refused("https://msg-frontier.feishu.cn/ws", LARK);
  refused("ws://127.0.0.1:9/ws", LARK);
  refused("not a url", LARK);
  refused("ws://10.0.0.5/ws", LOCAL);
  assert.equal(checkConnectionUrl("ws://127.0.0.1:9/ws/v2?ticket=t", LOCAL).port, "9");
});

Deno.test("checkConnectionUrl() names the refused host, never the URL's ticket", () => {
  try {
    checkConnectionUrl("wss://evil.example/ws?ticket=s3cret", LARK);
    assert.fail("accepted");
  } catch (error) {
    assert.ok(error instanceof ApiError);
    assert.match(error.message, /evil\.example/);
    assert.doesNotMatch(error.message, /s3cret/);
  }
});
