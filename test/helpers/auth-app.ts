/**
 * A generated project behind the login, built through the real CLI: `fw make:crud Contact` without `--public` (with
 * a role block), `fw auth:init`, `fw db:init`, `fw db:apply`, three users and two roles made with `fw auth:*`.
 * Sessions and login limits live in the project's database (SESSION_STORE=database, RATE_LIMIT_STORE=database).
 */
import type { ChildProcess } from 'node:child_process';
import * as assert from 'uvu/assert';
import type { DialectName } from '../../runtime/db/index.js';
import { newProject, type CliProject } from './cli.js';
import { linkFramework } from './crud-app.js';

export const PASSWORD = 'Motdepasse-solide-42';

/** admin may do everything, lecteur may list and read, sansrole may do nothing. */
export const USERS = { admin: 'admin@example.test', lecteur: 'lecteur@example.test', sansrole: 'sansrole@example.test' } as const;

export const CONTACT_WITH_ROLES = {
  format_version: 1,
  entity: 'Contact',
  table: 'contacts',
  fields: [
    { name: 'id', sql_type: 'INT', primary_key: true, auto_increment: true },
    { name: 'nom', sql_type: 'VARCHAR(100)', constraints: { not_empty: true } },
    { name: 'email', sql_type: 'VARCHAR(190)', nullable: true },
  ],
  rbac: { permissions: { index: ['lecteur', 'admin'], show: ['lecteur', 'admin'], create: ['admin'], update: ['admin'], delete: ['admin'] } },
};

/** Runs `fw` in the project; fails the test on a non-zero exit or a printed hash. */
export function fwOk(project: CliProject, args: string[], input?: string): string {
  const run = project.run(args, input === undefined ? undefined : { input });
  assert.is(run.status, 0, `fw ${args.join(' ')} :\n${run.stdout}${run.stderr}`);
  assert.not.match(run.stdout + run.stderr, /\$argon2|[0-9a-f]{32}:[0-9a-f]{64}/, 'no hash printed');
  return run.stdout + run.stderr;
}

/** Builds the project (no server yet). */
export function buildAuthProject(dialect: DialectName): CliProject {
  const project = newProject('Chaine');
  try {
    project.useDialect(dialect);
    project.write('env/dev', `${project.read('env/dev').trimEnd()}\nSESSION_STORE=database\nRATE_LIMIT_STORE=database\n`);
    project.write('mvc/entities/contact/contact.json', `${JSON.stringify(CONTACT_WITH_ROLES, null, 2)}\n`);
    fwOk(project, ['make:crud', 'Contact']);
    fwOk(project, ['auth:init']);
    assert.match(project.read('mvc/routes.ts'), 'registerAuthRoutes(router);');
    fwOk(project, ['db:init']);
    fwOk(project, ['db:apply']);
    for (const email of Object.values(USERS)) fwOk(project, ['auth:user:create', '--email', email, '--password', PASSWORD]);
    for (const role of ['admin', 'lecteur']) fwOk(project, ['auth:role:create', role]);
    fwOk(project, ['auth:user:role:add', '--email', USERS.admin, '--role', 'admin']);
    fwOk(project, ['auth:user:role:add', '--email', USERS.lecteur, '--role', 'lecteur']);
    linkFramework(project);
    return project;
  } catch (err) {
    void project.cleanup();
    throw err;
  }
}

/** Stops a served project process (SIGTERM) and waits for its exit. */
export async function stopServer(served: { child: ChildProcess } | undefined): Promise<void> {
  if (!served || served.child.exitCode !== null) return;
  const exited = new Promise((resolve) => served.child.once('exit', resolve));
  served.child.kill('SIGTERM');
  await exited;
}
