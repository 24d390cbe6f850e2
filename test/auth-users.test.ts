// The users and roles repository (runtime/auth/users.ts, roles.ts) against real databases, one suite per dialect:
// the auth tables created by db:apply's own applier from the files auth:init writes, e-mails without case,
// UTC date strings, duplicates, roles, permissions and loadUserAccess, the default database when no `db` is given.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { applySqlFiles } from '../cli/db/apply.js';
import { authSqlContent } from '../emitters/auth/sql-files.js';
import { AUTH_TABLES } from '../runtime/auth/schema.js';
import * as users from '../runtime/auth/users.js';
import { configure, resetConfig } from '../runtime/config.js';
import { closeDatabase, DuplicateError, openDatabase, type Database, type DialectName } from '../runtime/db/index.js';
import { MARIADB_ADMIN } from './helpers/cli.js';
import { DIALECTS } from './helpers/dialects.js';

const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g';

/** Awaits `fn` and checks that it rejects with an error `accept` approves. */
async function rejects(fn: () => Promise<unknown>, accept: (error: unknown) => boolean): Promise<void> {
  let caught: unknown = null;
  try {
    await fn();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught !== null, 'expected a rejection');
  assert.ok(accept(caught), `unexpected error: ${String(caught)}`);
}

{
  const pure = suite('auth users: e-mail, role and permission rules');
  pure('normalizeEmail trims and lower-cases', () => {
    assert.is(users.normalizeEmail('  Alice@Example.COM \t'), 'alice@example.com');
  });
  pure('isValidEmail: one @, a local part, a dotted domain, no blank, at most 190 characters', () => {
    for (const good of ['a@b.co', 'alice.martin+tag@example.fr', 'x@sub.domain.example', `${'a'.repeat(179)}@example.fr`])
      assert.ok(users.isValidEmail(good), good);
    const bad = [
      '',
      'alice',
      '@example.com',
      'alice@',
      'alice@example',
      'a@b@c.fr',
      'al ice@example.com',
      'alice@example.com ',
      'alice@.example',
      'alice@example.',
      'alice@exa..mple',
      'a\u0000@b.fr',
      `${'a'.repeat(180)}@example.fr`,
    ];
    for (const value of bad) assert.not.ok(users.isValidEmail(value), JSON.stringify(value));
  });
  pure('isValidRoleName and isValidPermissionCode: lower-case ASCII', () => {
    for (const good of ['admin', 'editeur', 'support-n2', 'a.b_c']) assert.ok(users.isValidRoleName(good), good);
    for (const bad of ['', 'Admin', 'éditeur', '2admin', 'a b', 'a'.repeat(101)]) assert.not.ok(users.isValidRoleName(bad), bad);
    for (const good of ['contact.index', 'reports:view', '2fa.reset']) assert.ok(users.isValidPermissionCode(good), good);
    for (const bad of ['', 'Contact.index', 'a b', 'x'.repeat(151)]) assert.not.ok(users.isValidPermissionCode(bad), bad);
  });
  pure.run();
}

interface Target {
  readonly db: Database;
  readonly cleanup: () => Promise<void>;
  /** Makes the default database (getDatabase) this one. */
  readonly useAsDefault: () => void;
}

async function makeTarget(dialect: DialectName): Promise<Target> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-authusers-'));
    const file = path.join(dir, 'auth.sqlite');
    const db = openDatabase({ driver: 'sqlite', file });
    return {
      db,
      useAsDefault: () => configure({ db_driver: 'sqlite', db_file: file }),
      cleanup: async () => {
        await db.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `fw_authusers_${randomBytes(5).toString('hex')}`;
  const server = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, poolSize: 1 });
  await server.execute(`CREATE DATABASE \`${name}\``).finally(() => server.close());
  const db = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, database: name, poolSize: 2 });
  return {
    db,
    useAsDefault: () =>
      configure({
        db_driver: 'mariadb',
        db_host: MARIADB_ADMIN.host,
        db_port: MARIADB_ADMIN.port,
        db_user: MARIADB_ADMIN.user,
        db_password: MARIADB_ADMIN.password,
        db_name: name,
      }),
    cleanup: async () => {
      await db.close();
      const again = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, poolSize: 1 });
      await again.execute(`DROP DATABASE IF EXISTS \`${name}\``).finally(() => again.close());
    },
  };
}

for (const dialect of DIALECTS) {
  const t = suite(`auth users repository (${dialect})`);
  let target: Target;
  let db: Database;

  t.before(async () => {
    target = await makeTarget(dialect);
    db = target.db;
    const files = AUTH_TABLES.map((table) => ({ path: table.name, text: authSqlContent(table, dialect) }));
    const report = await applySqlFiles(db, files);
    assert.ok(report.ok, JSON.stringify(report.files.find((f) => f.failure)));
  });
  t.after(async () => {
    await closeDatabase();
    resetConfig();
    await target.cleanup();
  });

  t('createUser stores the e-mail normalised; find by e-mail in any case, by id; UTC date strings', async () => {
    const id = await users.createUser({ email: '  Alice@Example.com ', passwordHash: HASH }, db);
    assert.ok(Number.isInteger(id) && id > 0);
    const byEmail = await users.findUserByEmail('ALICE@example.COM', db);
    assert.ok(byEmail);
    assert.equal(byEmail, await users.findUserById(id, db));
    assert.is(byEmail.email, 'alice@example.com');
    assert.is(byEmail.passwordHash, HASH);
    assert.is(byEmail.isActive, true);
    assert.is(byEmail.emailVerifiedAt, null);
    assert.is(byEmail.lastLoginAt, null);
    assert.match(byEmail.createdAt, DATE);
    assert.is(byEmail.updatedAt, byEmail.createdAt);
    assert.is(await users.findUserByEmail('nobody@example.com', db), null);
    assert.is(await users.findUserById(999_999, db), null);
    assert.is(await users.findUserById(0, db), null);
  });

  t('a duplicate e-mail in another case is a DuplicateError; the row stays alone', async () => {
    let caught: unknown;
    try {
      await users.createUser({ email: 'ALICE@EXAMPLE.COM', passwordHash: HASH }, db);
    } catch (error) {
      caught = error;
    }
    assert.instance(caught, DuplicateError);
    assert.is((await users.listUsers(db)).length, 1);
  });

  t('createUser refuses an invalid e-mail and an empty hash (TypeError), writing nothing', async () => {
    for (const user of [
      { email: 'not-an-email', passwordHash: HASH },
      { email: 'bob@example.com', passwordHash: '' },
    ]) {
      let caught: unknown;
      try {
        await users.createUser(user, db);
      } catch (error) {
        caught = error;
      }
      assert.instance(caught, TypeError);
    }
    assert.is((await users.listUsers(db)).length, 1);
  });

  t('setUserActive, updatePasswordHash (updated_at moves), recordSuccessfulLogin; false for an unknown id', async () => {
    const id = await users.createUser({ email: 'bob@example.com', passwordHash: HASH, isActive: false }, db);
    assert.is((await users.findUserById(id, db))!.isActive, false);
    assert.is(await users.setUserActive(id, true, db), true);
    assert.is((await users.findUserById(id, db))!.isActive, true);
    await db.execute("UPDATE users SET updated_at = '2001-02-03 04:05:06' WHERE id = ?", [id]);
    assert.is(await users.updatePasswordHash(id, `${HASH}x`, db), true);
    const changed = (await users.findUserById(id, db))!;
    assert.is(changed.passwordHash, `${HASH}x`);
    assert.match(changed.updatedAt, DATE);
    assert.ok(changed.updatedAt > '2001-02-03 04:05:06');
    await users.recordSuccessfulLogin(id, db);
    assert.match((await users.findUserById(id, db))!.lastLoginAt ?? '', DATE);
    assert.is(await users.setUserActive(999_999, false, db), false);
    assert.is(await users.updatePasswordHash(999_999, HASH, db), false);
    assert.equal(
      (await users.listUsers(db)).map((u) => u.email),
      ['alice@example.com', 'bob@example.com'],
    );
  });

  t('roles: create, find, duplicate, invalid name; add is idempotent; unknown role and user refused', async () => {
    const alice = (await users.findUserByEmail('alice@example.com', db))!.id;
    const adminId = await users.createRole('admin', db);
    await users.createRole('editeur', db);
    const found = await users.findRole('admin', db);
    assert.is(found?.id, adminId);
    assert.is(found?.name, 'admin');
    assert.match(found?.createdAt ?? '', DATE);
    assert.is(await users.findRole('Admin', db), null);
    assert.is(await users.findRole('nope', db), null);
    await rejects(
      () => users.createRole('admin', db),
      (error: unknown) => error instanceof DuplicateError,
    );
    await rejects(
      () => users.createRole('Éditeur', db),
      (error: unknown) => error instanceof TypeError,
    );
    assert.is(await users.addUserRole(alice, 'editeur', db), true);
    assert.is(await users.addUserRole(alice, 'editeur', db), false);
    assert.is(await users.addUserRole(alice, 'admin', db), true);
    await rejects(
      () => users.addUserRole(alice, 'nope', db),
      (error: unknown) => error instanceof users.UnknownRoleError && error.role === 'nope',
    );
    await rejects(
      () => users.addUserRole(999_999, 'admin', db),
      (error: unknown) => error instanceof users.UnknownUserError,
    );
    assert.equal(await users.userRoles(alice, db), ['admin', 'editeur']);
    const listed = await users.listRoles(db);
    assert.equal(
      listed.map((r) => [r.name, r.userCount]),
      [
        ['admin', 1],
        ['editeur', 1],
      ],
    );
    assert.is(await users.removeUserRole(alice, 'admin', db), true);
    assert.is(await users.removeUserRole(alice, 'admin', db), false);
    await rejects(
      () => users.removeUserRole(alice, 'nope', db),
      (error: unknown) => error instanceof users.UnknownRoleError,
    );
    assert.equal(await users.userRoles(alice, db), ['editeur']);
  });

  t('loadUserAccess: roles and the permissions their grants give, sorted and unique', async () => {
    const alice = (await users.findUserByEmail('alice@example.com', db))!.id;
    const bob = (await users.findUserByEmail('bob@example.com', db))!.id;
    await users.createRole('support', db);
    await users.addUserRole(alice, 'support', db);
    await users.createPermission('contact.index', 'Voir les contacts', db);
    await rejects(
      () => users.createPermission('contact.index', undefined, db),
      (error: unknown) => error instanceof DuplicateError,
    );
    // grantPermission creates a missing permission, and is idempotent.
    assert.is(await users.grantPermission('support', 'contact.index', db), true);
    assert.is(await users.grantPermission('support', 'contact.index', db), false);
    assert.is(await users.grantPermission('editeur', 'contact.index', db), true);
    assert.is(await users.grantPermission('editeur', 'contact.delete', db), true);
    assert.is(await users.grantPermission('editeur', 'articles:publish', db), true);
    await rejects(
      () => users.grantPermission('nope', 'x.y', db),
      (error: unknown) => error instanceof users.UnknownRoleError,
    );
    const permissions = await db.fetchAll<{ code: string; label: string | null }>('SELECT code, label FROM permissions ORDER BY id');
    assert.equal(permissions, [
      { code: 'contact.index', label: 'Voir les contacts' },
      { code: 'contact.delete', label: null },
      { code: 'articles:publish', label: null },
    ]);
    assert.equal(await users.loadUserAccess(alice, db), {
      roles: ['editeur', 'support'],
      permissions: ['articles:publish', 'contact.delete', 'contact.index'],
    });
    assert.equal(await users.loadUserAccess(bob, db), { roles: [], permissions: [] });
    assert.equal(await users.loadUserAccess(999_999, db), { roles: [], permissions: [] });
  });

  t('without a db argument, the functions use the default database of the configuration', async () => {
    target.useAsDefault();
    const id = await users.createUser({ email: 'Default@Example.com', passwordHash: HASH });
    assert.is((await users.findUserByEmail('default@example.com'))?.id, id);
    assert.is(await users.addUserRole(id, 'admin'), true);
    assert.equal(await users.loadUserAccess(id), { roles: ['admin'], permissions: [] });
    // The same rows, seen through the test's own handle.
    assert.is((await users.findUserById(id, db))?.email, 'default@example.com');
  });

  t.run();
}
