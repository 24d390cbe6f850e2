/**
 * `fw auth:list-sql`: the auth SQL files of every dialect, present or missing, in the order `fw db:apply` applies
 * them; read-only. The dialect of the project's database (DB_DRIVER) is marked.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { projectRoot } from '../../current-project.js';
import { loadEnv } from '../../../runtime/env.js';
import type { SqlFileState } from '../../auth/inspect.js';

export function configure(command: Command): void {
  command.option('--json', 'écrit la liste en JSON');
}

/** The word shown for each state, padded in the listing. */
export const STATE_LABELS: Readonly<Record<SqlFileState, string>> = {
  ok: 'présent',
  stale: 'périmé',
  owned: 'modifié',
  absent: 'absent',
};

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const { sqlFileStates } = await import('../../auth/inspect.js');
  const { DIALECT_NAMES, spellingOf } = await import('../../../runtime/db/dialect.js');
  const { AUTH_SQL_DIR } = await import('../../../emitters/auth/sql-files.js');
  loadEnv(root);
  const configured = (process.env.DB_DRIVER || 'sqlite').trim();
  const files = sqlFileStates(root);
  if (options.json === true) {
    process.stdout.write(`${JSON.stringify({ directory: AUTH_SQL_DIR, configuredDialect: configured, files }, null, 2)}\n`);
    return 0;
  }
  const width = Math.max(...Object.values(STATE_LABELS).map((label) => label.length));
  const out: string[] = [];
  for (const dialect of DIALECT_NAMES) {
    const title = `${spellingOf(dialect).label} (<table>${spellingOf(dialect).fileSuffix})`;
    out.push(`${title}${dialect === configured ? ' — dialecte de la base (DB_DRIVER)' : ''} :`);
    for (const file of files.filter((f) => f.dialect === dialect)) out.push(`  ${STATE_LABELS[file.state].padEnd(width)}  ${file.path}`);
  }
  const by = (state: SqlFileState): number => files.filter((file) => file.state === state).length;
  const parts = [`${by('ok')} présent(s)`, `${by('absent')} absent(s)`];
  if (by('stale') > 0) parts.push(`${by('stale')} périmé(s) : « fw auth:init » les réécrit`);
  if (by('owned') > 0) parts.push(`${by('owned')} modifié(s) (ligne « fw-mvc: generated file » retirée : appliqués tels quels)`);
  out.push(`${files.length} fichiers : ${parts.join(', ')}.`);
  if (by('absent') > 0) out.push('« fw auth:init » écrit les fichiers absents.');
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}
