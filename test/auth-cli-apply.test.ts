// `fw db:apply` with the auth files, `fw auth:status` and `fw auth:doctor` as real processes, on SQLite and on
// MariaDB (one suite per dialect): the ten tables created after the entity ones, a second run that changes nothing,
// missing auth files refused with nothing applied, the doctor's lines, --json and exit codes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { authSqlPath } from '../emitters/auth/sql-files.js';
import { AUTH_TABLES } from '../runtime/auth/schema.js';
import { lines, newProject, readSchema, type CliProject } from './helpers/cli.js';
import { ID, writeEntity } from './helpers/crud-cli-project.js';
import { DIALECTS } from './helpers/dialects.js';

const NAMES = AUTH_TABLES.map((table) => table.name);
const NOTE = { format_version: 1, entity: 'Note', table: 'notes', fields: [ID, { name: 'titre', sql_type: 'VARCHAR(100)' }] };

for (const dialect of DIALECTS) {
  const t = suite(`db:apply, auth:status, auth:doctor (${dialect})`);
  const sqlite = dialect === 'sqlite';
  const suffix = sqlite ? '.sqlite.sql' : '.sql';
  let project: CliProject;

  t.before(() => {
    project = newProject('AuthApply');
    project.useDialect(dialect);
  });
  t.after(async () => {
    await project?.cleanup();
  });

  function run(args: string[], status = 0, env?: Record<string, string>): { out: string[]; err: string[] } {
    const result = project.run(args, env ? { env } : {});
    assert.is(result.status, status, `fw ${args.join(' ')} : ${result.stdout}${result.stderr}`);
    return { out: lines(result.stdout), err: lines(result.stderr) };
  }

  const target = (): string => (sqlite ? 'SQLite storage/database.sqlite' : `MariaDB 127.0.0.1:3306/${/DB_NAME=(\S+)/.exec(project.read('env/dev'))![1]}`);

  t('setup: an entity, build:model, auth:init; the doctor fails while the tables are missing', () => {
    writeEntity(project, NOTE);
    run(['build:model']);
    run(['auth:init']);
    if (!sqlite) run(['db:init']); // the application account the auth commands use
    const doctor = run(['auth:doctor'], 1).out;
    assert.is(doctor[0], `  [OK]   Fichiers SQL d'authentification — 10 fichiers (${dialect})`);
    assert.is(doctor[1], "  [OK]   Routes d'authentification — registerAuthRoutes(router) appelé dans mvc/routes.ts");
    if (sqlite) {
      assert.is(
        doctor[2],
        "  [FAIL] Tables d'authentification — le fichier SQLite storage/database.sqlite n'existe pas encore : « fw db:init » ou « fw db:apply » le crée.",
      );
      assert.is(doctor[3], '  [SKIP] Utilisateur actif — base non lue');
    } else {
      assert.is(doctor[2], `  [FAIL] Tables d'authentification — absentes de ${target()} : ${NAMES.join(', ')} : lancez « fw auth:init » puis « fw db:apply »`);
      assert.is(doctor[3], '  [SKIP] Utilisateur actif — table users absente');
    }
    assert.is(doctor.at(-1), '0 avertissement(s), 1 erreur(s).');
  });

  t('a missing auth file: db:apply refuses, advises auth:init, applies nothing', async () => {
    const roles = authSqlPath('roles', dialect);
    const text = project.read(roles);
    const fs = await import('node:fs');
    fs.rmSync(project.path(roles));
    try {
      const { err } = run(['db:apply'], 1);
      assert.equal(err, [
        `Erreur : fichiers SQL d'authentification absents ou périmés : ${roles} (absent). Rien n'a été appliqué.`,
        'Conseil : lancez « fw auth:init » puis relancez « fw db:apply ».',
      ]);
      // Only what db:init made on MariaDB; no SQLite file at all.
      if (!sqlite) assert.equal(Object.keys((await readSchema(project)).tables).sort(), ['fw_migrations', 'fw_sessions']);
      else assert.not.ok(project.exists('storage/database.sqlite'));
    } finally {
      project.write(roles, text);
    }
  });

  t('db:apply --dry-run lists the auth files after the entity and relation files', () => {
    assert.equal(run(['db:apply', '--dry-run']).out, [
      `Fichiers à appliquer (${dialect}), dans cet ordre :`,
      `  mvc/entities/note/note${suffix}`,
      `  mvc/entities/relations${suffix}`,
      ...NAMES.map((name) => `  ${authSqlPath(name, dialect)}`),
    ]);
  });

  t('db:apply creates the ten tables after the entity tables; a second run changes nothing', async () => {
    const first = run(['db:apply']).out;
    assert.is(first.length, 13);
    assert.match(first[0]!, new RegExp(`^ {2}appliqué {3}mvc/entities/note/note${suffix.replace(/\./g, '\\.')} `));
    NAMES.forEach((name, index) =>
      assert.match(
        first[index + 2]!,
        new RegExp(`^ {2}appliqué {3}${authSqlPath(name, dialect).replace(/\./g, '\\.')} \\(\\d+ instruction\\(s\\), 0 déjà présente\\(s\\)\\)$`),
      ),
    );
    assert.is(first[12], 'Schéma appliqué : 12 fichier(s).');
    const schema = await readSchema(project);
    for (const name of NAMES) assert.ok(schema.tables[name], `table ${name}`);
    assert.equal(
      schema.tables.users!.map((c) => c.name),
      ['id', 'email', 'password_hash', 'is_active', 'email_verified_at', 'last_login_at', 'created_at', 'updated_at'],
    );
    assert.ok(schema.indexes.some((i) => i.table === 'users' && i.name === 'uq_users_email' && i.unique));
    const second = run(['db:apply']).out;
    assert.ok(
      second.slice(0, 12).every((line) => line.startsWith('  inchangé ')),
      second.join('\n'),
    );
  });

  t('auth:status: files, routes, tables, counts', () => {
    assert.equal(run(['auth:status']).out, [
      `Fichiers SQL (${dialect}, mvc/models/sql/auth/) : 10/10 présents`,
      'Routes : registerAuthRoutes(router) appelé dans mvc/routes.ts',
      `Base (${target()}) : tables 10/10 présentes`,
      'Utilisateurs : 0 (0 actif(s))',
      'Rôles : 0',
      'Suite : « fw auth:user:create --email <EMAIL> --password-prompt » crée le premier utilisateur.',
    ]);
    const json = JSON.parse(project.run(['auth:status', '--json']).stdout);
    assert.equal(json, {
      dialect,
      database: target(),
      sqlFiles: { present: 10, expected: 10, missing: [] },
      routes: 'present',
      tables: { present: NAMES, missing: [] },
      databaseProblem: null,
      users: 0,
      activeUsers: 0,
      roles: 0,
    });
  });

  t(
    'auth:doctor: every line in the doctor format, two warnings (the file sessions of env/dev are OK), exit 0; an active user turns one OK; memory sessions with auth tables warn',
    () => {
      const expected = [
        `  [OK]   Fichiers SQL d'authentification — 10 fichiers (${dialect})`,
        "  [OK]   Routes d'authentification — registerAuthRoutes(router) appelé dans mvc/routes.ts",
        `  [OK]   Tables d'authentification — 10 tables présentes (${target()})`,
        '  [WARN] Utilisateur actif — aucun : personne ne peut se connecter ; « fw auth:user:create --email <EMAIL> --password-prompt »',
        '  [OK]   Stockage des sessions — SESSION_STORE=file',
        '  [OK]   Limites de connexion — RATE_LIMIT_STORE=memory',
        "  [OK]   Proxys de confiance (TRUSTED_PROXIES) — aucun : l'adresse du client est celle de la connexion, X-Forwarded-For est ignoré",
        '  [OK]   Argon2 — module argon2 chargé (hachages Argon2id)',
        '  [WARN] Secrets TOTP — auth_mfa_factors.totp_secret est stocké en clair : protégez la base et ses sauvegardes',
        '2 avertissement(s), 0 erreur(s).',
      ];
      assert.equal(run(['auth:doctor']), { out: expected, err: [] });
      const created = project.run(['auth:user:create', '--email', 'admin@example.com', '--password-prompt'], { input: 'correct horse\ncorrect horse\n' });
      assert.is(created.status, 0, created.stderr);
      const after = run(['auth:doctor']).out;
      assert.is(after[3], '  [OK]   Utilisateur actif — 1 sur 1');
      assert.is(after.at(-1), '1 avertissement(s), 0 erreur(s).');
      const memory = run(['auth:doctor'], 0, { SESSION_STORE: 'memory' }).out;
      assert.is(
        memory[4],
        '  [WARN] Stockage des sessions — SESSION_STORE=memory : les sessions vivent dans le processus du serveur, « fw auth:user:disable » et « fw auth:user:password » ne peuvent pas les fermer ; redémarrez le serveur après ces commandes, ou SESSION_STORE=file (ou database)',
      );
    },
  );

  t('auth:doctor in production with memory stores: WARN; bad TRUSTED_PROXIES or SESSION_STORE: FAIL, exit 1; --json', () => {
    project.write('env/prod', project.read('env/dev').replace(/^APP_ENV=.*$/m, 'APP_ENV=prod'));
    const prod = run(['auth:doctor'], 0, { APP_ENV: 'prod', SESSION_STORE: 'memory', TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.10 ,fd00::/8' }).out;
    assert.is(
      prod[4],
      '  [WARN] Stockage des sessions — SESSION_STORE=memory avec APP_ENV=prod : les sessions sont perdues au redémarrage et ne sont pas partagées entre processus : SESSION_STORE=database (ou file)',
    );
    assert.is(
      prod[5],
      '  [WARN] Limites de connexion — RATE_LIMIT_STORE=memory avec APP_ENV=prod : les échecs ne sont pas comptés en commun entre processus ni conservés au redémarrage : RATE_LIMIT_STORE=database',
    );
    assert.is(prod[6], '  [OK]   Proxys de confiance (TRUSTED_PROXIES) — 3 entrée(s) : 10.0.0.0/8, 192.168.1.10, fd00::/8');
    assert.is(prod.at(-1), '3 avertissement(s), 0 erreur(s).');
    const database = run(['auth:doctor'], 0, { APP_ENV: 'prod', SESSION_STORE: 'database', RATE_LIMIT_STORE: 'Database' }).out;
    assert.is(database[4], '  [OK]   Stockage des sessions — SESSION_STORE=database');
    assert.is(database[5], '  [OK]   Limites de connexion — RATE_LIMIT_STORE=database');

    const bad = run(['auth:doctor'], 1, { TRUSTED_PROXIES: '10.0.0.0/33,proxy.local', SESSION_STORE: 'memcached' }).out;
    assert.is(
      bad[4],
      '  [FAIL] Stockage des sessions — SESSION_STORE vaut « memcached » : stockage de sessions inconnu ; valeurs acceptées : memory, file, database, redis',
    );
    assert.is(
      bad[6],
      '  [FAIL] Proxys de confiance (TRUSTED_PROXIES) — TRUSTED_PROXIES : entrée invalide « 10.0.0.0/33 » (le préfixe doit aller de 0 à 32). Attendu : des adresses IP ou des blocs CIDR séparés par des virgules, par exemple « 127.0.0.1, 10.0.0.0/8, ::1, fd00::/8 » ; le serveur refuse de démarrer',
    );
    assert.is(bad.at(-1), '1 avertissement(s), 2 erreur(s).');
    const json = JSON.parse(project.run(['auth:doctor', '--json'], { env: { TRUSTED_PROXIES: 'nope' } }).stdout) as {
      ok: boolean;
      warnings: number;
      errors: number;
      checks: Array<{ code: string; status: string; label: string; detail: string }>;
    };
    assert.is(json.ok, false);
    assert.is(json.errors, 1);
    assert.is(json.warnings, 1, 'the TOTP secrets (the sessions of env/dev are in files)');
    assert.equal(
      json.checks.map((c) => c.code),
      ['sql_files', 'routes', 'tables', 'active_user', 'session_store', 'rate_limit_store', 'trusted_proxies', 'argon2', 'totp_secrets'],
    );
    assert.equal(json.checks[6], {
      code: 'trusted_proxies',
      status: 'FAIL',
      label: 'Proxys de confiance (TRUSTED_PROXIES)',
      detail:
        "TRUSTED_PROXIES : entrée invalide « nope » (ce n'est pas une adresse IP). Attendu : des adresses IP ou des blocs CIDR séparés par des virgules, par exemple « 127.0.0.1, 10.0.0.0/8, ::1, fd00::/8 » ; le serveur refuse de démarrer",
    });
    assert.is(project.run(['auth:doctor', '--json'], { env: { TRUSTED_PROXIES: 'nope' } }).status, 1);
  });

  t('auth:doctor without the routes call or with a file missing: FAIL, exit 1', async () => {
    const routes = project.read('mvc/routes.ts');
    project.write('mvc/routes.ts', routes.replace('  registerAuthRoutes(router);\n', ''));
    const out = run(['auth:doctor'], 1).out;
    assert.is(out[1], "  [FAIL] Routes d'authentification — registerAuthRoutes n'est pas appelé dans mvc/routes.ts : lancez « fw auth:init »");
    project.write('mvc/routes.ts', routes);
    const fs = await import('node:fs');
    const file = authSqlPath('auth_tokens', dialect);
    fs.renameSync(project.path(file), project.path(`${file}.bak`));
    assert.is(run(['auth:doctor'], 1).out[0], `  [FAIL] Fichiers SQL d'authentification — absents : ${file} : relancez « fw auth:init »`);
    fs.renameSync(project.path(`${file}.bak`), project.path(file));
  });

  t.run();
}
