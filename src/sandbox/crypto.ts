import { createHash, randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

export type TokenService = 'platform' | 'cdp' | 'clean';

export interface PasswordHash {
  algo: 'scrypt';
  N: number;
  r: number;
  p: number;
  keylen: number;
  salt: string; // base64url
  hash: string; // base64url
}

export type StoredToken = ReturnType<typeof issueToken>['record'];

// OWASP's scrypt floor (N=2^14, r=8, p=1); maxmem must allow 128*N*r bytes plus headroom.
export const PASSWORD_COST = 16384;
const SCRYPT = { r: 8, p: 1, keylen: 64 } as const;

function derive(password: string, salt: Buffer, keylen: number, { N, r, p }: Pick<PasswordHash, 'N' | 'r' | 'p'>) {
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** `cost` is scrypt's N, a power of two. */
export async function hashPassword(password: string, cost = PASSWORD_COST): Promise<PasswordHash> {
  const salt = randomBytes(16);
  const params = { N: cost, ...SCRYPT };
  const key = await derive(password, salt, SCRYPT.keylen, params);
  return { algo: 'scrypt', ...params, salt: salt.toString('base64url'), hash: key.toString('base64url') };
}

// Checked when the account does not exist, so response times do not reveal which accounts exist.
const decoys = new Map<number, Promise<PasswordHash>>();

export async function verifyPassword(
  password: string,
  stored: PasswordHash | undefined,
  cost = PASSWORD_COST,
): Promise<boolean> {
  if (!stored && !decoys.has(cost)) decoys.set(cost, hashPassword(randomBytes(16).toString('hex'), cost));
  const target = stored ?? (await decoys.get(cost)!);
  const expected = Buffer.from(target.hash, 'base64url');
  const key = await derive(password, Buffer.from(target.salt, 'base64url'), expected.length, target);
  return timingSafeEqual(key, expected) && stored !== undefined;
}

const B64URL = /^[A-Za-z0-9_-]+$/;

function sha256(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Creates a bearer token `<id>.<secret>`; only the sha256 of the secret is kept. */
export function issueToken(userId: string, service: TokenService, now: number, ttlMs: number) {
  const id = randomBytes(16).toString('base64url');
  const secret = randomBytes(32).toString('base64url');
  const record = {
    /** base64url sha256 of the secret part. */
    hash: sha256(secret).toString('base64url'),
    userId,
    service,
    createdAt: now,
    expiresAt: now + ttlMs,
  };
  return { token: `${id}.${secret}`, id, record };
}

export function parseToken(token: string): { id: string; secret: string } | undefined {
  const parts = token.split('.');
  if (parts.length !== 2) return undefined;
  const [id, secret] = parts as [string, string];
  if (!B64URL.test(id) || !B64URL.test(secret) || id.length > 64 || secret.length > 128) return undefined;
  return { id, secret };
}

export function secretMatches(secret: string, record: StoredToken): boolean {
  const expected = Buffer.from(record.hash, 'base64url');
  const actual = sha256(secret);
  return expected.length === actual.length && timingSafeEqual(actual, expected);
}

/** Compares a presented shared secret with the configured one without leaking its length or content by timing. */
export function sharedSecretMatches(presented: string, configured: string): boolean {
  return timingSafeEqual(sha256(presented), sha256(configured));
}

/** A 24-hex id like the cleaning service's record ids, made as MongoDB makes ObjectIds: cheaper than `randomBytes`. */
export function newObjectId(nowMs: number): string {
  const seconds = Math.floor(nowMs / 1000) >>> 0;
  objectIdCounter = (objectIdCounter + 1) & 0xffffff;
  return seconds.toString(16).padStart(8, '0') + objectIdProcess + objectIdCounter.toString(16).padStart(6, '0');
}

const objectIdProcess = randomBytes(5).toString('hex');
let objectIdCounter = randomBytes(3).readUIntBE(0, 3);

export function randomKey(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
