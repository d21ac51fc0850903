import assert from "node:assert/strict";
import {
  aesSessionCipher,
  bigIntToBytes,
  dhKeyPair,
  dhPublicKey,
  dhSharedSecret,
  MODP_1024_PRIME,
  sessionKeyBytes,
} from "./_secret_session.ts";

// Vectors computed apart from this code: Python's pow() for the group, hmac/hashlib for HKDF
// (RFC 5869, salt of 32 zero bytes = empty), `openssl enc -aes-128-cbc` for the cipher text.
const hex = (text: string) => Uint8Array.from(text.match(/../g) ?? [], (b) => parseInt(b, 16));
const toHex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const PRIVATE = 0x0f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff0n;
const PUBLIC = "1e0b7495250b5a5fa24d50e2644b287ae7ed75116f99810d3bb344d9ff920f2206d925f08e7d26d9" +
  "60acdd99376abb79a33adbdbfa258eb31f57c9493465090e8bb5450232df78e5cd78634434759093378265af" +
  "bba5edb1979acdcd3c2e808c8175f603478d9fdf4c5795a267d43d426524d24721c1a20bf2eb7a50a83bc34c";
// 2^1015: 127 significant bytes, sent without its leading zero as a service may.
const PEER = "80" + "00".repeat(126);
// Starts with a zero byte: libsecret pads the shared value to the prime's 128 bytes.
const SHARED = "00e47b8fe2cf27c88298a36402f52843422b5cde43fe897ee41303b3e223faa17af4daa7c411c498" +
  "4d324305177d0511f64fbdf309d452173dc63f12d43d7b2056b02687ce3654f0ff86a7ea4d2561f2900ca7f0" +
  "0630762af71bfb8dfc573cd5c9eed2aca6df9c04c0dbba80cf1d96ca7db60045068e555b96a248a69ebe32f5";
const KEY = "c9e230389fb99d9b4bb6b3f51895bd95";
const IV = "000102030405060708090a0b0c0d0e0f";
const PLAIN = "ünïcødé 密钥 secret, 33 bytes..";
// 37 bytes → 48: PKCS#7 pads with eleven 0x0b.
const CIPHER = "c138936fe645bf50a9d578684feec68710dcd5f8dc30af91133b0dcd9a62a78f0adce732f9ad2f73" +
  "acc55c8a08ad2780";

Deno.test("dhPublicKey() gives 2^x mod p of RFC 2409's group 2, big-endian in 128 bytes", () => {
  assert.equal(toHex(dhPublicKey(PRIVATE)), PUBLIC);
});

Deno.test("dhSharedSecret() pads the shared value to 128 bytes as libsecret does", () => {
  const shared = dhSharedSecret(PRIVATE, hex(PEER));
  assert.equal(shared.length, 128);
  assert.equal(toHex(shared), SHARED);
  assert.equal(toHex(dhSharedSecret(PRIVATE, hex("00" + PEER))), SHARED);
});

Deno.test("dhSharedSecret() refuses a peer value outside 2 to p − 2", () => {
  for (const bad of [0n, 1n, MODP_1024_PRIME - 1n, MODP_1024_PRIME]) {
    assert.throws(() => dhSharedSecret(PRIVATE, bigIntToBytes(bad, 128)), /out of range/);
  }
  assert.throws(() => dhSharedSecret(PRIVATE, new Uint8Array(129).fill(1)), /129 bytes/);
  assert.throws(() => dhSharedSecret(PRIVATE, new Uint8Array(0)), /0 bytes/);
});

Deno.test("sessionKeyBytes() is HKDF-SHA256 with empty salt and info, 16 bytes", async () => {
  assert.equal(toHex(await sessionKeyBytes(hex(SHARED))), KEY);
});

Deno.test("aesSessionCipher() seals with AES-128-CBC and PKCS#7 and opens what it sealed", async () => {
  const cipher = await aesSessionCipher(hex(KEY), () => hex(IV));
  const sealed = await cipher.seal(new TextEncoder().encode(PLAIN));
  assert.equal(toHex(sealed.parameters), IV);
  assert.equal(toHex(sealed.value), CIPHER);
  const opened = await cipher.open({ parameters: hex(IV), value: hex(CIPHER) });
  assert.equal(new TextDecoder().decode(opened), PLAIN);
});

Deno.test("aesSessionCipher() refuses a wrong IV, a ragged cipher text and a wrong padding", async () => {
  const cipher = await aesSessionCipher(hex(KEY), () => hex(IV));
  await assert.rejects(
    () => cipher.open({ parameters: hex(IV).slice(1), value: hex(CIPHER) }),
    /IV/,
  );
  await assert.rejects(
    () => cipher.open({ parameters: hex(IV), value: hex(CIPHER).slice(1) }),
    /cipher text has 47 bytes/,
  );
  const wrongKey = await aesSessionCipher(hex("00" + KEY.slice(2)), () => hex(IV));
  await assert.rejects(() => wrongKey.open({ parameters: hex(IV), value: hex(CIPHER) }), /padding/);
});

Deno.test("dhKeyPair() makes a 256-bit exponent from the given randomness", () => {
  const pair = dhKeyPair((n) => new Uint8Array(n).fill(0xab));
  assert.equal(pair.privateKey, BigInt("0x" + "ab".repeat(32)));
  assert.deepEqual(pair.publicKey, dhPublicKey(pair.privateKey));
});

Deno.test("dhPublicKey() and dhSharedSecret() agree with plain square-and-multiply", () => {
  // The reference: bit by bit, right to left, one big division per step.
  const reference = (base: bigint, exponent: bigint) => {
    let result = 1n;
    for (let b = base % MODP_1024_PRIME, e = exponent; e > 0n; e >>= 1n) {
      if (e & 1n) result = (result * b) % MODP_1024_PRIME;
      b = (b * b) % MODP_1024_PRIME;
    }
    return toHex(bigIntToBytes(result, 128));
  };
  let seed = 7;
  const bytes = (n: number) =>
    Uint8Array.from({ length: n }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 0xff);
  const exponents = [2n, 3n, 0x10n, 0xf0f0n, (1n << 255n) + 1n, (1n << 256n) - 1n];
  for (let i = 0; i < 20; i++) exponents.push(BigInt(`0x${toHex(bytes(32))}`) | 2n);
  for (const exponent of exponents) {
    const peer = (BigInt(`0x${toHex(bytes(128))}`) % (MODP_1024_PRIME - 3n)) + 2n;
    assert.equal(toHex(dhPublicKey(exponent)), reference(2n, exponent));
    assert.equal(
      toHex(dhSharedSecret(exponent, bigIntToBytes(peer, 128))),
      reference(peer, exponent),
    );
  }
});
