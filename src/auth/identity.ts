/**
 * Who hark acts as: the signed-in user, or the app's bot (the tenant).
 *
 * @module
 */

/** The identities a command can act as. */
export const IDENTITIES = ["user", "bot"] as const;

/** One of {@link IDENTITIES}: `user` uses a user access token, `bot` the tenant token. */
export type Identity = typeof IDENTITIES[number];
