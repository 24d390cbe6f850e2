/**
 * The mail checks (family `mail`, ids FW-MAIL-001 to FW-MAIL-008), in the order `fw mail:doctor` prints them: the
 * MAIL_* configuration, the templates of `mvc/views/mail/` (parsed, never rendered), the `mail_log` SQL files and
 * table, then a real SMTP dialogue, one result per step (connection, EHLO, STARTTLS, AUTH), each within
 * MAIL_TIMEOUT. Nothing is written and no message is sent: the dialogue ends with QUIT before any MAIL FROM.
 * `fw doctor` runs them when the project uses mail (cli/checks/registry.ts). See docs/diagnostics.md.
 */
import { mailSqlPath } from '../../emitters/mail/sql-files.js';
import { MAIL_VIEWS_DIR, TEST_TEMPLATE } from '../../emitters/mail/templates.js';
import { DIALECT_NAMES } from '../../runtime/db/dialect.js';
import { JOBS_TABLE } from '../../runtime/jobs/schema.js';
import { MAIL_JOB, MAIL_LOG_TABLE } from '../../runtime/mail/schema.js';
import { describeTarget } from '../auth/database.js';
import { databaseFileMissing, openHandle } from '../db/connection.js';
import { tableExists } from '../db/schema.js';
import { CliError } from '../errors.js';
import { mailSqlState } from '../mail/inspect.js';
import { describeTransport, readMailEnvironment, type MailEnvironment } from '../mail/settings.js';
import { templateSyntax } from './tpl.js';
import { result, type CheckDefinition, type CheckFunction, type CheckResult } from './check.js';
import type { ProjectContext } from './context.js';
import { walkFiles } from './files.js';

function mail(id: number, label: string): CheckDefinition {
  return { id: `FW-MAIL-${String(id).padStart(3, '0')}`, family: 'mail', label };
}

const D = {
  config: mail(1, 'Configuration du mail (MAIL_*)'),
  templates: mail(2, 'Gabarits de message (mvc/views/mail/)'),
  sqlFiles: mail(3, 'Fichiers SQL de mail_log'),
  table: mail(4, 'Table mail_log'),
  connect: mail(5, 'SMTP : connexion et accueil'),
  ehlo: mail(6, 'SMTP : EHLO'),
  starttls: mail(7, 'SMTP : STARTTLS'),
  auth: mail(8, 'SMTP : AUTH'),
} as const;

export const MAIL_CHECK_DEFINITIONS = D;
export const MAIL_DEFINITIONS: readonly CheckDefinition[] = Object.values(D);

/** The MAIL_* variables of the context's environment, read once. */
function environment(context: ProjectContext): Promise<MailEnvironment> {
  return context.once('mail.environment', async () => readMailEnvironment(process.env));
}

/** FW-MAIL-001: every MAIL_* value as the runtime would take it. */
export const configCheck: CheckFunction = async (context) => {
  const { settings, problems } = await environment(context);
  const file = `env/${context.appEnv}`;
  if (problems.length > 0)
    return problems.map((found) => result(D.config, found.severity, found.message, `corrigez ${found.variable} dans ${file} (docs/mail.md)`));
  const parts = [describeTransport(settings), `expéditeur ${settings.from}`, `délai ${settings.timeoutSeconds} s`];
  if (!settings.enabled)
    return [result(D.config, 'WARN', `${parts.join(', ')} ; MAIL_ENABLED=false : les messages sont enregistrés « skipped », jamais envoyés`)];
  return [result(D.config, 'OK', parts.join(', '))];
};

const PARTS = ['_subject.txt', '_text.txt', '_html.html'] as const;

/** FW-MAIL-002: each template's parts present as `renderMail` needs them, and each part parsed by nunjucks. */
export const templatesCheck: CheckFunction = async ({ root }) => {
  const walk = walkFiles(root, MAIL_VIEWS_DIR);
  const out: CheckResult[] = walk.problems.map((found) => ({ ...result(D.templates, 'FAIL', `${found.file} : ${found.reason}`), file: found.file }));
  const names = new Map<string, Set<string>>();
  for (const file of walk.files) {
    const relative = file.slice(MAIL_VIEWS_DIR.length + 1);
    const part = PARTS.find((suffix) => relative.endsWith(suffix));
    if (!part) continue;
    const name = relative.slice(0, -part.length);
    if (!names.has(name)) names.set(name, new Set());
    names.get(name)!.add(part);
  }
  if (names.size === 0 && out.length === 0) {
    return [result(D.templates, 'WARN', `aucun gabarit sous ${MAIL_VIEWS_DIR}/`, '« fw mail:init » écrit le gabarit « test »')];
  }
  for (const [name, parts] of [...names].sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const required of ['_subject.txt', '_text.txt']) {
      if (!parts.has(required)) {
        out.push(
          result(
            D.templates,
            'FAIL',
            `${MAIL_VIEWS_DIR}/${name}${required} absent : le modèle « ${name} » ne peut pas être rendu`,
            'écrivez ce fichier (sujet et texte sont obligatoires)',
          ),
        );
      }
    }
    for (const part of PARTS) {
      if (!parts.has(part)) continue;
      const file = `${MAIL_VIEWS_DIR}/${name}${part}`;
      const failure = await templateSyntax(root, file, D.templates);
      if (failure) out.push(failure);
    }
  }
  if (out.length > 0) return out;
  const list = [...names.keys()].sort();
  if (!names.has(TEST_TEMPLATE)) {
    return [
      result(
        D.templates,
        'WARN',
        `${list.length} modèle(s) analysé(s) (${list.join(', ')}), mais pas « ${TEST_TEMPLATE} »`,
        "« fw mail:init » l'écrit ; « fw mail:test » l'envoie",
      ),
    ];
  }
  return [result(D.templates, 'OK', `${list.length} modèle(s) analysé(s) : ${list.join(', ')}`)];
};

/** FW-MAIL-003: the mail_log SQL file of the configured dialect (of both when the settings cannot be read). */
export const sqlFilesCheck: CheckFunction = async (context) => {
  const dialects = context.settings ? [context.settings.driver] : DIALECT_NAMES;
  const states = dialects.map((dialect) => ({ file: mailSqlPath(dialect), state: mailSqlState(context.root, dialect) }));
  const absent = states.filter((s) => s.state === 'absent');
  const stale = states.filter((s) => s.state === 'stale');
  if (absent.length > 0)
    return [result(D.sqlFiles, 'WARN', `absent : ${absent.map((s) => s.file).join(', ')}`, "« fw mail:init » l'écrit, « fw db:apply » crée la table")];
  if (stale.length > 0) return [result(D.sqlFiles, 'WARN', `périmé : ${stale.map((s) => s.file).join(', ')}`, '« fw mail:init » le réécrit')];
  const owned = states.filter((s) => s.state === 'owned').length;
  return [result(D.sqlFiles, 'OK', `${states.map((s) => s.file).join(', ')}${owned > 0 ? ' (modifié à la main)' : ''}`)];
};

/** FW-MAIL-004: `mail_log` in the configured database, read with the application account; a SQLite file is never created. */
export const tableCheck: CheckFunction = async (context) => {
  const settings = context.settings;
  if (!settings) return [result(D.table, 'SKIP', `base non lue : ${context.settingsError?.message ?? 'réglages illisibles'}`)];
  if (databaseFileMissing(settings)) {
    return [
      result(
        D.table,
        'SKIP',
        `le fichier SQLite ${describeTarget(settings).replace(/^SQLite /, '')} n'existe pas encore`,
        '« fw db:apply » le crée avec la table',
      ),
    ];
  }
  let db;
  try {
    db = openHandle(settings, 'app', { poolSize: 1 });
  } catch (error) {
    if (error instanceof CliError) return [result(D.table, 'SKIP', error.message.replace(/\.$/, ''), error.advice ?? '')];
    throw error;
  }
  try {
    const present = await tableExists(db, MAIL_LOG_TABLE);
    if (!present) return [result(D.table, 'WARN', `absente de la base (${describeTarget(settings)})`, '« fw mail:init » puis « fw db:apply »')];
    const row = await db.fetchOne<{ queued: number | string | null; failed: number | string | null }>(
      `SELECT SUM(CASE WHEN status = 'queued' THEN 1 ELSE 0 END) AS queued, SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END) AS failed FROM ${MAIL_LOG_TABLE}`,
    );
    const counts = `${Number(row?.queued ?? 0)} message(s) en attente, ${Number(row?.failed ?? 0)} en échec`;
    // The messages are jobs of fw_jobs (docs/mail.md): without the table, sendMail cannot queue anything.
    if (!(await tableExists(db, JOBS_TABLE))) {
      return [
        result(
          D.table,
          'FAIL',
          `présente (${describeTarget(settings)}), mais la table ${JOBS_TABLE} de ses envois est absente : sendMail échouera`,
          '« fw migration:make mail_en_taches --framework » puis « fw migration:apply --allow-destructive » (docs/upgrading.md)',
        ),
      ];
    }
    const stuck = await db.fetchOne<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM ${JOBS_TABLE} WHERE name = ? AND status = 'running' AND locked_until < ?`,
      [MAIL_JOB, new Date(Date.now() - 60_000)],
    );
    if (Number(stuck?.n ?? 0) > 0) {
      return [
        result(
          D.table,
          'WARN',
          `présente (${describeTarget(settings)}) : ${counts}, ${Number(stuck?.n)} bloqué(s) (envoi en cours plus d'une minute après la fin de son bail)`,
          "l'envoyeur de serve() les reprend en démarrant ; « fw jobs:list --status running »",
        ),
      ];
    }
    return [result(D.table, 'OK', `présente (${describeTarget(settings)}) : ${counts}`)];
  } catch (error) {
    return [result(D.table, 'SKIP', `base injoignable : ${String((error as Error).message ?? error).split('\n')[0]}`)];
  } finally {
    await db.close().catch(() => {});
  }
};

/** Variables whose failure makes the SMTP dialogue meaningless. */
const SMTP_VARIABLES = new Set(['MAIL_TRANSPORT', 'MAIL_HOST', 'MAIL_PORT', 'MAIL_TIMEOUT', 'MAIL_USE_TLS', 'MAIL_USE_SSL']);

/** FW-MAIL-005 to 008: the SMTP dialogue, one result per step. */
export const smtpCheck: CheckFunction = async (context) => {
  const { settings, problems } = await environment(context);
  const steps = [D.connect, D.ehlo, D.starttls, D.auth];
  const skipAll = (detail: string): CheckResult[] => steps.map((definition) => result(definition, 'SKIP', detail));
  if (settings.transport !== 'smtp') return skipAll(`MAIL_TRANSPORT=${settings.transport} : aucun serveur SMTP à joindre`);
  if (problems.some((found) => found.severity === 'FAIL' && SMTP_VARIABLES.has(found.variable))) return skipAll('configuration SMTP invalide (FW-MAIL-001)');
  const { probeSmtp } = await import('../mail/smtp-probe.js');
  const probed = await probeSmtp(settings);
  return probed.map((step, index) => result(steps[index]!, step.status, step.detail, step.hint ?? ''));
};

export const MAIL_CHECKS: readonly CheckFunction[] = [configCheck, templatesCheck, sqlFilesCheck, tableCheck, smtpCheck];
