import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestContext, FetchStub, jsonResponse } from "../../tests/support/test_context.ts";
import { MemoryKeychain } from "../keychain/memory_keychain.ts";
import { AuthError, HarkError } from "../errors/mod.ts";
import type { Config } from "../config/mod.ts";
import { createTokenSource, FIRST_USE_MS, loadedOnUse } from "./create_token_source.ts";
import type { TokenRecord } from "./token_record.ts";

const NOW = Date.UTC(2026, 10, 21, 9, 0, 0);
const BASE = "https://open.example.test";
const TOKEN_URL = `${BASE}/open-apis/authen/v2/oauth/token`;

function record(overrides: Partial<TokenRecord> = {}): TokenRecord {
  return {
    access_token: "u-old",
    refresh_token: "ur-old",
    expires_at: NOW + 120_000,
    refresh_expires_at: NOW + 86_400_000,
    scopes: ["im:message:send"],
    token_type: "Bearer",
    ...overrides,
  };
}

async function setup(stored: TokenRecord | undefined, expected: FetchStub) {
  const dir = await Deno.makeTempDir({ prefix: "hark-auth-" });
  const configPath = join(dir, "config.json");
  // A config at a path of its own: it reads only the entries of its namespace.
  const config: Config = {
    keychain_namespace: "t1",
    apps: { default: { app_id: "cli_a", app_secret: "@plain:s3cret", base_url: BASE } },
    users: {
      default: {
        access_token: "@keychain:hark/t1/default/user_token",
        user_type: "user",
        name: "Ann",
      },
    },
  };
  await Deno.writeTextFile(configPath, JSON.stringify(config));
  const keychain = new MemoryKeychain(
    stored ? { "hark/t1/default/user_token": JSON.stringify(stored) } : {},
  );
  const ctx = createTestContext({ now: NOW, fetch: expected.fetch, keychain });
  const source = createTokenSource(ctx, {
    config,
    profile: "default",
    configPath,
    identity: "user",
  });
  return { ctx, source, configPath, dir, keychain };
}

function refreshAnswer(request: Request, seen: string[]): Promise<Response> {
  return request.text().then((body) => {
    const form = new URLSearchParams(body);
    seen.push(form.get("refresh_token") ?? "");
    assert.equal(form.get("grant_type"), "refresh_token");
    assert.equal(form.get("client_id"), "cli_a");
    assert.equal(form.get("client_secret"), "s3cret");
    assert.equal(request.headers.get("authorization"), null);
    return jsonResponse({
      code: 0,
      access_token: "u-new",
      refresh_token: "ur-new",
      expires_in: 7200,
      refresh_token_expires_in: 86400,
      scope: "im:message:send",
    });
  });
}

Deno.test("createTokenSource() uses a valid stored token without any request", async () => {
  const stub = new FetchStub([]);
  const { source, dir } = await setup(record({ expires_at: NOW + 3_600_000 }), stub);
  const token = await source.getToken();
  assert.equal(token.token, "u-old");
  assert.equal(token.source, "keychain");
  stub.verify();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("createTokenSource() refreshes once for concurrent callers and stores the rotated token", async () => {
  const seen: string[] = [];
  const stub = new FetchStub([
    { method: "POST", url: TOKEN_URL, respond: (r) => refreshAnswer(r, seen) },
  ]);
  const { source, keychain, configPath, dir } = await setup(record(), stub);
  const tokens = await Promise.all([source.getToken(), source.getToken(), source.getToken()]);
  assert.deepEqual(tokens.map((t) => t.token), ["u-new", "u-new", "u-new"]);
  assert.deepEqual(seen, ["ur-old"]);
  stub.verify();
  const stored = JSON.parse(keychain.entries.get("hark/t1/default/user_token")!);
  assert.equal(stored.refresh_token, "ur-new");
  assert.equal(stored.expires_at, NOW + 7_200_000);
  const config = JSON.parse(await Deno.readTextFile(configPath));
  assert.equal(config.users.default.expires_at, new Date(NOW + 7_200_000).toISOString());
  assert.equal(await Deno.stat(`${configPath}.refresh-default.lock`).catch(() => null), null);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("createTokenSource() refreshes an expired token while the refresh token lives", async () => {
  const seen: string[] = [];
  const stub = new FetchStub([
    { method: "POST", url: TOKEN_URL, respond: (r) => refreshAnswer(r, seen) },
  ]);
  const { source, dir } = await setup(record({ expires_at: NOW - 1000 }), stub);
  assert.equal((await source.getToken()).token, "u-new");
  stub.verify();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("createTokenSource() asks to sign in again when the refresh token expired too", async () => {
  const stub = new FetchStub([]);
  const { source, dir } = await setup(
    record({ expires_at: NOW - 1000, refresh_expires_at: NOW - 1 }),
    stub,
  );
  await assert.rejects(source.getToken(), (e) => {
    assert.ok(e instanceof AuthError);
    assert.equal(e.code, 3);
    assert.match(e.message, /Session expired for profile "default": sign in again/);
    assert.equal(e.recovery.command, "hark auth login");
    return true;
  });
  stub.verify();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("createTokenSource() turns invalid_grant on refresh into an AuthError", async () => {
  const stub = new FetchStub([{
    method: "POST",
    url: TOKEN_URL,
    respond: () => jsonResponse({ error: "invalid_grant", error_description: "used" }, 400),
  }]);
  const { source, dir } = await setup(record(), stub);
  await assert.rejects(source.getToken(), (e) => e instanceof AuthError && e.code === 3);
  stub.verify();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("createTokenSource() keeps the stored token when a refresh fails for a transient cause", async () => {
  const stub = new FetchStub([{
    method: "POST",
    url: TOKEN_URL,
    respond: () => jsonResponse({ code: 500000, msg: "unavailable" }, 503),
  }]);
  const { source, keychain, dir } = await setup(record(), stub);
  // Classified as a business call's answer would be: the spec's 500000 is exit 4.
  await assert.rejects(
    source.getToken(),
    (e) => e instanceof HarkError && e.type === "server_error" && e.code === 4,
  );
  assert.equal(
    JSON.parse(keychain.entries.get("hark/t1/default/user_token")!).refresh_token,
    "ur-old",
  );
  stub.verify();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("refreshAfterRejection() refreshes a rejected valid token once", async () => {
  const seen: string[] = [];
  const stub = new FetchStub([
    { method: "POST", url: TOKEN_URL, respond: (r) => refreshAnswer(r, seen) },
  ]);
  const { source, dir } = await setup(record({ expires_at: NOW + 3_600_000 }), stub);
  assert.equal((await source.getToken()).token, "u-old");
  const again = await Promise.all([
    source.refreshAfterRejection("u-old"),
    source.refreshAfterRejection("u-old"),
  ]);
  assert.deepEqual(again.map((t) => t.token), ["u-new", "u-new"]);
  assert.equal((await source.refreshAfterRejection("u-old")).token, "u-new");
  assert.deepEqual(seen, ["ur-old"]);
  stub.verify();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("createTokenSource() reports 'Not signed in' with no stored token", async () => {
  const { source, dir } = await setup(undefined, new FetchStub([]));
  await assert.rejects(
    source.getToken(),
    (e) => e instanceof AuthError && e.message === 'Not signed in to profile "default"',
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("createTokenSource() for the bot caches the tenant token in memory and the keychain", async () => {
  const stub = new FetchStub([{
    method: "POST",
    url: `${BASE}/open-apis/auth/v3/tenant_access_token/internal`,
    respond: async (r) => {
      assert.deepEqual(await r.json(), { app_id: "cli_a", app_secret: "s3cret" });
      return jsonResponse({ code: 0, msg: "ok", tenant_access_token: "t-1", expire: 7200 });
    },
  }]);
  const { ctx, dir, keychain, configPath } = await setup(undefined, stub);
  const config: Config = {
    keychain_namespace: "ns1",
    apps: { default: { app_id: "cli_a", app_secret: "@plain:s3cret", base_url: BASE } },
  };
  const bot = createTokenSource(ctx, { config, profile: "default", configPath, identity: "bot" });
  assert.equal((await bot.getToken()).token, "t-1");
  assert.equal((await bot.getToken()).token, "t-1");
  const other = createTokenSource(ctx, { config, profile: "default", configPath, identity: "bot" });
  assert.equal((await other.getToken()).token, "t-1");
  stub.verify();
  const cached = JSON.parse(keychain.entries.get("hark/ns1/default/tenant_token")!);
  assert.deepEqual(cached, {
    token: "t-1",
    expires_at: NOW + 7_200_000,
    app_id: "cli_a",
    origin: new URL(BASE).origin,
  });
  await Deno.remove(dir, { recursive: true });
});

Deno.test("createTokenSource() prefers HARK_TENANT_ACCESS_TOKEN for the bot", async () => {
  const ctx = createTestContext({ env: { HARK_TENANT_ACCESS_TOKEN: "t-env" } });
  const bot = createTokenSource(ctx, {
    config: {},
    profile: "default",
    configPath: "/none",
    identity: "bot",
  });
  const token = await bot.getToken();
  assert.equal(token.token, "t-env");
  assert.equal(token.source, "env");
});

Deno.test("createTokenSource() takes HARK_USER_ACCESS_TOKEN without reading the config file", async () => {
  // The sign-in mark guards tokens read from the keychain; an environment token needs none.
  const base = createTestContext({ env: { HARK_USER_ACCESS_TOKEN: "u-env" } });
  const used: string[] = [];
  const fs = new Proxy(base.fs, {
    get(target, key) {
      const member = Reflect.get(target, key);
      if (typeof member !== "function") return member;
      return (...args: unknown[]) => {
        used.push(String(key));
        return Reflect.apply(member, target, args);
      };
    },
  });
  const ctx = Object.create(base, { fs: { value: fs } });
  const source = createTokenSource(ctx, {
    config: {},
    profile: "default",
    configPath: "/none/config.json",
    identity: "user",
  });
  const token = await source.getToken();
  assert.equal(token.token, "u-env");
  assert.equal(token.source, "env");
  assert.deepEqual(used, []);
});

Deno.test("createTokenSource() tries a refresh once more when the token endpoint is busy (20050)", async () => {
  const seen: string[] = [];
  const busy = () => jsonResponse({ code: 20050, msg: "busy" }, 500);
  const stub = new FetchStub([
    { method: "POST", url: TOKEN_URL, respond: busy },
    { method: "POST", url: TOKEN_URL, respond: (r) => refreshAnswer(r, seen) },
  ]);
  const { source, dir } = await setup(record(), stub);
  assert.equal((await source.getToken()).token, "u-new");
  stub.verify();
  await Deno.remove(dir, { recursive: true });

  // One more try only: busy twice fails, the stored sign-in kept.
  const twice = new FetchStub([
    { method: "POST", url: TOKEN_URL, respond: busy },
    { method: "POST", url: TOKEN_URL, respond: busy },
  ]);
  const again = await setup(record(), twice);
  await assert.rejects(again.source.getToken(), (e) => {
    assert.ok(e instanceof HarkError);
    assert.equal(e.type, "server_error");
    assert.match(e.recovery.suggestion ?? "", /stored sign-in is kept/);
    return true;
  });
  twice.verify();
  await Deno.remove(again.dir, { recursive: true });
});

Deno.test("createTokenSource() for the bot fetches again when the cached entry has a mistyped field", async () => {
  const config: Config = {
    keychain_namespace: "ns1",
    apps: { default: { app_id: "cli_a", app_secret: "@plain:s3cret", base_url: BASE } },
  };
  const good = { token: "t-cached", expires_at: NOW + 3_600_000, app_id: "cli_a", origin: BASE };
  const damaged = [
    { ...good, expires_at: String(good.expires_at) },
    { ...good, token: 5 },
    { ...good, app_id: 5 },
    { ...good, origin: null },
  ];
  for (const entry of [good, ...damaged]) {
    const fetched = entry !== good;
    const stub = new FetchStub(
      fetched
        ? [{
          method: "POST",
          url: `${BASE}/open-apis/auth/v3/tenant_access_token/internal`,
          respond: () => jsonResponse({ code: 0, tenant_access_token: "t-new", expire: 7200 }),
        }]
        : [],
    );
    const keychain = new MemoryKeychain({
      "hark/ns1/default/tenant_token": JSON.stringify(entry),
    });
    const ctx = createTestContext({ now: NOW, fetch: stub.fetch, keychain });
    const bot = createTokenSource(ctx, {
      config,
      profile: "default",
      configPath: "/x",
      identity: "bot",
    });
    assert.equal(
      (await bot.getToken()).token,
      fetched ? "t-new" : "t-cached",
      JSON.stringify(entry),
    );
    stub.verify();
  }
});

Deno.test("getToken() keeps a stored sign-in's token in memory while the sign-in is unchanged", async () => {
  const { source, keychain, dir } = await setup(
    record({ expires_at: NOW + 3_600_000 }),
    new FetchStub([]),
  );
  const reads: string[] = [];
  const get = keychain.get.bind(keychain);
  keychain.get = (path) => {
    reads.push(path);
    return get(path);
  };
  assert.equal((await source.getToken()).token, "u-old");
  assert.equal((await source.getToken()).token, "u-old");
  assert.deepEqual(reads, ["hark/t1/default/user_token"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("getToken() drops the token once auth logout elsewhere removed the sign-in", async () => {
  const stub = new FetchStub([]);
  const { ctx, source, keychain, configPath, dir } = await setup(
    record({ expires_at: NOW + 3_600_000 }),
    stub,
  );
  assert.equal((await source.getToken()).token, "u-old");
  ctx.advance(FIRST_USE_MS + 1); // the next call, past the token's first use
  // What `hark auth logout` in another process does: the record and the user entry go.
  await keychain.delete("hark/t1/default/user_token");
  const config = JSON.parse(await Deno.readTextFile(configPath));
  delete config.users;
  await Deno.writeTextFile(configPath, JSON.stringify(config));
  await assert.rejects(source.getToken(), (e) => {
    assert.ok(e instanceof AuthError, String(e));
    assert.equal(e.code, 3);
    assert.equal(e.message, 'Not signed in to profile "default"');
    assert.match(e.recovery.command, /^hark auth login/);
    return true;
  });
  stub.verify();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("getToken() drops the token when the user entry goes, even with the record left", async () => {
  const { ctx, source, keychain, configPath, dir } = await setup(
    record({ expires_at: NOW + 3_600_000 }),
    new FetchStub([]),
  );
  await source.getToken();
  ctx.advance(FIRST_USE_MS + 1);
  const reads: string[] = [];
  const get = keychain.get.bind(keychain);
  keychain.get = (path) => {
    reads.push(path);
    return get(path);
  };
  await Deno.writeTextFile(configPath, JSON.stringify({ apps: {} }));
  // No sign-in in the config: the token is read afresh at every call, never from memory.
  await source.getToken();
  await source.getToken();
  assert.equal(reads.length, 2);
  await Deno.remove(dir, { recursive: true });
});

/** What `hark auth login` in another process does: a new record ("u-2"), then a new user entry. */
async function signInElsewhere(keychain: MemoryKeychain, configPath: string): Promise<void> {
  await keychain.set(
    "hark/t1/default/user_token",
    JSON.stringify(record({ access_token: "u-2", expires_at: NOW + 7_200_000 })),
  );
  const config = JSON.parse(await Deno.readTextFile(configPath));
  config.users.default.expires_at = new Date(NOW + 7_200_000).toISOString();
  await Deno.writeTextFile(configPath, JSON.stringify(config));
}

Deno.test("getToken() picks up a new sign-in made elsewhere", async () => {
  const { ctx, source, keychain, configPath, dir } = await setup(
    record({ expires_at: NOW + 3_600_000 }),
    new FetchStub([]),
  );
  assert.equal((await source.getToken()).token, "u-old");
  ctx.advance(FIRST_USE_MS + 1);
  await signInElsewhere(keychain, configPath);
  assert.equal((await source.getToken()).token, "u-2");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("getToken() takes the first sign-in mark from the loaded config: no file read before the keychain's", async () => {
  const { ctx, source, keychain, configPath, dir } = await setup(
    record({ expires_at: NOW + 3_600_000 }),
    new FetchStub([]),
  );
  const events: string[] = [];
  const readFile = ctx.fs.readFile.bind(ctx.fs);
  ctx.fs.readFile = (path) => {
    if (path === configPath) events.push("config read");
    return readFile(path);
  };
  const get = keychain.get.bind(keychain);
  keychain.get = (path) => {
    events.push("keychain read");
    return get(path);
  };
  assert.equal((await source.getToken()).token, "u-old");
  assert.deepEqual(events, ["keychain read"]);
  ctx.advance(FIRST_USE_MS + 1);
  // A sign-in changed after the config was loaded (the token may have been read ahead of it)
  // shows at the next call.
  await signInElsewhere(keychain, configPath);
  assert.equal((await source.getToken()).token, "u-2");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("loadedOnUse() loads a provider only for a spec it applies to", async () => {
  let loads = 0;
  const provider = loadedOnUse(
    "command",
    () => {
      loads++;
      return Promise.resolve({
        name: "command" as const,
        resolveAccount: () =>
          Promise.resolve({ profile: "p", identity: "user", source: "command" }),
        resolveToken: () => Promise.resolve(undefined),
      });
    },
    (spec) => spec.profile === "scripted",
  );
  const spec = (profile: string) => ({
    config: {},
    configPath: "/config.json",
    profile,
    identity: "user" as const,
  });
  assert.equal(await provider.resolveAccount(spec("plain")), undefined);
  assert.equal(await provider.resolveToken(spec("plain")), undefined);
  assert.equal(loads, 0);
  assert.equal((await provider.resolveAccount(spec("scripted")))?.source, "command");
  await provider.resolveToken(spec("scripted"));
  assert.equal(loads, 1);
});

/** A source on a stored sign-in, with the reads of its config file counted. */
async function countingConfigReads() {
  const parts = await setup(record({ expires_at: NOW + 3_600_000 }), new FetchStub([]));
  const reads: string[] = [];
  const readFile = parts.ctx.fs.readFile.bind(parts.ctx.fs);
  parts.ctx.fs.readFile = (path) => {
    if (path === parts.configPath) reads.push(path);
    return readFile(path);
  };
  return { ...parts, reads };
}

Deno.test("getToken(): a token's first use within FIRST_USE_MS reads no config, the next use does", async () => {
  const { ctx, source, dir, reads } = await countingConfigReads();
  assert.equal((await source.getToken()).token, "u-old"); // a command checks its sign-in
  ctx.advance(FIRST_USE_MS);
  assert.equal((await source.getToken()).token, "u-old"); // and makes its request
  assert.equal(reads.length, 0);
  assert.equal((await source.getToken()).token, "u-old"); // the next request looks again
  assert.equal(reads.length, 1);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("getToken(): after a clock set back, a token's first use reads the sign-in again", async () => {
  const { ctx, source, dir, reads } = await countingConfigReads();
  await source.getToken();
  const now = ctx.now;
  ctx.now = () => now() - 60_000;
  await source.getToken();
  assert.equal(reads.length, 1);
  await Deno.remove(dir, { recursive: true });
});
