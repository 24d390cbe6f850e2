/**
 * `fw migration:make <name> --framework` on SQLite and MariaDB (docs/upgrading.md "The framework's tables"): the
 * framework's own tables made from their description give no migration; a database made by an older release (a
 * `mail_log` with a column less, a narrower one, a column and an index the description no longer holds, and the jobs
 * module without `fw_job_ticks`) gets the one migration that brings it there, `migration:apply` runs it with its
 * rows kept, a second `migration:make --framework` finds nothing, and a message then goes through the outbox.
 * Real `fw` processes, real databases.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AUTH_TABLES } from '../runtime/auth/schema.js';
import { configure, resetConfig } from '../runtime/config.js';
import { setLogSink } from '../runtime/logger.js';
import { column } from '../runtime/db/ddl/columns.js';
import { renderCreateStatements } from '../runtime/db/ddl/render.js';
import type { TableSpec } from '../runtime/db/ddl/table-spec.js';
import { JOB_TICKS_TABLE, JOBS_TABLE_SPECS, JOBS_TABLE_SPEC } from '../runtime/jobs/schema.js';
import { fileTransport, MAIL_LOG_TABLE_SPEC, MailSender, sealPayload, sendMail } from '../runtime/mail/index.js';
import { MEDIA_TABLE_SPEC } from '../runtime/media/schema.js';
import { SESSIONS_TABLE_SPEC } from '../runtime/session/sessions-table.js';
import { newProject, type CliProject } from './helpers/cli.js';
import { DIALECTS } from './helpers/dialects.js';
import { MIGRATIONS, makeMigration, migrationFiles, okLines } from './helpers/migrations.js';

/** `mail_log` as an older release made it: no `message`, a shorter `subject`, no `ix_mail_log_related`, a `legacy_flag` and its index. */
const OLD_MAIL_LOG: TableSpec = {
  ...MAIL_LOG_TABLE_SPEC,
  columns: [
    ...MAIL_LOG_TABLE_SPEC.columns.filter((c) => c.name !== 'message').map((c) => (c.name === 'subject' ? { ...c, type: 'VARCHAR(200)' } : c)),
    column('legacy_flag', 'VARCHAR(10)', { nullable: true }),
  ],
  indexes: [...MAIL_LOG_TABLE_SPEC.indexes.filter((i) => i.name !== 'ix_mail_log_related'), { name: 'ix_mail_log_legacy', columns: ['status', 'legacy_flag'] }],
};

/** `mail_log` as the release before mail became jobs made it: its sender's claim in the row, no jobs tables. */
const OUTBOX_MAIL_LOG: TableSpec = {
  ...MAIL_LOG_TABLE_SPEC,
  columns: MAIL_LOG_TABLE_SPEC.columns.flatMap((c) =>
    c.name === 'next_attempt_at'
      ? [c, column('claimed_by', 'VARCHAR(100)', { nullable: true }), column('claimed_until', 'DATETIME', { sqliteType: 'TEXT', nullable: true })]
      : [c],
  ),
};

/** `users` as an older release made it: no `email_verified_at` nor `updated_at` (NOT NULL), and a column of its own. */
const USERS = AUTH_TABLES[0]!.spec;
const OLD_USERS: TableSpec = {
  ...USERS,
  columns: [
    ...USERS.columns.filter((c) => c.name !== 'email_verified_at' && c.name !== 'updated_at'),
    column('display_name', 'VARCHAR(50)', { nullable: true }),
  ],
};

async function create(project: CliProject, specs: readonly TableSpec[]): Promise<void> {
  await project.sql(specs.flatMap((spec) => renderCreateStatements(spec, project.dialect!)));
}

for (const dialect of DIALECTS) {
  const test = suite(`migrations-framework (${dialect})`);

  test('tables made from their description: nothing to write', async () => {
    const project = newProject('Cadre');
    try {
      project.useDialect(dialect);
      if (dialect === 'sqlite') {
        // No database yet: refused, and no SQLite file made for it.
        const refused = project.run(['migration:make', 'rien', '--framework']);
        assert.is(refused.status, 1);
        assert.match(refused.stderr, /^Erreur : la base .* n'existe pas encore : rien à comparer\.\nConseil : lancez « fw db:init »/);
        assert.not.ok(fs.existsSync(project.path('storage/database.sqlite')));
      }
      okLines(project, ['db:init']);
      // db:init makes fw_sessions: the one module there.
      const sessions = okLines(project, ['migration:make', 'rien', '--framework']);
      assert.equal(sessions, ['Les tables du framework (sessions) sont conformes à leur description : aucune migration écrite.']);
      await create(project, [...AUTH_TABLES.map((t) => t.spec), MEDIA_TABLE_SPEC, MAIL_LOG_TABLE_SPEC, ...JOBS_TABLE_SPECS, SESSIONS_TABLE_SPEC]);
      const same = okLines(project, ['migration:make', 'rien', '--framework']);
      assert.equal(same, ['Les tables du framework (auth, media, mail, jobs, sessions) sont conformes à leur description : aucune migration écrite.']);
      assert.equal(fs.existsSync(project.path(MIGRATIONS)) ? migrationFiles(project) : [], []);
    } finally {
      await project.cleanup();
    }
  });

  test('an older mail_log and jobs module: one migration, applied with the rows kept, then nothing; a message is then sent', async () => {
    const project = newProject('Cadre');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-framework-mail-'));
    try {
      project.useDialect(dialect);
      okLines(project, ['db:init']);
      await create(project, [OLD_MAIL_LOG, JOBS_TABLE_SPEC]);
      await project.sql([
        'INSERT INTO mail_log (message_type, to_email, subject, transport, status, created_at, attempts, legacy_flag) ' +
          "VALUES ('message', 'a@example.test', 'Ancien message', 'file', 'sent', '2024-01-02 03:04:05', 1, 'x')",
      ]);
      const file = makeMigration(project, ['mise_a_niveau', '--framework']);
      const text = project.read(`${MIGRATIONS}/${file}`);
      for (const line of [
        '-- mail_log : colonne message absente',
        '-- mail_log : colonne subject changée',
        '-- mail_log : colonne legacy_flag en trop',
        '-- mail_log : index ix_mail_log_related (related_entity, related_id) absent',
        '-- mail_log : index ix_mail_log_legacy (status, legacy_flag) en trop',
        `-- ${JOB_TICKS_TABLE} : table absente`,
      ]) {
        assert.ok(text.includes(line), `${line}\n${text}`);
      }
      // A dropped column: migration:apply asks for the flag.
      assert.is.not(project.run(['migration:apply']).status, 0);
      okLines(project, ['migration:apply', '--allow-destructive']);
      const again = okLines(project, ['migration:make', 'encore', '--framework']);
      assert.match(again.join('\n'), /Les tables du framework \(mail, jobs, sessions\) sont conformes/);
      assert.equal(migrationFiles(project).length, 1);

      const db = project.open();
      try {
        const old = await db.fetchOne<{ subject: string; status: string }>('SELECT subject, status FROM mail_log');
        assert.equal({ ...old }, { subject: 'Ancien message', status: 'sent' });
        resetConfig();
        configure({ mail_from: 'App <app@example.test>' });
        setLogSink(() => {});
        const queued = await sendMail({ to: 'b@example.test', subject: 'é'.repeat(400), text: 'après la migration' }, { database: db });
        assert.is(await new MailSender({ database: db, transport: fileTransport(dir) }).runOnce(), 1);
        const row = await db.fetchOne<{ status: string; subject: string; message: string | null }>(
          'SELECT status, subject, message FROM mail_log WHERE id = ?',
          [queued.id],
        );
        assert.equal({ ...row }, { status: 'sent', subject: 'é'.repeat(400), message: null });
        assert.is(fs.readdirSync(dir).filter((name) => name.endsWith('.eml')).length, 1);
      } finally {
        setLogSink(null);
        resetConfig();
        await db.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await project.cleanup();
    }
  });

  test('a project made before mail became jobs: one migration, the waiting message gets its job, then both messages sent through the queue', async () => {
    const project = newProject('Cadre');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-framework-outbox-'));
    try {
      project.useDialect(dialect);
      okLines(project, ['db:init']);
      await create(project, [OUTBOX_MAIL_LOG]);
      resetConfig();
      configure({ mail_from: 'App <app@example.test>', app_secret: 'outbox-upgrade-secret-0123456789abcdef-0123' });
      setLogSink(() => {});
      const message = {
        from: { address: 'app@example.test' },
        to: [{ address: 'c@example.test' }],
        subject: 'En attente',
        text: 'avant',
        messageId: '<m1@example.test>',
      };
      // A retry the old sender had planned (one attempt made), and a message it had sent.
      await project.sql([
        'INSERT INTO mail_log (message_type, to_email, subject, transport, status, error_message, created_at, attempts, next_attempt_at, claimed_by, claimed_until, message) ' +
          `VALUES ('message', 'c@example.test', 'En attente', 'file', 'queued', '451 : plus tard', '2024-01-02 03:04:05', 1, '2024-01-02 03:05:05', NULL, NULL, '${sealPayload({ message, expiresAt: null })}')`,
        'INSERT INTO mail_log (message_type, to_email, subject, transport, status, created_at, sent_at, attempts) ' +
          "VALUES ('message', 'd@example.test', 'Parti', 'file', 'sent', '2024-01-02 03:04:05', '2024-01-02 03:04:06', 1)",
      ]);
      // Before the upgrade, mail:doctor says what sendMail would meet, and the way out.
      const doctor = project.run(['mail:doctor', '--json']);
      const table = (JSON.parse(doctor.stdout) as { checks: Array<{ id: string; status: string; detail: string; hint: string }> }).checks.find(
        (found) => found.id === 'FW-MAIL-004',
      );
      assert.is(table?.status, 'FAIL', doctor.stdout);
      assert.match(table!.detail, /la table fw_jobs de ses envois est absente : sendMail échouera/);
      assert.match(table!.hint, /fw migration:make mail_en_taches --framework/);
      const file = makeMigration(project, ['mail_en_taches', '--framework']);
      const text = project.read(`${MIGRATIONS}/${file}`);
      for (const line of [
        '-- fw_jobs : table absente',
        `-- ${JOB_TICKS_TABLE} : table absente`,
        '-- mail_log : colonne claimed_by en trop',
        '-- mail_log : colonne claimed_until en trop',
        '-- mail_log : chaque message encore en attente reçoit sa tâche fw_mail_send (file mail).',
      ]) {
        assert.ok(text.includes(line), `${line}\n${text}`);
      }
      assert.is.not(project.run(['migration:apply']).status, 0, 'two columns dropped: the flag is asked for');
      okLines(project, ['migration:apply', '--allow-destructive']);
      const again = okLines(project, ['migration:make', 'encore', '--framework']);
      assert.match(again.join('\n'), /Les tables du framework \(mail, jobs, sessions\) sont conformes/);
      const db = project.open();
      try {
        const jobs = await db.fetchAll<{ payload: string; status: string; attempts: number | string; run_at: string }>(
          "SELECT payload, status, attempts, run_at FROM fw_jobs WHERE name = 'fw_mail_send'",
        );
        assert.equal(
          jobs.map((job) => [JSON.parse(job.payload), job.status, Number(job.attempts), String(job.run_at).slice(0, 19)]),
          [[{ mailLogId: 1 }, 'queued', 1, '2024-01-02 03:05:05']],
        );
        const queued = await sendMail({ to: 'e@example.test', subject: 'Après', text: 'après la migration' }, { database: db });
        assert.is(await new MailSender({ database: db, transport: fileTransport(dir) }).runOnce(), 2);
        const rows = await db.fetchAll<{ id: number; status: string; attempts: number | string; message: string | null }>(
          'SELECT id, status, attempts, message FROM mail_log ORDER BY id',
        );
        assert.equal(
          rows.map((row) => [Number(row.id), row.status, Number(row.attempts), row.message]),
          [
            [1, 'sent', 2, null],
            [2, 'sent', 1, null],
            [queued.id, 'sent', 1, null],
          ],
        );
        assert.is(fs.readdirSync(dir).filter((name) => name.endsWith('.eml')).length, 2);
      } finally {
        await db.close();
      }
    } finally {
      setLogSink(null);
      resetConfig();
      fs.rmSync(dir, { recursive: true, force: true });
      await project.cleanup();
    }
  });

  test('an older users table referenced by user_roles, and an auth table missing: rebuilt or altered, rows and foreign keys kept', async () => {
    const project = newProject('Cadre');
    try {
      project.useDialect(dialect);
      okLines(project, ['db:init']);
      const others = AUTH_TABLES.slice(1)
        .map((t) => t.spec)
        .filter((spec) => spec.table !== 'auth_rate_limit_attempts');
      await create(project, [OLD_USERS, ...others]);
      await project.sql([
        "INSERT INTO users (id, email, password_hash, is_active, created_at, display_name) VALUES (1, 'zoe@example.test', 'h', 1, '2024-01-02 03:04:05', 'Zoé')",
        "INSERT INTO roles (id, name, created_at) VALUES (1, 'admin', '2024-01-02 03:04:05')",
        'INSERT INTO user_roles (user_id, role_id) VALUES (1, 1)',
      ]);
      const file = makeMigration(project, ['auth_a_niveau', '--framework']);
      const text = project.read(`${MIGRATIONS}/${file}`);
      for (const line of [
        '-- users : colonne email_verified_at absente',
        '-- users : colonne updated_at absente',
        '-- users : colonne display_name en trop',
        '-- auth_rate_limit_attempts : table absente',
      ]) {
        assert.ok(text.includes(line), `${line}\n${text}`);
      }
      okLines(project, ['migration:apply', '--allow-destructive']);
      const again = okLines(project, ['migration:make', 'encore', '--framework']);
      assert.match(again.join('\n'), /Les tables du framework \(auth, sessions\) sont conformes/);
      const db = project.open();
      try {
        assert.equal({ ...(await db.fetchOne('SELECT id, email FROM users')) }, { id: 1, email: 'zoe@example.test' });
        assert.is((await db.fetchAll('SELECT user_id FROM user_roles')).length, 1);
        if (dialect === 'sqlite') await db.execute('PRAGMA foreign_keys = ON');
        // The foreign key still holds: deleting the user deletes its roles (ON DELETE CASCADE).
        await db.execute('DELETE FROM users WHERE id = 1');
        assert.equal(await db.fetchAll('SELECT user_id FROM user_roles'), []);
      } finally {
        await db.close();
      }
    } finally {
      await project.cleanup();
    }
  });

  test.run();
}
