import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

const KEYLEN = 32;
// N=2^14 keeps a login around 30–50 ms on this hardware.
const PARAMS = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

function derive(secret: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret.normalize("NFKC"), salt, KEYLEN, PARAMS, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** `scrypt$<salt b64>$<hash b64>` */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt);
  return `scrypt$${salt.toString("base64")}$${key.toString("base64")}`;
}

// Verified against when the account does not exist, so the answer takes as long.
const DUMMY = "scrypt$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

export async function verifySecret(secret: string, stored: string | null | undefined): Promise<boolean> {
  const [scheme, saltB64, hashB64] = (stored ?? DUMMY).split("$");
  if (scheme !== "scrypt" || !saltB64 || !hashB64) return false;
  const expected = Buffer.from(hashB64, "base64");
  const actual = await derive(secret, Buffer.from(saltB64, "base64"));
  return stored != null && expected.length === actual.length && timingSafeEqual(expected, actual);
}
