/**
 * The sandbox's OAuth state: device codes (RFC 8628), user access and refresh tokens, and tenant
 * tokens. Times are milliseconds from the injected clock; lifetimes are seconds and may be
 * fractional, so tests can make tokens that expire in a fraction of a second.
 *
 * @module
 */

/** Lifetimes and policy for issued credentials. */
export interface AuthPolicy {
  /** Access-token lifetime in seconds. */
  accessTokenTtl: number;
  /** Refresh-token lifetime in seconds. */
  refreshTokenTtl: number;
  /** Tenant-token lifetime in seconds. */
  tenantTokenTtl: number;
  /** Device-code lifetime in seconds. */
  deviceCodeTtl: number;
  /** Announced poll interval in seconds. */
  interval: number;
  /** Approve a pending code automatically once it has been polled this many times. */
  autoApproveAfter?: number;
  /** The user an automatic approval signs in. */
  defaultOpenId: string;
  /**
   * Whether a sign-in may grant a scope: the app must have enabled it. Scopes it may not grant
   * are left out of the token, as Lark's consent page leaves them out (lark-cli issue #746).
   * Default: every scope.
   */
  grantable?: (scope: string) => boolean;
}

/** A device authorization in progress. */
export interface DeviceGrant {
  deviceCode: string;
  userCode: string;
  scopes: string[];
  expiresAt: number;
  /** Current interval in seconds (grows by 5 on each slow_down). */
  interval: number;
  lastPollAt?: number;
  polls: number;
  state: "pending" | "approved" | "denied" | "consumed";
  openId?: string;
  accessTokenTtl?: number;
  refreshTokenTtl?: number;
}

/** What a bearer token stands for. */
export interface TokenRecord {
  kind: "user" | "tenant";
  openId?: string;
  scopes: string[];
  expiresAt: number;
}

interface RefreshRecord {
  /** Set by {@link AuthStore.revoke}; the token then answers 20064. */
  revoked?: boolean;
  openId: string;
  scopes: string[];
  expiresAt: number;
  accessTokenTtl: number;
  refreshTokenTtl: number;
}

/** The token endpoint's success body. */
export interface TokenGrant {
  code: 0;
  access_token: string;
  expires_in: number;
  refresh_token?: string;
  refresh_token_expires_in?: number;
  token_type: "Bearer";
  scope: string;
}

/** An RFC 6749 / RFC 8628 error the token endpoint answers. */
export class OAuthError extends Error {
  /**
   * @param error the `error` field, e.g. "authorization_pending"
   * @param description the `error_description`
   * @param status the HTTP status (400 unless said otherwise)
   * @param code Lark's numeric `code`, sent beside `error` by the token endpoint
   */
  constructor(
    readonly error: string,
    description: string,
    readonly status = 400,
    readonly code?: number,
  ) {
    super(description);
    this.name = "OAuthError";
  }
}

/**
 * Lark's codes for refresh failures (lark-cli `internal/output/lark_errors.go`): 20026 invalid,
 * 20037 expired, 20064 revoked, 20073 already used (refresh tokens are single-use), 20050 a
 * server error worth one retry (`internal/auth/errors.go`, RefreshTokenRetryable).
 */
export const REFRESH_ERRORS = {
  invalid: 20026,
  expired: 20037,
  revoked: 20064,
  alreadyUsed: 20073,
  serverError: 20050,
} as const;

/** How a bearer token lookup ended. */
export type TokenLookup =
  | { ok: true; record: TokenRecord }
  | { ok: false; reason: "unknown" | "expired" };

const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
/** Polls this much sooner than the interval are still tolerated (timer jitter). */
const POLL_TOLERANCE_MS = 100;

function randomToken(prefix: string, bytes = 24): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return prefix + btoa(String.fromCharCode(...raw)).replace(/[+/=]/g, "").slice(0, bytes + 8);
}

function newUserCode(): string {
  const raw = crypto.getRandomValues(new Uint8Array(8));
  const letters = [...raw].map((b) => USER_CODE_ALPHABET[b % USER_CODE_ALPHABET.length]).join("");
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}

/** Normalizes a typed user code: upper case, no spaces or dashes, then "XXXX-XXXX". */
export function normalizeUserCode(text: string): string {
  const letters = text.toUpperCase().replace(/[^A-Z0-9]/g, "");
  return letters.length === 8 ? `${letters.slice(0, 4)}-${letters.slice(4)}` : letters;
}

/** In-memory OAuth state for one sandbox. */
export class AuthStore {
  #devices = new Map<string, DeviceGrant>();
  #byUserCode = new Map<string, DeviceGrant>();
  #tokens = new Map<string, TokenRecord>();
  #refresh = new Map<string, RefreshRecord>();
  #usedRefresh = new Set<string>();

  /**
   * @param policy lifetimes and auto-approval
   * @param now the clock in milliseconds
   */
  constructor(readonly policy: AuthPolicy, readonly now: () => number = Date.now) {}

  /** Starts a device authorization for `scopes`. */
  createDeviceGrant(scopes: string[]): DeviceGrant {
    let userCode = newUserCode();
    while (this.#byUserCode.has(userCode)) userCode = newUserCode();
    const grant: DeviceGrant = {
      deviceCode: randomToken("dc-", 32),
      userCode,
      scopes,
      expiresAt: this.now() + this.policy.deviceCodeTtl * 1000,
      interval: this.policy.interval,
      polls: 0,
      state: "pending",
    };
    this.#devices.set(grant.deviceCode, grant);
    this.#byUserCode.set(userCode, grant);
    return grant;
  }

  /** Finds a device grant by the code the user typed (any case, with or without the dash). */
  findByUserCode(userCode: string): DeviceGrant | undefined {
    return this.#byUserCode.get(normalizeUserCode(userCode));
  }

  /**
   * Records the user's decision on a device grant.
   *
   * @throws {OAuthError} "invalid_grant" (404) for an unknown code, "expired_token" (400) after
   * expiry, "already_decided" (409) when the code was approved or denied before
   */
  decide(
    userCode: string,
    decision: "approve" | "deny",
    options: { openId?: string; accessTokenTtl?: number; refreshTokenTtl?: number } = {},
  ): DeviceGrant {
    const grant = this.findByUserCode(userCode);
    if (!grant) throw new OAuthError("invalid_grant", `Unknown user code "${userCode}"`, 404);
    if (this.now() >= grant.expiresAt) {
      throw new OAuthError("expired_token", `User code "${grant.userCode}" has expired`);
    }
    if (grant.state !== "pending") {
      throw new OAuthError(
        "already_decided",
        `User code "${grant.userCode}" is already ${grant.state}`,
        409,
      );
    }
    grant.state = decision === "approve" ? "approved" : "denied";
    grant.openId = options.openId ?? this.policy.defaultOpenId;
    grant.accessTokenTtl = options.accessTokenTtl;
    grant.refreshTokenTtl = options.refreshTokenTtl;
    return grant;
  }

  /**
   * Answers one poll of the token endpoint with a device code.
   *
   * @throws {OAuthError} authorization_pending, slow_down, access_denied, expired_token or
   * invalid_grant
   */
  pollDeviceCode(deviceCode: string): TokenGrant {
    const grant = this.#devices.get(deviceCode);
    if (!grant) throw new OAuthError("invalid_grant", "The device code is unknown");
    if (grant.state === "consumed") {
      throw new OAuthError("invalid_grant", "The device code was already used to issue tokens");
    }
    const now = this.now();
    if (now >= grant.expiresAt) {
      throw new OAuthError("expired_token", "The device code has expired; start a new sign-in");
    }
    const previous = grant.lastPollAt;
    grant.lastPollAt = now;
    grant.polls++;
    if (grant.state === "denied") {
      throw new OAuthError("access_denied", "The user denied the authorization request");
    }
    if (previous !== undefined && now - previous < grant.interval * 1000 - POLL_TOLERANCE_MS) {
      grant.interval += 5;
      throw new OAuthError(
        "slow_down",
        `Polled too fast; wait at least ${grant.interval} seconds between polls`,
      );
    }
    const auto = this.policy.autoApproveAfter;
    if (grant.state === "pending" && auto !== undefined && grant.polls > auto) {
      grant.state = "approved";
      grant.openId = this.policy.defaultOpenId;
    }
    if (grant.state === "pending") {
      throw new OAuthError("authorization_pending", "The user has not approved the request yet");
    }
    grant.state = "consumed";
    const grantable = this.policy.grantable ?? (() => true);
    const granted = grant.scopes.filter((scope) => grantable(scope));
    return this.issueUserTokens(grant.openId!, granted, {
      accessTokenTtl: grant.accessTokenTtl,
      refreshTokenTtl: grant.refreshTokenTtl,
    });
  }

  /** Issues an access token (and a refresh token when `offline_access` is among `scopes`). */
  issueUserTokens(
    openId: string,
    scopes: string[],
    ttls: { accessTokenTtl?: number; refreshTokenTtl?: number } = {},
  ): TokenGrant {
    const accessTtl = ttls.accessTokenTtl ?? this.policy.accessTokenTtl;
    const refreshTtl = ttls.refreshTokenTtl ?? this.policy.refreshTokenTtl;
    const now = this.now();
    const accessToken = randomToken("u-");
    this.#tokens.set(accessToken, {
      kind: "user",
      openId,
      scopes,
      expiresAt: now + accessTtl * 1000,
    });
    const grant: TokenGrant = {
      code: 0,
      access_token: accessToken,
      expires_in: Math.round(accessTtl),
      token_type: "Bearer",
      scope: scopes.join(" "),
    };
    if (scopes.includes("offline_access")) {
      const refreshToken = randomToken("ur-");
      this.#refresh.set(refreshToken, {
        openId,
        scopes,
        expiresAt: now + refreshTtl * 1000,
        accessTokenTtl: accessTtl,
        refreshTokenTtl: refreshTtl,
      });
      grant.refresh_token = refreshToken;
      grant.refresh_token_expires_in = Math.round(refreshTtl);
    }
    return grant;
  }

  /**
   * Exchanges a refresh token for new tokens; the old refresh token stops working.
   *
   * @throws {OAuthError} "invalid_grant" with Lark's code: 20073 for a token already used, 20026
   * for an unknown one, 20064 for a revoked one, 20037 for an expired one
   */
  refresh(refreshToken: string): TokenGrant {
    const fail = (code: number, description: string) =>
      new OAuthError("invalid_grant", description, 400, code);
    if (this.#usedRefresh.has(refreshToken)) {
      throw fail(
        REFRESH_ERRORS.alreadyUsed,
        "The refresh token has already been used. A refresh token can be used only once",
      );
    }
    const record = this.#refresh.get(refreshToken);
    if (!record) throw fail(REFRESH_ERRORS.invalid, "The refresh token passed is invalid");
    if (record.revoked) {
      throw fail(REFRESH_ERRORS.revoked, "The refresh token has been revoked; sign in again");
    }
    if (this.now() >= record.expiresAt) {
      throw fail(REFRESH_ERRORS.expired, "The refresh token has expired; sign in again");
    }
    this.#refresh.delete(refreshToken);
    this.#usedRefresh.add(refreshToken);
    return this.issueUserTokens(record.openId, record.scopes, record);
  }

  /**
   * Revokes refresh tokens, as a user withdrawing the app's authorization does: one token, or
   * every token (refresh and access) of a user.
   *
   * @returns how many refresh tokens were revoked
   */
  revoke(target: { refreshToken?: string; openId?: string }): number {
    let count = 0;
    for (const [token, record] of this.#refresh) {
      if (record.revoked) continue;
      if (token === target.refreshToken || record.openId === target.openId) {
        record.revoked = true;
        count++;
      }
    }
    if (target.openId !== undefined) {
      for (const [token, record] of this.#tokens) {
        if (record.kind === "user" && record.openId === target.openId) this.#tokens.delete(token);
      }
    }
    return count;
  }

  /** Issues a tenant (bot) token. */
  issueTenantToken(): { token: string; expire: number } {
    const token = randomToken("t-");
    const ttl = this.policy.tenantTokenTtl;
    this.#tokens.set(token, { kind: "tenant", scopes: [], expiresAt: this.now() + ttl * 1000 });
    return { token, expire: Math.round(ttl) };
  }

  /** Looks up a bearer token. */
  lookup(token: string): TokenLookup {
    const record = this.#tokens.get(token);
    if (!record) return { ok: false, reason: "unknown" };
    if (this.now() >= record.expiresAt) return { ok: false, reason: "expired" };
    return { ok: true, record };
  }
}
