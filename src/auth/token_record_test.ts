import assert from "node:assert/strict";
import { AuthError } from "../errors/mod.ts";
import {
  parseTokenRecord,
  recordFromGrant,
  REFRESH_BUFFER_MS,
  type TokenRecord,
  tokenState,
} from "./token_record.ts";

const NOW = Date.UTC(2026, 10, 21, 9, 0, 0);
const record: TokenRecord = {
  access_token: "u-a",
  refresh_token: "ur-a",
  expires_at: NOW + 3_600_000,
  refresh_expires_at: NOW + 86_400_000,
  scopes: ["im:message:send"],
  token_type: "Bearer",
};

Deno.test("tokenState() applies the 5-minute buffer before ExpiresAt", () => {
  assert.equal(tokenState(record, record.expires_at - REFRESH_BUFFER_MS - 1), "valid");
  assert.equal(tokenState(record, record.expires_at - REFRESH_BUFFER_MS), "needs_refresh");
  assert.equal(tokenState(record, record.expires_at - 1), "needs_refresh");
  assert.equal(tokenState(record, record.expires_at), "expired");
  assert.equal(tokenState(record, record.refresh_expires_at! - 1), "expired");
  assert.equal(tokenState(record, record.refresh_expires_at!), "refresh_expired");
  const noRefresh = { ...record, refresh_token: undefined };
  assert.equal(tokenState(noRefresh, record.expires_at), "refresh_expired");
});

Deno.test("recordFromGrant() computes expiry times from the answer's lifetimes", () => {
  const fresh = recordFromGrant(
    {
      access_token: "u-b",
      expires_in: 7200,
      refresh_token: "ur-b",
      refresh_token_expires_in: 600,
      scope: "a:b c:d",
    },
    NOW,
  );
  assert.deepEqual(fresh, {
    access_token: "u-b",
    refresh_token: "ur-b",
    expires_at: NOW + 7_200_000,
    refresh_expires_at: NOW + 600_000,
    scopes: ["a:b", "c:d"],
    token_type: "Bearer",
  });
});

Deno.test("recordFromGrant() keeps the old refresh token and scopes when a refresh omits them", () => {
  const next = recordFromGrant({ access_token: "u-c", expires_in: 60 }, NOW, record);
  assert.equal(next.refresh_token, "ur-a");
  assert.equal(next.refresh_expires_at, record.refresh_expires_at);
  assert.deepEqual(next.scopes, ["im:message:send"]);
  assert.equal(next.expires_at, NOW + 60_000);
});

Deno.test("parseTokenRecord() never quotes a corrupt record, even in the error's causes", () => {
  const secret = "u-very-secret-access-token-0123456789";
  for (const text of [`{"access_token": "${secret}", oops}`, `${secret}`, "[]"]) {
    try {
      parseTokenRecord(text, "hark/default/user_token");
      assert.fail("expected an error");
    } catch (error) {
      assert.ok(error instanceof AuthError);
      for (let e: unknown = error; e instanceof Error; e = e.cause) {
        assert.ok(!`${e.message}\n${e.stack}`.includes(secret.slice(0, 10)), String(e));
      }
    }
  }
});

Deno.test("parseTokenRecord() reports a record missing a field as an AuthError, exit 3", () => {
  for (
    const text of [
      '{"expires_at": 1}',
      '{"access_token": "u-a"}',
      '{"access_token": 1, "expires_at": 1}',
      '{"access_token": "u-a", "expires_at": "1"}',
      "null",
    ]
  ) {
    assert.throws(() => parseTokenRecord(text, "hark/default/user_token"), (error: unknown) => {
      assert.ok(error instanceof AuthError, text);
      assert.equal(error.code, 3);
      assert.match(error.message, /"hark\/default\/user_token": it is not a token record/);
      return true;
    });
  }
});

Deno.test("parseTokenRecord() reads optional fields of another type as absent", () => {
  const parsed = parseTokenRecord(
    '{"access_token": "u-a", "expires_at": 5, "refresh_token": 7, "refresh_expires_at": "x",' +
      ' "scopes": ["a", 1, "b"], "token_type": null, "origin": 3}',
    "hark/default/user_token",
  );
  assert.deepEqual(parsed, {
    access_token: "u-a",
    refresh_token: undefined,
    expires_at: 5,
    refresh_expires_at: undefined,
    scopes: ["a", "b"],
    token_type: "Bearer",
  });
});
