/**
 * The Secret Service's transport encryption, `dh-ietf1024-sha256-aes128-cbc-pkcs7`, as libsecret
 * and gnome-keyring implement it: a Diffie-Hellman exchange in the 1024-bit MODP group of
 * RFC 2409 (group 2, generator 2), the shared value written big-endian and zero-padded to the
 * prime's 128 bytes, HKDF-SHA256 with an empty salt and empty info to a 16-byte key, and each
 * secret sent as AES-128-CBC with PKCS#7 padding under a fresh 16-byte IV (the secret's
 * "parameters"). Private to `src/keychain/`.
 *
 * Why not "plain": the bus daemon, and anything that may watch the session bus, would see every
 * secret in the clear; libsecret never sends one that way unless the service refuses the
 * encrypted algorithm, and hark follows it (the caller falls back to "plain" only then).
 *
 * The private exponent is 256 random bits rather than libsecret's 1024: a discrete logarithm in
 * a 1024-bit group costs about 2^80 by the number field sieve whatever the exponent, and a
 * 256-bit exponent leaves the exponent-specific attacks (Pollard's kangaroo, about 2^128) far
 * above that, the rule of RFC 3526 §8 (an exponent of twice the group's strength). It makes the
 * two modular powers of an exchange about four times cheaper, which is most of what a command's
 * first keychain call costs in this process.
 *
 * @module
 */

import { DBusCallError } from "./_dbus_connection.ts";
import { type DBusData, isVariant } from "./_dbus_wire.ts";

/** The algorithm's name as the Secret Service knows it. */
export const DH_ALGORITHM = "dh-ietf1024-sha256-aes128-cbc-pkcs7";

/** The 1024-bit MODP prime of RFC 2409 §6.2 (Oakley group 2). */
export const MODP_1024_PRIME = BigInt(
  "0x" +
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A0879" +
    "8E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B" +
    "0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF",
);
/** The prime's length in bytes: public keys and the shared value are at most this long. */
export const PRIME_BYTES = 128;
const EXPONENT_BYTES = 32;
const IV_BYTES = 16;

/** One side of the exchange: the private exponent and the public value to send. */
export interface DhKeyPair {
  /** The private exponent; never leaves this process. */
  privateKey: bigint;
  /** `2^privateKey mod p`, big-endian, padded to {@link PRIME_BYTES}. */
  publicKey: Uint8Array;
}

/**
 * Makes a key pair from 256 random bits (see the module's note on the exponent's size).
 *
 * @param randomBytes the source of randomness (the context's)
 */
export function dhKeyPair(randomBytes: (length: number) => Uint8Array): DhKeyPair {
  let privateKey = 0n;
  while (privateKey < 2n) privateKey = bytesToBigInt(randomBytes(EXPONENT_BYTES));
  return { privateKey, publicKey: dhPublicKey(privateKey) };
}

/**
 * The public value of a private exponent.
 *
 * @param privateKey the exponent
 * @returns `2^privateKey mod p`, big-endian, padded to 128 bytes
 */
export function dhPublicKey(privateKey: bigint): Uint8Array {
  return bigIntToBytes(powerOfTwo(privateKey, MODP_1024_PRIME), PRIME_BYTES);
}

/**
 * The shared value of the exchange, checked: the peer's value must be 2 to p − 2 (1, p − 1 and
 * anything outside the group would give a value an eavesdropper knows).
 *
 * @param privateKey this side's exponent
 * @param peerPublicKey the service's public value, big-endian, at most 128 bytes
 * @returns the shared value, big-endian, zero-padded to 128 bytes as libsecret writes it
 * @throws {Error} when the peer's value is out of range
 */
export function dhSharedSecret(privateKey: bigint, peerPublicKey: Uint8Array): Uint8Array {
  if (peerPublicKey.length === 0 || peerPublicKey.length > PRIME_BYTES) {
    throw new Error(`the service's public key has ${peerPublicKey.length} bytes`);
  }
  const peer = bytesToBigInt(peerPublicKey);
  if (peer < 2n || peer > MODP_1024_PRIME - 2n) {
    throw new Error("the service's public key is out of range");
  }
  return bigIntToBytes(modPow(peer, privateKey, MODP_1024_PRIME), PRIME_BYTES);
}

/**
 * The 16-byte AES key of the session: HKDF-SHA256 of the shared value, empty salt, empty info.
 *
 * @param shared the value of {@link dhSharedSecret}
 */
export async function sessionKeyBytes(shared: Uint8Array): Promise<Uint8Array> {
  const ikm = await crypto.subtle.importKey("raw", new Uint8Array(shared), "HKDF", false, [
    "deriveBits",
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: new Uint8Array(0) },
    ikm,
    128,
  );
  return new Uint8Array(bits);
}

/** A secret as the Secret Service carries it: the IV and the cipher text. */
export interface SealedSecret {
  /** The IV (the Secret structure's `parameters`); empty for "plain". */
  parameters: Uint8Array;
  /** The cipher text (the plain bytes for "plain"). */
  value: Uint8Array;
}

/** The encryption of one session, or none for "plain". */
export interface SessionCipher {
  /** Seals a secret for sending. */
  seal(secret: Uint8Array): Promise<SealedSecret>;
  /**
   * Opens a secret received.
   *
   * @throws {Error} when the IV has the wrong length or the padding is wrong
   */
  open(sealed: SealedSecret): Promise<Uint8Array>;
}

/**
 * The AES-128-CBC cipher of a session key.
 *
 * @param keyBytes the 16-byte key of {@link sessionKeyBytes}
 * @param randomBytes the source of IVs
 */
export async function aesSessionCipher(
  keyBytes: Uint8Array,
  randomBytes: (length: number) => Uint8Array,
): Promise<SessionCipher> {
  const key = await crypto.subtle.importKey("raw", new Uint8Array(keyBytes), "AES-CBC", false, [
    "encrypt",
    "decrypt",
  ]);
  return {
    async seal(secret) {
      const iv = new Uint8Array(randomBytes(IV_BYTES));
      // WebCrypto's AES-CBC pads with PKCS#7, as the algorithm asks.
      const value = await crypto.subtle.encrypt(
        { name: "AES-CBC", iv },
        key,
        new Uint8Array(secret),
      );
      return { parameters: iv, value: new Uint8Array(value) };
    },
    async open({ parameters, value }) {
      if (parameters.length !== IV_BYTES) {
        throw new Error(`the secret's IV has ${parameters.length} bytes, not ${IV_BYTES}`);
      }
      if (value.length === 0 || value.length % 16 !== 0) {
        throw new Error(`the secret's cipher text has ${value.length} bytes`);
      }
      try {
        const plain = await crypto.subtle.decrypt(
          { name: "AES-CBC", iv: new Uint8Array(parameters) },
          key,
          new Uint8Array(value),
        );
        return new Uint8Array(plain);
      } catch (error) {
        throw new Error("the secret does not decrypt (wrong key or padding)", { cause: error });
      }
    },
  };
}

/** The "plain" session: secrets travel as they are (only when the service refuses the other). */
export const PLAIN_CIPHER: SessionCipher = {
  seal: (secret) => Promise.resolve({ parameters: new Uint8Array(0), value: secret }),
  open: ({ value }) => Promise.resolve(value),
};

/**
 * `2^exponent mod modulus` (2 is the group's generator): a multiplication by `2^digit` is a
 * shift, so only the squarings multiply big values (each step allocates a new one): about 330
 * big operations for a 256-bit exponent, against about 510 square-and-multiply.
 */
function powerOfTwo(exponent: bigint, modulus: bigint): bigint {
  return byWindows(exponent, modulus, (result, digit) => (result << BigInt(digit)) % modulus);
}

/**
 * `base^exponent mod modulus`: 15 powers of the base made first, then at most one
 * multiplication per window (about 320 multiplications for a 256-bit exponent, against about
 * 384 bit by bit).
 */
function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  const powers = [1n, base % modulus];
  for (let i = 2; i < 16; i++) powers.push((powers[i - 1] * powers[1]) % modulus);
  return byWindows(exponent, modulus, (result, digit) => (result * powers[digit]) % modulus);
}

/**
 * Exponentiation with 4-bit windows, left to right: per hexadecimal digit of `exponent`, four
 * squarings, then `times(result, digit)` (multiplying by the base to that digit) unless it is 0.
 */
function byWindows(
  exponent: bigint,
  modulus: bigint,
  times: (result: bigint, digit: number) => bigint,
): bigint {
  const digits = exponent.toString(16);
  let result = 1n;
  for (let i = 0; i < digits.length; i++) {
    if (i > 0) {
      for (let k = 0; k < 4; k++) result = (result * result) % modulus;
    }
    const digit = parseInt(digits[i], 16);
    if (digit !== 0) result = times(result, digit);
  }
  return result;
}

/** Reads unsigned big-endian bytes. */
export function bytesToBigInt(bytes: Uint8Array): bigint {
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex === "" ? 0n : BigInt(`0x${hex}`);
}

/** Writes `value` unsigned big-endian, zero-padded on the left to `length` bytes. */
export function bigIntToBytes(value: bigint, length: number): Uint8Array {
  const hex = value.toString(16).padStart(length * 2, "0");
  if (hex.length > length * 2) throw new Error(`the value does not fit in ${length} bytes`);
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/**
 * Opens a session through the service's `OpenSession` (`open`, called with an algorithm and its
 * input): the encrypted algorithm with `pair`'s public value, or "plain" when the service
 * answers that it does not support it, as libsecret does.
 *
 * @param open calls `OpenSession`
 * @param randomBytes the source of IVs
 * @param pair this side's key pair
 * @returns the session's object path and its cipher
 */
export async function negotiateSession(
  open: (algorithm: string, input: DBusData) => Promise<DBusData[]>,
  randomBytes: (length: number) => Uint8Array,
  pair: DhKeyPair,
): Promise<{ path: string; cipher: SessionCipher }> {
  try {
    const [output, path] = await open(DH_ALGORITHM, { signature: "ay", value: pair.publicKey });
    const peer = isVariant(output) ? output.value : undefined;
    if (!(peer instanceof Uint8Array) || typeof path !== "string") {
      throw new Error("OpenSession answered without a public key");
    }
    const key = await sessionKeyBytes(dhSharedSecret(pair.privateKey, peer));
    return { path, cipher: await aesSessionCipher(key, randomBytes) };
  } catch (error) {
    if (!(error instanceof DBusCallError) || !/NotSupported$/.test(error.errorName)) throw error;
  }
  // The service refuses the encrypted algorithm: libsecret then uses "plain", as hark does.
  const [, path] = await open("plain", { signature: "s", value: "" });
  if (typeof path !== "string") throw new Error("OpenSession answered without a session");
  return { path, cipher: PLAIN_CIPHER };
}

/** The parameters and the value of a `GetSecret` answer's `(oayays)` secret. */
export function readSecret(
  value: DBusData | undefined,
): { parameters: Uint8Array; value: Uint8Array } {
  if (Array.isArray(value)) {
    const [, parameters, bytes] = value;
    if (parameters instanceof Uint8Array && bytes instanceof Uint8Array) {
      return { parameters, value: bytes };
    }
  }
  throw new Error("GetSecret answered without a secret");
}
