/**
 * `fw auth:status`: where the project stands with authentication, read-only: the auth SQL files, the routes in
 * `mvc/routes.ts`, the auth tables of the configured database, and how many users and roles it holds.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { readDbSettings } from '../../db/connection.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command.option('--json', "écrit l'état en JSON");
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const settings = readDbSettings(root);
  const { sqlFileStates, routesState, databaseState, ROUTES_FILE } = await import('../../auth/inspect.js');
  const { describeTarget } = await import('../../auth/database.js');
  const { AUTH_SQL_DIR } = await import('../../../emitters/auth/sql-files.js');
  const files = sqlFileStates(root).filter((file) => file.dialect === settings.driver);
  const routes = await routesState(root);
  const database = await databaseState(settings);
  const target = describeTarget(settings);

  if (options.json === true) {
    const report = {
      dialect: settings.driver,
      database: target,
      sqlFiles: {
        present: files.filter((f) => f.state !== 'absent').length,
        expected: files.length,
        missing: files.filter((f) => f.state === 'absent').map((f) => f.path),
      },
      routes: routes.kind,
      tables: { present: database.present, missing: database.missing },
      databaseProblem: database.problem?.summary ?? null,
      users: database.users,
      activeUsers: database.activeUsers,
      roles: database.roles,
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return 0;
  }
  const present = files.filter((file) => file.state !== 'absent').length;
  const routesLine = {
    'no-file': `${ROUTES_FILE} est introuvable`,
    unreadable: `${ROUTES_FILE} ne se lit pas`,
    absent: `registerAuthRoutes n'est pas appelé dans ${ROUTES_FILE}`,
    present: `registerAuthRoutes(router) appelé dans ${ROUTES_FILE}`,
  }[routes.kind];
  const tables = database.problem
    ? `non lues (${database.problem.summary})`
    : `${database.present.length}/${database.present.length + database.missing.length} présentes${database.missing.length > 0 ? ` (absentes : ${database.missing.join(', ')})` : ''}`;
  const count = (value: number | null): string => (value === null ? '—' : String(value));
  const lines = [
    `Fichiers SQL (${settings.driver}, ${AUTH_SQL_DIR}/) : ${present}/${files.length} présents`,
    `Routes : ${routesLine}`,
    `Base (${target}) : tables ${tables}`,
    `Utilisateurs : ${count(database.users)}${database.activeUsers !== null ? ` (${database.activeUsers} actif(s))` : ''}`,
    `Rôles : ${count(database.roles)}`,
  ];
  const next =
    present < files.length || routes.kind === 'absent'
      ? '« fw auth:init » écrit les fichiers et ajoute les routes, puis « fw db:apply » crée les tables.'
      : database.missing.length > 0 && !database.problem
        ? '« fw db:apply » crée les tables absentes.'
        : database.users === 0
          ? '« fw auth:user:create --email <EMAIL> --password-prompt » crée le premier utilisateur.'
          : '';
  if (next) lines.push(`Suite : ${next}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
