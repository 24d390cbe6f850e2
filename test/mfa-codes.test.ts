/**
 * The pieces under the MFA pages: TOTP against the RFC 6238 SHA-1 vectors (6 digits) with its ±1 step window and
 * the used-step bound, the otpauth URI, recovery codes (shape, alphabet, normalisation, hash), and the atomic
 * consumption of a step and of a recovery code by concurrent requests on SQLite and MariaDB.
 */
import { createHash } from 'node:crypto';
import { generate } from 'otplib';
import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import { hashPassword } from '../runtime/auth/passwords.js';
import { createUser } from '../runtime/auth/users.js';
import {
  activateTotpFactor,
  consumeRecoveryCode,
  consumeTotpStep,
  countUnusedRecoveryCodes,
  createTotpFactor,
  generateRecoveryCodes,
  generateTotpSecret,
  getActiveMfaFactors,
  getPendingTotpFactor,
  groupSecret,
  hashRecoveryCode,
  isMfaEnabled,
  matchTotpStep,
  normalizeMfaCode,
  replaceRecoveryCodes,
  totpUri,
  verifyMfaChallenge,
  RECOVERY_CODE_ALPHABET,
} from '../runtime/mfa/index.js';
import { openAuthDatabase, type AuthDatabase } from './helpers/auth-client.js';
import { DIALECTS } from './helpers/dialects.js';

// RFC 6238 appendix B: the SHA-1 key is the ASCII "12345678901234567890"; 6-digit codes are the last six digits.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const RFC_VECTORS: Array<[number, string]> = [
  [59, '287082'],
  [1111111109, '081804'],
  [1111111111, '050471'],
  [1234567890, '005924'],
  [2000000000, '279037'],
];

test('TOTP: the RFC 6238 SHA-1 vectors, and the step they match', async () => {
  for (const [epoch, code] of RFC_VECTORS) {
    assert.is(await generate({ secret: RFC_SECRET, epoch }), code, `otplib at ${epoch}`);
    assert.is(await matchTotpStep(RFC_SECRET, code, null, epoch), Math.floor(epoch / 30), `match at ${epoch}`);
  }
});

test('TOTP: one step either side is accepted, two are not; a used step and the ones before it are skipped', async () => {
  const [epoch, code] = RFC_VECTORS[3]!;
  const step = Math.floor(epoch / 30);
  assert.is(await matchTotpStep(RFC_SECRET, code, null, epoch + 30), step, 'a code of the previous step');
  assert.is(await matchTotpStep(RFC_SECRET, code, null, epoch - 30), step, 'a code of the next step');
  assert.is(await matchTotpStep(RFC_SECRET, code, null, epoch + 60), null);
  assert.is(await matchTotpStep(RFC_SECRET, code, null, epoch - 60), null);
  assert.is(await matchTotpStep(RFC_SECRET, code, step, epoch), null, 'the used step');
  assert.is(await matchTotpStep(RFC_SECRET, code, step + 5, epoch), null, 'a bound past the window');
  assert.is(await matchTotpStep(RFC_SECRET, code, step - 1, epoch), step);
  for (const bad of ['', '00592', '0059244', 'abcdef', '005 924']) assert.is(await matchTotpStep(RFC_SECRET, bad, null, epoch), null, bad);
});

test('secrets: 20 random bytes in base32, shown in fours; the otpauth URI of docs/decisions.md#second-factor', () => {
  const a = generateTotpSecret();
  assert.match(a, /^[A-Z2-7]{32}$/);
  assert.is.not(generateTotpSecret(), a);
  assert.is(groupSecret('ABCDEFGHIJKLMNOP'), 'ABCD EFGH IJKL MNOP');
  assert.is(
    totpUri('Mon App: test', 'élise@example.test', RFC_SECRET),
    `otpauth://totp/Mon%20App%3A%20test:%C3%A9lise%40example.test?secret=${RFC_SECRET}&issuer=Mon%20App%3A%20test&algorithm=SHA1&digits=6&period=30`,
  );
});

test('recovery codes: 10 distinct XXXX-XXXX-XXXX-XXXX of an alphabet without 0, O, 1, I; every letter of it used', () => {
  assert.is(RECOVERY_CODE_ALPHABET.length, 32);
  for (const c of '0O1I') assert.not.ok(RECOVERY_CODE_ALPHABET.includes(c), c);
  const seen = new Set<string>();
  for (let i = 0; i < 100; i++) {
    const batch = generateRecoveryCodes();
    assert.is(batch.length, 10);
    assert.is(new Set(batch).size, 10);
    for (const code of batch) {
      assert.match(code, /^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
      for (const c of code.replace(/-/g, '')) seen.add(c);
    }
  }
  assert.is(seen.size, 32, 'all 32 characters appear over 16,000 draws');
});

test('normalisation and hash: spaces and dashes removed, upper-cased; SHA-256 hex of that', () => {
  assert.is(normalizeMfaCode(' abcd-efgh ijkl--mnpq\t'), 'ABCDEFGHIJKLMNPQ');
  assert.is(normalizeMfaCode('123 456'), '123456');
  const expected = createHash('sha256').update('ABCDEFGHJKLMNPQR').digest('hex');
  assert.is(hashRecoveryCode('abcd-efgh-jklm-npqr'), expected);
  assert.is(hashRecoveryCode('ABCD EFGH JKLM NPQR'), expected);
});

test.run();

for (const dialect of DIALECTS) {
  const model = suite<{ data: AuthDatabase; userId: number }>(`MFA model (${dialect})`);

  model.before(async (context) => {
    context.data = await openAuthDatabase(dialect);
  });
  model.before.each(async (context) => {
    await context.data.reset();
    context.userId = await createUser({ email: 'bob@example.test', passwordHash: await hashPassword('a long enough password') }, context.data.db);
  });
  model.after(async ({ data }) => {
    await data.close();
  });

  model('a pending factor becomes active once; only active factors count', async ({ data, userId }) => {
    const factor = await createTotpFactor(userId, { label: 'Téléphone' }, data.db);
    assert.is(factor.status, 'pending');
    assert.is(factor.lastUsedStep, null);
    assert.equal((await getPendingTotpFactor(userId, data.db))?.id, factor.id);
    assert.is(await isMfaEnabled(userId, data.db), false);
    assert.ok(await activateTotpFactor(factor.id, data.db));
    assert.not.ok(await activateTotpFactor(factor.id, data.db), 'already active');
    const active = await getActiveMfaFactors(userId, data.db);
    assert.equal(
      active.map((f) => [f.id, f.label, f.status, f.totpSecret]),
      [[factor.id, 'Téléphone', 'active', factor.totpSecret]],
    );
    assert.ok(active[0]!.confirmedAt);
    assert.is(await isMfaEnabled(userId, data.db), true);
  });

  model('a step is consumed once, by one of two concurrent requests; an earlier step never after a later one', async ({ data, userId }) => {
    const factor = await createTotpFactor(userId, {}, data.db);
    const results = await Promise.all([
      consumeTotpStep(factor.id, 1000, data.db),
      consumeTotpStep(factor.id, 1000, data.db),
      consumeTotpStep(factor.id, 1000, data.db),
    ]);
    assert.equal(results.filter(Boolean).length, 1);
    assert.not.ok(await consumeTotpStep(factor.id, 999, data.db));
    assert.ok(await consumeTotpStep(factor.id, 1001, data.db));
    const row = await data.db.fetchOne<{ last_used_step: unknown; last_used_at: unknown }>(
      'SELECT last_used_step, last_used_at FROM auth_mfa_factors WHERE id = ?',
      [factor.id],
    );
    assert.is(Number(row?.last_used_step), 1001);
    assert.ok(row?.last_used_at);
  });

  model('recovery codes: a batch replaces the old one; a code is consumed once, by one of concurrent requests', async ({ data, userId }) => {
    const first = await replaceRecoveryCodes(userId, data.db);
    const second = await replaceRecoveryCodes(userId, data.db);
    assert.is(await countUnusedRecoveryCodes(userId, data.db), 10);
    assert.not.ok(await consumeRecoveryCode(userId, first[0]!, data.db), 'the old batch is gone');
    const results = await Promise.all([0, 1, 2].map(() => consumeRecoveryCode(userId, second[0]!.toLowerCase(), data.db)));
    assert.is(results.filter(Boolean).length, 1);
    assert.is(await countUnusedRecoveryCodes(userId, data.db), 9);
    const other = await createUser({ email: 'eve@example.test', passwordHash: await hashPassword('another long password') }, data.db);
    assert.not.ok(await consumeRecoveryCode(other, second[1]!, data.db), "another user's code");
  });

  model('verifyMfaChallenge: TOTP or recovery code; nothing without an active factor; a missing table throws', async ({ data, userId }) => {
    const factor = await createTotpFactor(userId, {}, data.db);
    const code = await generate({ secret: factor.totpSecret });
    assert.is(await verifyMfaChallenge(userId, code, { db: data.db }), null, 'a pending factor does not count');
    await activateTotpFactor(factor.id, data.db);
    const codes = await replaceRecoveryCodes(userId, data.db);
    assert.equal((await verifyMfaChallenge(userId, code, { db: data.db }))?.method, 'totp');
    assert.is(await verifyMfaChallenge(userId, code, { db: data.db }), null, 'replay');
    assert.is(await verifyMfaChallenge(userId, codes[0]!, { db: data.db, totpOnly: true }), null);
    assert.equal(await verifyMfaChallenge(userId, codes[0]!, { db: data.db }), { method: 'recovery' });
    assert.is(await verifyMfaChallenge(userId, codes[0]!, { db: data.db }), null);
    await data.db.execute(dialect === 'sqlite' ? 'ALTER TABLE auth_mfa_factors RENAME TO mfa_off' : 'RENAME TABLE auth_mfa_factors TO mfa_off');
    try {
      let failed = false;
      await verifyMfaChallenge(userId, codes[1]!, { db: data.db }).catch(() => (failed = true));
      assert.ok(failed, 'a database error is thrown, never read as "no factor"');
    } finally {
      await data.db.execute(dialect === 'sqlite' ? 'ALTER TABLE mfa_off RENAME TO auth_mfa_factors' : 'RENAME TABLE mfa_off TO auth_mfa_factors');
    }
  });

  model.run();
}
