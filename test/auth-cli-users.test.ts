// `fw auth:user:*` and `fw auth:role:*` as real processes on SQLite and on MariaDB (one suite per dialect): users
// created with --password and with the prompt on piped stdin, list, show, disable / enable and password (which
// close the user's sessions in the file or database store; password also ends the user's reset links), roles; the
// audit records appended to storage/logs/auth-audit.log, never printed; every bad input refused with `Erreur :` and
// `Conseil :`, exit 1 and the database unchanged; no hash or password ever printed.
import argon2 from 'argon2';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createResetToken, findResetToken } from '../runtime/auth/password-reset-tokens.js';
import { DatabaseSessionStore } from '../runtime/session/database-store.js';
import { FileSessionStore } from '../runtime/session/file-store.js';
import type { SessionStore } from '../runtime/session/store.js';
import { lines, newProject, type CliProject, type Run, type RunOptions } from './helpers/cli.js';
import { configure } from '../runtime/config.js';
import { DIALECTS } from './helpers/dialects.js';

// This process keys the sessions it writes with a secret of its own (never a file in the working directory).
configure({ app_secret: 'auth-cli-users-test-secret'.padEnd(48, 'x') });

const PASSWORD = 'correct horse battery';
const PROMPTED = 'staple-2-Battery';
const NEW_PASSWORD = 'a brand new passphrase';
const PASSWORD_WARNING = [
  "Attention : un mot de passe passé par --password est visible dans la liste des processus et peut rester dans l'historique du shell.",
  'Conseil : préférez --password-prompt (saisie masquée).',
];

for (const dialect of DIALECTS) {
  const t = suite(`auth:user:* and auth:role:* (${dialect})`);
  const sqlite = dialect === 'sqlite';
  /** SQLite runs with the file store, MariaDB with the database store. */
  const STORE = sqlite ? 'file' : 'database';
  let project: CliProject;
  const outputs: string[] = [];

  t.before(() => {
    project = newProject('AuthUsers');
    project.useDialect(dialect);
  });
  t.after(async () => {
    await project?.cleanup();
  });

  /** The lines of storage/logs/auth-audit.log. */
  const auditLines = (): string[] => (project.exists('storage/logs/auth-audit.log') ? lines(project.read('storage/logs/auth-audit.log')) : []);
  /** The audit lines each run appended. */
  const appended = new WeakMap<Run, string[]>();

  function fw(args: string[], options: RunOptions = {}): Run {
    const before = auditLines().length;
    const run = project.run(args, { ...options, env: { SESSION_STORE: STORE, ...options.env } });
    appended.set(run, auditLines().slice(before));
    outputs.push(run.stdout, run.stderr);
    return run;
  }

  function ok(args: string[], options: RunOptions = {}): string[] {
    const run = fw(args, options);
    assert.is(run.status, 0, `fw ${args.join(' ')} : ${run.stdout}${run.stderr}`);
    return lines(run.stdout);
  }

  /** The rows of the auth tables a command may write. */
  async function dump(): Promise<string> {
    const db = project.open();
    try {
      const rows = [];
      for (const table of ['users', 'roles', 'user_roles']) rows.push(await db.fetchAll(`SELECT * FROM ${table} ORDER BY 1, 2`));
      return JSON.stringify(rows);
    } finally {
      await db.close();
    }
  }

  /** A refused command: exit 1, nothing on stdout, `Erreur :` and `Conseil :` lines, the database unchanged. */
  async function refused(args: string[], expected: ReadonlyArray<string | RegExp>, options: RunOptions = {}): Promise<void> {
    const before = await dump();
    const run = fw(args, options);
    assert.is(run.status, 1, `fw ${args.join(' ')} : ${run.stdout}${run.stderr}`);
    assert.is(run.stdout, '', `fw ${args.join(' ')}`);
    const err = lines(run.stderr).filter((line) => !PASSWORD_WARNING.includes(line));
    assert.is(err.length, expected.length, run.stderr);
    expected.forEach((want, i) => (typeof want === 'string' ? assert.is(err[i], want) : assert.match(err[i]!, want)));
    assert.is(await dump(), before, `fw ${args.join(' ')} wrote to the database`);
  }

  async function user(email: string): Promise<{ id: number; password_hash: string; is_active: number; updated_at: string }> {
    const db = project.open();
    try {
      const row = await db.fetchOne<{ id: number; password_hash: string; is_active: number; updated_at: string }>(
        'SELECT id, password_hash, is_active, updated_at FROM users WHERE email = ?',
        [email],
      );
      assert.ok(row, email);
      return { ...row, id: Number(row.id), is_active: Number(row.is_active) };
    } finally {
      await db.close();
    }
  }

  /** The store the application would use, opened by the test on the project's folder or database. */
  async function withStore<T>(fn: (store: SessionStore) => Promise<T>): Promise<T> {
    if (sqlite) return fn(new FileSessionStore({ dir: project.path('storage/sessions') }));
    const db = project.open();
    try {
      return await fn(new DatabaseSessionStore({ database: db }));
    } finally {
      await db.close();
    }
  }

  /**
   * The fw.auth.audit records a command appended to storage/logs/auth-audit.log (`<time> <LEVEL> fw.auth.audit:
   * <event> <json>`), with their level; its stderr holds none of them (the terminal shows the messages only).
   */
  function auditEvents(run: Run): Array<Record<string, unknown>> {
    assert.not.match(run.stderr, 'fw.auth.audit', 'no audit line on the terminal');
    assert.not.match(run.stdout, 'fw.auth.audit', 'no audit line on the terminal');
    return appended.get(run)!.map((line) => {
      const match = /^\d{4}-\d\d-\d\dT[\d:.]+Z (INFO|WARNING) fw\.auth\.audit: (\S+) (\{.*\})$/.exec(line);
      assert.ok(match, line);
      return { level: match![1], ...JSON.parse(match![3]!) };
    });
  }

  const sessionFor = (id: number, login: string) => ({ user: { id, login, roles: [], permissions: [] } });
  /** A session between the password and the code of a login with a second factor (as startMfaChallenge leaves it). */
  const challengeFor = (id: number) => ({ _auth_mfa_user_id: id, _auth_mfa_started_at: Math.floor(Date.now() / 1000), _auth_mfa_next: '/' });
  const target = (): string => (sqlite ? 'SQLite storage/database.sqlite' : `MariaDB 127.0.0.1:3306/${/DB_NAME=(\S+)/.exec(project.read('env/dev'))![1]}`);

  t('before the tables exist: refused, advising auth:init then db:apply; nothing created', async () => {
    if (!sqlite) ok(['db:init']);
    const run = fw(['auth:user:create', '--email', 'alice@example.com', '--password-prompt'], { input: `${PASSWORD}\n${PASSWORD}\n` });
    assert.is(run.status, 1);
    assert.equal(lines(run.stderr), [
      `Erreur : tables d'authentification absentes de la base (${target()}) : users.`,
      'Conseil : lancez « fw auth:init » puis « fw db:apply ».',
    ]);
    if (sqlite) assert.not.ok(project.exists('storage/database.sqlite'), 'the SQLite file is not created');
    for (const args of [['auth:user:list'], ['auth:role:list'], ['auth:user:show', '--id', '1']]) assert.is(fw(args).status, 1, args.join(' '));
    if (sqlite) ok(['db:init']);
    ok(['auth:init']);
    ok(['db:apply']);
  });

  t('auth:user:create --password: created, a warning about the process list, an Argon2id hash of the password', async () => {
    const run = fw(['auth:user:create', '--email', 'Alice@Example.com', '--password', PASSWORD]);
    assert.is(run.status, 0, run.stderr);
    assert.is(run.stdout, 'Utilisateur créé : #1 alice@example.com (actif).\n');
    assert.equal(lines(run.stderr), PASSWORD_WARNING);
    const row = await user('alice@example.com');
    const params = /^\$argon2id\$v=19\$([^$]+)\$/.exec(row.password_hash)?.[1] ?? '';
    assert.equal(params.split(',').sort(), ['m=19456', 'p=1', 't=2']);
    assert.ok(await argon2.verify(row.password_hash, PASSWORD));
    assert.is(row.is_active, 1);
  });

  t('auth:role:create and auth:role:list; invalid or taken names refused', async () => {
    assert.equal(ok(['auth:role:list']), ['(aucun rôle : « fw auth:role:create <nom> » en crée un)']);
    assert.equal(ok(['auth:role:create', 'admin']), ['Rôle « admin » créé (#1).']);
    assert.equal(ok(['auth:role:create', 'editeur']), ['Rôle « editeur » créé (#2).']);
    await refused(
      ['auth:role:create', 'admin'],
      [
        'Erreur : le rôle « admin » existe déjà.',
        'Conseil : « fw auth:role:list » liste les rôles ; « fw auth:user:role:add --email <EMAIL> --role admin » le donne à un utilisateur.',
      ],
    );
    await refused(
      ['auth:role:create', 'Éditeur en chef'],
      [
        'Erreur : nom de rôle invalide : « Éditeur en chef ».',
        'Conseil : un nom de rôle commence par une lettre minuscule, puis lettres minuscules non accentuées, chiffres, « _ », « . » ou « - » (100 caractères au plus), par exemple « editeur-en-chef ».',
      ],
    );
    await refused(
      ['auth:role:create'],
      ["Erreur : il manque l'argument <nom> de « fw auth:role:create ».", 'Conseil : par exemple « fw auth:role:create admin ».'],
    );
  });

  t('auth:user:create --password-prompt reads two lines of piped stdin; --role gives existing roles', async () => {
    const run = fw(['auth:user:create', '--email', 'bob@example.com', '--password-prompt', '--role', 'editeur', '--role', 'admin'], {
      input: `${PROMPTED}\r\n${PROMPTED}\n`,
    });
    assert.is(run.status, 0, run.stderr);
    assert.is(run.stderr, '');
    assert.is(run.stdout, 'Utilisateur créé : #2 bob@example.com (actif), rôles : editeur, admin.\n');
    assert.ok(await argon2.verify((await user('bob@example.com')).password_hash, PROMPTED));
    assert.equal(ok(['auth:user:roles', '--email', 'BOB@example.com']), ['Rôles de #2 bob@example.com :', '  admin', '  editeur']);
  });

  t('auth:user:create: every bad input refused, nothing written', async () => {
    const create = (...rest: string[]): string[] => ['auth:user:create', ...rest];
    await refused(create('--email', 'ALICE@example.COM', '--password', PASSWORD), [
      "Erreur : un utilisateur a déjà l'e-mail « alice@example.com » (#1) (les e-mails ne tiennent pas compte de la casse).",
      'Conseil : choisissez une autre adresse, ou changez son mot de passe : « fw auth:user:password --email alice@example.com --password-prompt ».',
    ]);
    for (const bad of ['carol', 'carol@example', 'ca rol@example.com', 'a@b@example.com', `${'c'.repeat(181)}@example.com`]) {
      await refused(create('--email', bad, '--password', PASSWORD), [
        `Erreur : adresse e-mail invalide : « ${bad} ».`,
        'Conseil : donnez une adresse comme alice@example.com : un seul @, un domaine avec un point, sans espace, 190 caractères au plus.',
      ]);
    }
    const policy = 'Conseil : choisissez un mot de passe de 8 à 1024 caractères et relancez la commande.';
    await refused(create('--email', 'carol@example.com', '--password', 'short12'), [/^Erreur : le mot de passe .*8.*\.$/, policy]);
    await refused(create('--email', 'carol@example.com', '--password', 'x'.repeat(1025)), [/^Erreur : le mot de passe .*1024.*\.$/, policy]);
    await refused(create('--email', 'carol@example.com', '--password-prompt'), [/^Erreur : le mot de passe .*8.*\.$/, policy], { input: 'short\nshort\n' });
    await refused(
      create('--email', 'carol@example.com', '--password-prompt'),
      ["Erreur : les deux saisies du mot de passe diffèrent ; rien n'a été écrit.", 'Conseil : relancez la commande et tapez deux fois le même mot de passe.'],
      { input: `${PROMPTED}\n${PROMPTED}x\n` },
    );
    await refused(
      create('--email', 'carol@example.com', '--password-prompt'),
      [
        "Erreur : l'entrée standard s'est terminée avant le mot de passe et sa confirmation (deux lignes attendues).",
        'Conseil : lancez la commande dans un terminal, ou envoyez deux lignes identiques sur son entrée standard.',
      ],
      { input: `${PROMPTED}\n` },
    );
    await refused(create('--email', 'carol@example.com', '--password', PASSWORD, '--password-prompt'), [
      'Erreur : --password et --password-prompt ne vont pas ensemble pour « fw auth:user:create ».',
      'Conseil : gardez --password-prompt (saisie masquée), par exemple « fw auth:user:create --email alice@example.com --password-prompt ».',
    ]);
    await refused(
      create('--email', 'carol@example.com'),
      [
        '« fw auth:user:create » attend le mot de passe : --password-prompt ou --password <valeur>.',
        'par exemple « fw auth:user:create --email alice@example.com --password-prompt » (saisie masquée, deux fois).',
      ].map((text, i) => `${i === 0 ? 'Erreur' : 'Conseil'} : ${text}`),
    );
    await refused(create('--password-prompt'), [
      'Erreur : « fw auth:user:create » attend --email <EMAIL>.',
      'Conseil : par exemple « fw auth:user:create --email alice@example.com --password-prompt ».',
    ]);
    await refused(create('--email', 'carol@example.com', '--password', PASSWORD, '--role', 'support'), [
      'Erreur : rôle inconnu : « support » (rôles existants : admin, editeur).',
      "Conseil : créez-le d'abord avec « fw auth:role:create support », ou choisissez un rôle existant.",
    ]);
    await refused(create('--email', 'carol@example.com', '--password', PASSWORD, '--role', 'Admin'), [
      /^Erreur : nom de rôle invalide : « Admin »\.$/,
      /^Conseil : .*par exemple « admin »\.$/,
    ]);
  });

  t('auth:user:list and auth:user:show: no secret, e-mails in any case; selectors refused when wrong', async () => {
    const list = ok(['auth:user:list']);
    assert.is(list[0], 'ID  EMAIL              ACTIF  E-MAIL VÉRIFIÉ  DERNIÈRE CONNEXION  CRÉÉ LE');
    assert.match(list[1]!, /^1 {3}alice@example\.com {2}oui {4}non {13}jamais {14}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.match(list[2]!, /^2 {3}bob@example\.com {4}oui /);
    assert.is(list[3], '2 utilisateur(s), 2 actif(s) ; dates en UTC.');
    const show = ok(['auth:user:show', '--email', 'Bob@EXAMPLE.com']);
    assert.equal(show.slice(0, 5), [
      'Utilisateur #2',
      '  E-mail              bob@example.com',
      '  Actif               oui',
      '  E-mail vérifié      non',
      '  Dernière connexion  jamais',
    ]);
    assert.match(show[5]!, /^ {2}Créé le {13}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    assert.equal(show.slice(7), ['  Rôles               admin, editeur', '  Permissions         (aucune)']);
    assert.equal(ok(['auth:user:show', '--id', '2']), show);
    await refused(
      ['auth:user:show', '--id', '99'],
      ["Erreur : aucun utilisateur n'a l'identifiant 99.", 'Conseil : « fw auth:user:list » liste les utilisateurs et leurs identifiants.'],
    );
    await refused(
      ['auth:user:show', '--email', 'Nobody@example.com'],
      [
        "Erreur : aucun utilisateur n'a l'e-mail « nobody@example.com ».",
        'Conseil : « fw auth:user:list » liste les utilisateurs ; « fw auth:user:create --email nobody@example.com --password-prompt » en crée un.',
      ],
    );
    await refused(
      ['auth:user:show', '--id', '1', '--email', 'alice@example.com'],
      [
        'Erreur : --id et --email ne vont pas ensemble : « fw auth:user:show » désigne un seul utilisateur.',
        "Conseil : gardez l'un des deux, par exemple « fw auth:user:show --email alice@example.com » ou « fw auth:user:show --id 1 ».",
      ],
    );
    await refused(
      ['auth:user:show'],
      [
        "Erreur : « fw auth:user:show » attend l'utilisateur : --id <id> ou --email <EMAIL>.",
        'Conseil : par exemple « fw auth:user:show --email alice@example.com » ou « fw auth:user:show --id 1 » ; « fw auth:user:list » liste les utilisateurs.',
      ],
    );
    for (const id of ['abc', '0', '-1', '1.5'])
      await refused(
        ['auth:user:show', '--id', id],
        [`Erreur : --id attend un entier positif (lu : « ${id} »).`, 'Conseil : « fw auth:user:list » donne les identifiants.'],
      );
  });

  t(
    `auth:user:disable closes the user's sessions and pending second-factor challenges (${STORE} store), leaves the others; enable; again says so`,
    async () => {
      const alice = await user('alice@example.com');
      const ids = await withStore(async (store) => [
        await store.create(sessionFor(alice.id, 'alice@example.com')),
        await store.create(sessionFor(alice.id, 'alice@example.com')),
        await store.create(challengeFor(alice.id)),
        await store.create(sessionFor(2, 'bob@example.com')),
        await store.create(challengeFor(2)),
      ]);
      const where = sqlite ? 'stockage file, storage/sessions' : 'stockage database, table fw_sessions';
      const disabled = fw(['auth:user:disable', '--email', 'alice@example.com']);
      assert.is(disabled.status, 0, disabled.stderr);
      assert.equal(lines(disabled.stdout), ['Utilisateur #1 alice@example.com désactivé.', `Sessions fermées : 3 (${where}).`]);
      assert.equal(auditEvents(disabled), [{ level: 'WARNING', event: 'user.disabled', user_id: 1, ip: null, user_agent: null, metadata: { source: 'cli' } }]);
      assert.is((await user('alice@example.com')).is_active, 0);
      assert.equal(await withStore(async (store) => Promise.all(ids.map(async (id) => (await store.get(id)) !== null))), [false, false, false, true, true]);
      assert.equal(ok(['auth:user:disable', '--id', '1']), ["#1 alice@example.com est déjà inactif : rien n'a changé.", `Sessions fermées : 0 (${where}).`]);
      assert.match(ok(['auth:user:list'])[1]!, /^1 {3}alice@example\.com {2}non /);
      const enabled = fw(['auth:user:enable', '--id', '1']);
      assert.equal(lines(enabled.stdout), ['Utilisateur #1 alice@example.com réactivé.']);
      assert.equal(auditEvents(enabled), [{ level: 'INFO', event: 'user.enabled', user_id: 1, ip: null, user_agent: null, metadata: { source: 'cli' } }]);
      assert.equal(ok(['auth:user:enable', '--email', 'alice@example.com']), ["#1 alice@example.com est déjà actif : rien n'a changé."]);
      assert.is((await user('alice@example.com')).is_active, 1);
      await refused(
        ['auth:user:disable', '--email', 'nobody@example.com'],
        [/^Erreur : aucun utilisateur n'a l'e-mail « nobody@example\.com »\.$/, /^Conseil : /],
      );
    },
  );

  t('with the memory store the change is made (exit 0) with an Attention on stderr; an unknown SESSION_STORE is refused first', async () => {
    const attention =
      "Attention : les sessions ouvertes de l'utilisateur #2 ne sont PAS fermées : le stockage memory (SESSION_STORE) vit dans le processus du serveur, hors de portée de cette commande, et une session utilisée reste ouverte sans fin. " +
      'Redémarrez le serveur pour les fermer, ou passez à SESSION_STORE=file ou database (docs/auth.md, « Commands »).';
    const disabled = fw(['auth:user:disable', '--id', '2'], { env: { SESSION_STORE: 'memory' } });
    assert.is(disabled.status, 0, disabled.stderr);
    assert.equal(lines(disabled.stdout), [
      'Utilisateur #2 bob@example.com désactivé.',
      "Sessions : non fermées (stockage memory, hors de portée de cette commande ; voir l'avertissement).",
    ]);
    assert.ok(lines(disabled.stderr).includes(attention), disabled.stderr);
    assert.is((await user('bob@example.com')).is_active, 0, 'the user is disabled all the same');
    ok(['auth:user:enable', '--id', '2']);
    const before = (await user('bob@example.com')).password_hash;
    const changed = fw(['auth:user:password', '--id', '2', '--password-prompt'], { env: { SESSION_STORE: 'memory' }, input: 'another horse\nanother horse\n' });
    assert.is(changed.status, 0, changed.stderr);
    assert.equal(lines(changed.stdout), [
      'Mot de passe de #2 bob@example.com changé.',
      "Sessions : non fermées (stockage memory, hors de portée de cette commande ; voir l'avertissement).",
    ]);
    assert.ok(lines(changed.stderr).includes(attention), changed.stderr);
    assert.is.not((await user('bob@example.com')).password_hash, before, 'the password is changed all the same');
    await refused(
      ['auth:user:disable', '--id', '2'],
      [
        "Erreur : SESSION_STORE vaut « memcached » : stockage de sessions inconnu ; valeurs acceptées : memory, file, database, redis ; rien n'a été modifié.",
        'Conseil : corrigez SESSION_STORE dans env/dev.',
      ],
      { env: { SESSION_STORE: 'memcached' } },
    );
  });

  t('auth:user:password: a new hash (old password refused), updated_at moved, sessions closed; bad inputs refused', async () => {
    const before = await user('alice@example.com');
    const db = project.open();
    await db.execute("UPDATE users SET updated_at = '2001-02-03 04:05:06' WHERE id = ?", [before.id]).finally(() => db.close());
    const [session, challenge] = await withStore(async (store) => [
      await store.create(sessionFor(before.id, 'alice@example.com')),
      await store.create(challengeFor(before.id)),
    ]);
    // A reset link asked for before the change (docs/auth.md "Password reset") dies with it.
    const tokenDb = project.open();
    const resetToken = await createResetToken(before.id, tokenDb).finally(() => tokenDb.close());
    const changed = fw(['auth:user:password', '--email', 'alice@example.com', '--password-prompt'], { input: `${NEW_PASSWORD}\n${NEW_PASSWORD}\n` });
    assert.is(changed.status, 0, changed.stderr);
    const afterDb = project.open();
    assert.equal(await findResetToken(resetToken, afterDb).finally(() => afterDb.close()), { refusal: 'used' }, 'the reset link of before is ended');
    assert.equal(
      auditEvents(changed).map((e) => [e.level, e.event, e.user_id]),
      [['INFO', 'user.password_changed', before.id]],
    );
    const out = lines(changed.stdout);
    assert.is(out[0], 'Mot de passe de #1 alice@example.com changé.');
    assert.match(out[1]!, /^Sessions fermées : 2 \(stockage /);
    const after = await user('alice@example.com');
    assert.ok(await argon2.verify(after.password_hash, NEW_PASSWORD));
    assert.not.ok(await argon2.verify(after.password_hash, PASSWORD));
    assert.ok(String(after.updated_at) > '2001-02-03 04:05:06');
    assert.is(await withStore((store) => store.get(session)), null);
    assert.is(await withStore((store) => store.get(challenge)), null, 'the challenge the old password opened is ended');
    await refused(
      ['auth:user:password', '--id', '1', '--password', 'short'],
      [/^Erreur : le mot de passe .*8.*\.$/, /^Conseil : choisissez un mot de passe de 8 à 1024 caractères/],
    );
    await refused(
      ['auth:user:password', '--id', '1'],
      [
        'Erreur : « fw auth:user:password » attend le mot de passe : --password-prompt ou --password <valeur>.',
        'Conseil : par exemple « fw auth:user:password --id 1 --password-prompt » (saisie masquée, deux fois).',
      ],
    );
    await refused(['auth:user:password', '--id', '42', '--password', PASSWORD], ["Erreur : aucun utilisateur n'a l'identifiant 42.", /^Conseil : /]);
    await refused(['auth:user:password', '--id', '1', '--password-prompt'], [/^Erreur : les deux saisies du mot de passe diffèrent/, /^Conseil : /], {
      input: `${NEW_PASSWORD}\nother password\n`,
    });
  });

  t('auth:user:role:add / remove / roles, auth:role:list counts; unknown role or user refused', async () => {
    const added = fw(['auth:user:role:add', '--id', '1', '--role', 'admin']);
    assert.equal(lines(added.stdout), ['Rôle « admin » donné à #1 alice@example.com (effectif à sa prochaine connexion).']);
    assert.equal(auditEvents(added), [
      { level: 'INFO', event: 'user_role.added', user_id: 1, ip: null, user_agent: null, metadata: { source: 'cli', role: 'admin' } },
    ]);
    assert.equal(ok(['auth:user:role:add', '--email', 'ALICE@example.com', '--role', 'admin']), [
      "#1 alice@example.com a déjà le rôle « admin » : rien n'a changé.",
    ]);
    const roles = ok(['auth:role:list']);
    assert.is(roles[0], 'RÔLE     UTILISATEURS  CRÉÉ LE');
    assert.match(roles[1]!, /^admin {4}2 {13}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.match(roles[2]!, /^editeur {2}1 {13}\d{4}-/);
    assert.is(roles[3], '2 rôle(s) ; dates en UTC.');
    const removed = fw(['auth:user:role:remove', '--id', '2', '--role', 'editeur']);
    assert.equal(lines(removed.stdout), ['Rôle « editeur » retiré à #2 bob@example.com (effectif à sa prochaine connexion).']);
    assert.equal(
      auditEvents(removed).map((e) => [e.event, e.user_id, e.metadata]),
      [['user_role.removed', 2, { source: 'cli', role: 'editeur' }]],
    );
    assert.equal(ok(['auth:user:role:remove', '--id', '2', '--role', 'editeur']), ["#2 bob@example.com n'a pas le rôle « editeur » : rien n'a changé."]);
    assert.equal(ok(['auth:user:roles', '--id', '2']), ['Rôles de #2 bob@example.com :', '  admin']);
    ok(['auth:user:role:remove', '--id', '2', '--role', 'admin']);
    assert.equal(ok(['auth:user:roles', '--id', '2']), ['Rôles de #2 bob@example.com :', '  (aucun rôle)']);
    await refused(
      ['auth:user:role:add', '--id', '1', '--role', 'support'],
      [
        'Erreur : rôle inconnu : « support » (rôles existants : admin, editeur).',
        "Conseil : créez-le d'abord avec « fw auth:role:create support », ou choisissez un rôle existant.",
      ],
    );
    await refused(['auth:user:role:remove', '--id', '1', '--role', 'support'], [/^Erreur : rôle inconnu : « support »/, /^Conseil : /]);
    await refused(['auth:user:role:add', '--id', '9', '--role', 'admin'], ["Erreur : aucun utilisateur n'a l'identifiant 9.", /^Conseil : /]);
    await refused(
      ['auth:user:role:add', '--id', '1'],
      [
        'Erreur : « fw auth:user:role:add » attend --role <rôle>.',
        'Conseil : par exemple « fw auth:user:role:add --email alice@example.com --role admin » ; « fw auth:role:list » liste les rôles.',
      ],
    );
    await refused(['auth:user:role:add', '--role', 'admin'], [/^Erreur : « fw auth:user:role:add » attend l'utilisateur/, /^Conseil : /]);
  });

  t('no command printed a hash, a salt or a password', async () => {
    const all = outputs.join('\n');
    const hashes = [(await user('alice@example.com')).password_hash, (await user('bob@example.com')).password_hash];
    for (const secret of ['$argon2', ...hashes, ...hashes.map((h) => h.split('$')[4]!), PASSWORD, PROMPTED, NEW_PASSWORD])
      assert.not.ok(all.includes(secret), `printed: ${secret}`);
    assert.ok(outputs.length > 60, 'the outputs were collected');
  });

  t.run();
}
