/**
 * Password hashes (docs/auth.md "Passwords"): Argon2id at OWASP's minimum for new hashes, verification of Argon2
 * and legacy PBKDF2 hashes (a vector computed here with node:crypto alone), rehash decisions for weaker hashes made
 * with the argon2 package itself, the length policy in code points, and malformed stored values.
 */
import { pbkdf2Sync, randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  ARGON2_PARAMS,
  PasswordPolicyError,
  checkPasswordPolicy,
  dummyVerifyPassword,
  hashPassword,
  isPbkdf2Hash,
  legacyPbkdf2Hash,
  passwordNeedsRehash,
  pbkdf2NeedsRehash,
  verifyPassword,
  verifyPasswordEvenly,
  dummyVerifyPbkdf2,
} from '../runtime/auth/passwords.js';

const PASSWORD = 'correct horse battery';

test('hashPassword: an Argon2id 1.3 PHC string with m=19456, t=2, p=1 (in the reference order) that verifies', async () => {
  assert.equal({ ...ARGON2_PARAMS }, { memoryCost: 19456, timeCost: 2, parallelism: 1 });
  const hash = await hashPassword(PASSWORD);
  assert.match(hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
  assert.ok(await verifyPassword(PASSWORD, hash));
  assert.not.ok(await verifyPassword('correct horse batterY', hash));
  assert.not.ok(await verifyPassword('', hash));
  // The argon2 package agrees (it writes m, p, t itself, and reads either order), and a second hash of the same password has its own salt.
  assert.ok(await argon2.verify(hash, PASSWORD));
  assert.is.not(await hashPassword(PASSWORD), hash);
  assert.not.ok(passwordNeedsRehash(hash));
});

test('policy: 8 to 1024 characters counted as code points, French messages, PasswordPolicyError from hashPassword', async () => {
  assert.is(checkPasswordPolicy('12345678'), null);
  assert.match(checkPasswordPolicy('1234567')!, /au moins 8 caractères/);
  assert.match(checkPasswordPolicy('')!, /au moins 8 caractères/);
  // Four emoji are 8 UTF-16 units but 4 characters: too short. Eight of them are 8 characters: accepted.
  assert.match(checkPasswordPolicy('😀😀😀😀')!, /au moins 8 caractères \(il en a 4\)/);
  assert.is(checkPasswordPolicy('😀'.repeat(8)), null);
  assert.is(checkPasswordPolicy('é'.repeat(1024)), null);
  assert.match(checkPasswordPolicy('é'.repeat(1025))!, /ne doit pas dépasser 1024 caractères/);
  // 1024 emoji are 2048 units and 1024 characters: accepted; one more is refused.
  assert.is(checkPasswordPolicy('😀'.repeat(1024)), null);
  assert.match(checkPasswordPolicy('😀'.repeat(1025))!, /1024/);
  assert.match(checkPasswordPolicy(undefined as unknown as string)!, /chaîne/);
  for (const bad of ['short', 'x'.repeat(1025)]) {
    try {
      await hashPassword(bad);
      assert.unreachable(`hashPassword accepted ${bad.length} characters`);
    } catch (err) {
      assert.instance(err, PasswordPolicyError);
      assert.is((err as PasswordPolicyError).message, checkPasswordPolicy(bad));
      assert.is((err as PasswordPolicyError).code, 'password_policy');
    }
  }
});

test('legacy PBKDF2: a vector computed with node:crypto alone verifies; wrong passwords and altered hashes do not', async () => {
  const salt = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
  const key = pbkdf2Sync(PASSWORD, salt, 260_000, 32, 'sha256');
  const stored = `${salt.toString('hex')}:${key.toString('hex')}`;
  assert.ok(isPbkdf2Hash(stored));
  assert.ok(await verifyPassword(PASSWORD, stored));
  assert.ok(await verifyPassword(PASSWORD, stored.toUpperCase()), 'hex digits in capitals');
  assert.not.ok(await verifyPassword(`${PASSWORD}!`, stored));
  const flipped = `${stored.slice(0, -1)}${stored.endsWith('0') ? '1' : '0'}`;
  assert.not.ok(await verifyPassword(PASSWORD, flipped));
  // The salt is the hex-decoded bytes, not the hex text: a hash made over the text does not verify.
  const overText = `${salt.toString('hex')}:${pbkdf2Sync(PASSWORD, salt.toString('hex'), 260_000, 32, 'sha256').toString('hex')}`;
  assert.not.ok(await verifyPassword(PASSWORD, overText));
  // legacyPbkdf2Hash (tests and migration tooling) writes the same format.
  const made = legacyPbkdf2Hash(PASSWORD, salt);
  assert.is(made, stored);
  assert.match(legacyPbkdf2Hash(PASSWORD), /^[0-9a-f]{32}:[0-9a-f]{64}$/);
  assert.ok(await verifyPassword(PASSWORD, legacyPbkdf2Hash(PASSWORD)));
  assert.is(pbkdf2NeedsRehash(stored), true);
  assert.is(passwordNeedsRehash(stored), true);
});

test('rehash decisions against hashes made by the argon2 package: weaker or other variants yes, the minimum or stronger no', async () => {
  const make = (options: Parameters<typeof argon2.hash>[1]) => argon2.hash(PASSWORD, options);
  const cases: Array<[string, string, boolean]> = [
    ['argon2id m=4096 t=1', await make({ type: argon2.argon2id, memoryCost: 4096, timeCost: 1, parallelism: 1 }), true],
    ['argon2id m=19456 t=1', await make({ type: argon2.argon2id, memoryCost: 19456, timeCost: 1, parallelism: 1 }), true],
    ['argon2id m=8192 t=2', await make({ type: argon2.argon2id, memoryCost: 8192, timeCost: 2, parallelism: 1 }), true],
    ['argon2i at the minimum', await make({ type: argon2.argon2i, ...ARGON2_PARAMS }), true],
    ['argon2d at the minimum', await make({ type: argon2.argon2d, ...ARGON2_PARAMS }), true],
    ['argon2id at the minimum', await make({ type: argon2.argon2id, ...ARGON2_PARAMS }), false],
    ['argon2id m=65536 t=3 p=4 (the package default)', await make({ type: argon2.argon2id }), false],
  ];
  for (const [label, hash, expected] of cases) {
    assert.is(passwordNeedsRehash(hash), expected, label);
    // Every one of them still verifies (a rehash happens after a successful login).
    assert.ok(await verifyPassword(PASSWORD, hash), `${label} verifies`);
    assert.not.ok(await verifyPassword('wrong password', hash), `${label} refuses a wrong password`);
  }
  // argon2's own needsRehash, given our parameters, agrees on the weaker argon2id ones; it also flags the stronger
  // hash (it tests equality), which we keep on purpose rather than lower it.
  for (const [label, hash, expected] of cases.filter(([label]) => label.startsWith('argon2id'))) {
    const theirs = argon2.needsRehash(hash, { ...ARGON2_PARAMS });
    if (expected) assert.ok(theirs, `argon2.needsRehash agrees on ${label}`);
  }
  assert.ok(argon2.needsRehash(cases[6]![1], { ...ARGON2_PARAMS }));
  // A hash without `v=` is Argon2 1.0: rehashed.
  const v10 = cases[5]![1].replace('$v=19', '');
  assert.ok(passwordNeedsRehash(v10));
});

test('malformed stored values: verify answers false and never throws; they need a rehash', async () => {
  const good = await hashPassword(PASSWORD);
  const parts = good.split('$');
  const bad = [
    '',
    'plain-text-password',
    PASSWORD,
    '$argon2id$',
    good.slice(0, good.lastIndexOf('$')),
    good.replace('argon2id', 'argon2x'),
    good.replace('m=19456', 'm=abc'),
    good.replace('m=19456', 'm=0'),
    good.replace('m=19456,', ''),
    good.replace('m=19456', 'm=4294967296'),
    // Parameters a server must not be made to run (16 GiB, 10,000 passes).
    good.replace('m=19456', 'm=16777216'),
    good.replace('t=2', 't=10000'),
    `$${parts[1]}$${parts[2]}$${parts[3]}$AAAA$${parts[5]}`,
    `$${parts[1]}$${parts[2]}$${parts[3]}$${parts[4]}$!!!!!!!!`,
    `${good}$extra`,
    'zz:' + 'a'.repeat(64),
    'abc:' + 'a'.repeat(64),
    '0011:' + 'a'.repeat(63),
    '0011:' + 'a'.repeat(66),
    ':' + 'a'.repeat(64),
    '0011' + 'a'.repeat(64),
    `${'00'.repeat(300)}:${'a'.repeat(64)}`,
  ];
  for (const stored of bad) {
    assert.is(await verifyPassword(PASSWORD, stored), false, JSON.stringify(stored.slice(0, 80)));
    assert.is(passwordNeedsRehash(stored), true, JSON.stringify(stored.slice(0, 80)));
  }
  for (const notText of [null, undefined, 42, {}]) {
    assert.is(await verifyPassword(PASSWORD, notText as unknown as string), false);
    assert.is(await verifyPassword(notText as unknown as string, good), false);
  }
  assert.not.ok(isPbkdf2Hash(good));
});

test('dummyVerifyPassword: always false, whatever the password (even one longer than the policy allows)', async () => {
  for (const password of [PASSWORD, '', 'x'.repeat(5000), randomBytes(8).toString('hex')]) {
    assert.is(await dummyVerifyPassword(password), false);
  }
  assert.is(await dummyVerifyPassword(undefined as unknown as string), false);
});

test("verifyPasswordEvenly (the login's check): true only for the right password of a real hash, with or without the PBKDF2 work", async () => {
  const argon = await hashPassword(PASSWORD);
  const legacy = legacyPbkdf2Hash(PASSWORD);
  for (const withPbkdf2 of [false, true]) {
    assert.is(await verifyPasswordEvenly(PASSWORD, argon, withPbkdf2), true);
    assert.is(await verifyPasswordEvenly('wrong password', argon, withPbkdf2), false);
    assert.is(await verifyPasswordEvenly(PASSWORD, legacy, withPbkdf2), true, 'a PBKDF2 hash is verified whatever the flag');
    assert.is(await verifyPasswordEvenly('wrong password', legacy, withPbkdf2), false);
    assert.is(await verifyPasswordEvenly(PASSWORD, null, withPbkdf2), false, 'no account');
    assert.is(await verifyPasswordEvenly(PASSWORD, 'not a hash', withPbkdf2), false);
  }
  assert.is(await dummyVerifyPbkdf2(PASSWORD), false);
});

test.run();
