/**
 * Password hashes (docs/decisions.md#password-hashes; docs/auth.md "Passwords"):
 * new hashes are Argon2id at OWASP's minimum; Argon2 hashes of any variant and legacy PBKDF2 hashes
 * (`<salt_hex>:<hash_hex>`) are verified, and both kinds are flagged for a rehash when weaker than the minimum.
 *
 * The `argon2` package (a native addon) is imported on first use only: the CLI and an application that never
 * checks a password do not load it.
 */
import { pbkdf2, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';

type Argon2Module = typeof import('argon2');

/** Argon2id parameters of new hashes: OWASP's minimum (19 MiB, 2 passes, 1 lane). */
export const ARGON2_PARAMS = Object.freeze({ memoryCost: 19456, timeCost: 2, parallelism: 1 });

/** Shortest and longest accepted password, in characters (Unicode code points). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;

/** Legacy PBKDF2 hashes: HMAC-SHA256, 260,000 iterations, 32-byte key. */
export const PBKDF2_ITERATIONS = 260_000;
const PBKDF2_KEY_LENGTH = 32;
const PBKDF2_PATTERN = /^((?:[0-9a-fA-F]{2}){1,256}):([0-9a-fA-F]{64})$/;

/** Argon2 version 1.3 (0x13), the one argon2 writes. */
const ARGON2_VERSION = 0x13;
/**
 * Stored parameters past these are refused (verification answers false): a hostile or corrupt row asking for
 * gigabytes of memory or thousands of passes would otherwise stall the server.
 */
const ARGON2_MAX = Object.freeze({ memoryCost: 1_048_576, timeCost: 64, parallelism: 64 });

/** Thrown by hashPassword when the password breaks the policy; `message` is meant for the user. */
export class PasswordPolicyError extends Error {
  readonly code = 'password_policy';
  constructor(message: string) {
    super(message);
    this.name = 'PasswordPolicyError';
  }
}

let argon2Loading: Promise<Argon2Module> | undefined;

/** The argon2 module, imported once on first use. */
function loadArgon2(): Promise<Argon2Module> {
  argon2Loading ??= import('argon2').then((module) => (module as { default?: Argon2Module }).default ?? module);
  return argon2Loading;
}

/** Null when the password is acceptable (8 to 1024 characters, counted as code points), else the French reason. */
export function checkPasswordPolicy(password: string): string | null {
  if (typeof password !== 'string') return 'Le mot de passe doit être une chaîne de caractères.';
  // A code point takes one or two UTF-16 units: the length bounds the count before any counting.
  const count = password.length > PASSWORD_MAX_LENGTH * 2 ? Infinity : codePointCount(password);
  if (count < PASSWORD_MIN_LENGTH) return `Le mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères (il en a ${count}).`;
  if (count > PASSWORD_MAX_LENGTH) return `Le mot de passe ne doit pas dépasser ${PASSWORD_MAX_LENGTH} caractères.`;
  return null;
}

function codePointCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** A new Argon2id hash (PHC string) of an acceptable password; PasswordPolicyError otherwise. */
export async function hashPassword(password: string): Promise<string> {
  const refusal = checkPasswordPolicy(password);
  if (refusal) throw new PasswordPolicyError(refusal);
  const argon2 = await loadArgon2();
  return referenceParameterOrder(await argon2.hash(password, { type: argon2.argon2id, ...ARGON2_PARAMS }));
}

/**
 * `$argon2id$v=19$m=…,t=…,p=…$salt$hash`: argon2 0.45 writes `m=…,p=…,t=…`, which argon2 reads back but the
 * reference library's decoder (PHP's password_verify, Python's argon2-cffi) refuses: the order of the reference
 * implementation keeps the hashes readable by other stacks sharing the `users` table.
 */
function referenceParameterOrder(hash: string): string {
  const fields = hash.split('$');
  const params = new Map(fields[3]?.split(',').map((pair) => pair.split('=', 2) as [string, string]));
  if (fields.length !== 6 || params.size !== 3 || !params.has('m') || !params.has('t') || !params.has('p')) return hash;
  fields[3] = `m=${params.get('m')},t=${params.get('t')},p=${params.get('p')}`;
  return fields.join('$');
}

/** What an Argon2 PHC string says about itself; null when it is not one that can be checked. */
interface Argon2Parts {
  readonly variant: 'argon2id' | 'argon2i' | 'argon2d';
  readonly version: number;
  readonly memoryCost: number;
  readonly timeCost: number;
  readonly parallelism: number;
}

const ARGON2_PATTERN = /^\$(argon2id|argon2i|argon2d)\$(?:v=(\d{1,3})\$)?([a-z0-9=,/+.-]{1,200})\$([A-Za-z0-9+/]{11,128})\$([A-Za-z0-9+/]{6,1024})$/;

function parseArgon2(stored: string): Argon2Parts | null {
  const match = ARGON2_PATTERN.exec(stored);
  if (!match) return null;
  const params = new Map<string, string>();
  for (const pair of match[3]!.split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || params.has(pair.slice(0, eq))) return null;
    params.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  const read = (name: string): number => {
    const text = params.get(name);
    return text !== undefined && /^[1-9]\d{0,9}$/.test(text) ? Number(text) : NaN;
  };
  const parts: Argon2Parts = {
    variant: match[1] as Argon2Parts['variant'],
    // No `v=`: the original Argon2 1.0 (0x10), as argon2 reads it.
    version: match[2] === undefined ? 0x10 : Number(match[2]),
    memoryCost: read('m'),
    timeCost: read('t'),
    parallelism: read('p'),
  };
  if (!(parts.memoryCost <= ARGON2_MAX.memoryCost && parts.timeCost <= ARGON2_MAX.timeCost && parts.parallelism <= ARGON2_MAX.parallelism)) return null;
  return parts;
}

/** True when `stored` has the shape of a legacy PBKDF2 hash (`<salt_hex>:<hash_hex>`, 32-byte hash). */
export function isPbkdf2Hash(stored: string): boolean {
  return typeof stored === 'string' && PBKDF2_PATTERN.test(stored);
}

/** Original name `pbkdf2_needs_rehash(stored)`: a PBKDF2 hash always needs replacing by an Argon2id one. */
export function pbkdf2NeedsRehash(_stored: string): true {
  return true;
}

/**
 * True when `stored` should be replaced at the next successful login: a PBKDF2 hash; an Argon2 hash that is not
 * Argon2id 1.3 or is weaker than ARGON2_PARAMS (memory, passes, lanes); anything that is no usable hash. A hash
 * stronger than the minimum is kept (argon2's `needsRehash` would also flag it, which would lower it).
 */
export function passwordNeedsRehash(stored: string): boolean {
  if (typeof stored !== 'string') return true;
  if (isPbkdf2Hash(stored)) return pbkdf2NeedsRehash(stored);
  const parts = parseArgon2(stored);
  if (!parts) return true;
  return (
    parts.variant !== 'argon2id' ||
    parts.version !== ARGON2_VERSION ||
    parts.memoryCost < ARGON2_PARAMS.memoryCost ||
    parts.timeCost < ARGON2_PARAMS.timeCost ||
    parts.parallelism < ARGON2_PARAMS.parallelism
  );
}

/**
 * Original name `verifier_mot_de_passe(password, stored)`: true when `password` matches `stored`, an Argon2 hash (any
 * variant) or a legacy PBKDF2 hash, compared in constant time. A malformed or unknown stored value gives false; this
 * never throws for a bad stored value.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (typeof password !== 'string' || typeof stored !== 'string') return false;
  if (isPbkdf2Hash(stored)) return verifyPbkdf2(password, stored);
  if (!parseArgon2(stored)) return false;
  try {
    const argon2 = await loadArgon2();
    return await argon2.verify(stored, password);
  } catch {
    // A salt or hash the addon refuses (too short, bad base64): not a hash this password can match.
    return false;
  }
}

function verifyPbkdf2(password: string, stored: string): Promise<boolean> {
  const [saltHex, hashHex] = stored.split(':') as [string, string];
  const expected = Buffer.from(hashHex, 'hex');
  // The asynchronous form runs on the thread pool: 260,000 iterations would otherwise hold the event loop.
  return new Promise((resolve) => {
    pbkdf2(password, Buffer.from(saltHex, 'hex'), PBKDF2_ITERATIONS, PBKDF2_KEY_LENGTH, 'sha256', (err, derived) => {
      resolve(!err && derived.length === expected.length && timingSafeEqual(derived, expected));
    });
  });
}

let dummyHash: Promise<string> | undefined;

/** A fixed Argon2id hash made with ARGON2_PARAMS, once, of a random password nobody knows. */
function getDummyHash(): Promise<string> {
  if (!dummyHash) {
    const making = loadArgon2().then((argon2) => argon2.hash(randomBytes(32).toString('hex'), { type: argon2.argon2id, ...ARGON2_PARAMS }));
    // A failure is not kept: the next call tries again.
    making.catch(() => {
      if (dummyHash === making) dummyHash = undefined;
    });
    dummyHash = making;
  }
  return dummyHash;
}

/**
 * One Argon2id verification of `password` against a fixed hash with ARGON2_PARAMS, always false: an unknown
 * e-mail then costs what a wrong password costs (docs/decisions.md#password-hashes).
 */
export async function dummyVerifyPassword(password: string): Promise<false> {
  try {
    const [argon2, hash] = await Promise.all([loadArgon2(), getDummyHash()]);
    await argon2.verify(hash, typeof password === 'string' ? password : '');
  } catch {
    // Nothing to report: the answer is false either way.
  }
  return false;
}

/** A fixed PBKDF2 hash of a random password nobody knows (for dummyVerifyPbkdf2). */
const DUMMY_PBKDF2_HASH = `${randomBytes(16).toString('hex')}:${randomBytes(PBKDF2_KEY_LENGTH).toString('hex')}`;

/** One PBKDF2 verification (PBKDF2_ITERATIONS) against a fixed hash, always false. */
export async function dummyVerifyPbkdf2(password: string): Promise<false> {
  await verifyPbkdf2(typeof password === 'string' ? password : '', DUMMY_PBKDF2_HASH);
  return false;
}

/**
 * The login's verification, the same work whatever the account (docs/decisions.md#password-hashes): one Argon2 verification (of
 * `stored`, or dummy when it is null or PBKDF2) and, when `withPbkdf2` is set (legacy hashes exist), one PBKDF2
 * verification (of `stored` when PBKDF2, else dummy), run side by side. True only for a real match.
 */
export async function verifyPasswordEvenly(password: string, stored: string | null, withPbkdf2: boolean): Promise<boolean> {
  const legacy = stored !== null && isPbkdf2Hash(stored);
  const [argon2Ok, pbkdf2Ok] = await Promise.all([
    stored !== null && !legacy ? verifyPassword(password, stored) : dummyVerifyPassword(password),
    legacy ? verifyPassword(password, stored) : withPbkdf2 ? dummyVerifyPbkdf2(password) : Promise.resolve(false),
  ]);
  return argon2Ok || pbkdf2Ok;
}

/**
 * Loads argon2 and computes the fixed hash of dummyVerifyPassword ahead of the first login (optional: an
 * application may call it at start so that the first unknown e-mail does not pay for it).
 */
export async function preparePasswordHashing(): Promise<void> {
  await getDummyHash();
}

/**
 * FOR TESTS AND MIGRATION TOOLING ONLY: a legacy PBKDF2 hash `<salt_hex>:<hash_hex>` (16 random bytes of salt
 * unless given). Applications never write these: new hashes come from hashPassword.
 */
export function legacyPbkdf2Hash(password: string, salt: Buffer = randomBytes(16)): string {
  if (salt.length === 0) throw new Error('legacyPbkdf2Hash : le sel ne peut pas être vide.');
  const hash = pbkdf2Sync(password, salt, PBKDF2_ITERATIONS, PBKDF2_KEY_LENGTH, 'sha256');
  return `${salt.toString('hex')}:${hash.toString('hex')}`;
}
