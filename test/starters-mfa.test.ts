// Starter 6 through the real CLI, twice: `fw new --profile auth-mfa` on SQLite (then `fw db:init`, `fw db:apply`, as
// its README says), and `fw starter:build mfa --init-db` in a standard project on MariaDB. Each project type-checks,
// is served, and a user made with `fw auth:user:create` signs in, enrols at /account/mfa (the secret read from the
// setup page, the codes computed as an authenticator app does), signs out, and signs in again: the password leads to
// /login/mfa, the code to the dashboard; the same code is refused the second time (docs/starters.md, docs/auth.md).
import type { ChildProcess } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DialectName } from '../runtime/db/index.js';
import { newProject, type CliProject } from './helpers/cli.js';
import { linkFramework, serveProject } from './helpers/crud-app.js';
import { SessionClient } from './helpers/auth-client.js';
import { fwOk, stopServer } from './helpers/auth-app.js';
import { EMAIL, PASSWORD, enrol, passwordStep, postCode, signIn, signOut, stepMargin, totpCode } from './helpers/mfa.js';
import { runTsc } from './helpers/typecheck.js';

interface Context {
  project: CliProject;
  served: { url: string; child: ChildProcess };
}

function typecheck(project: CliProject): void {
  const checked = runTsc(project.root, ['--noEmit', '-p', 'tsconfig.json']);
  assert.is(checked.stdout + checked.stderr, '', 'tsc --noEmit');
  assert.is(checked.status, 0);
}

async function serve(context: Context, project: CliProject): Promise<void> {
  fwOk(project, ['auth:user:create', '--email', EMAIL, '--password', PASSWORD]);
  linkFramework(project);
  typecheck(project);
  context.served = await serveProject(project);
}

/** The whole journey: enrol, then every login needs the second factor. */
async function enrolThenLoginWithCode(url: string): Promise<void> {
  const client = new SessionClient(url);
  await signIn(client);
  const dashboard = await client.get('/dashboard');
  assert.is(dashboard.status, 200);
  assert.match(dashboard.text, `<strong id="dashboard-user">${EMAIL}</strong>`);
  assert.match(dashboard.text, /id="mfa-card"[\s\S]*<a href="\/account\/mfa"/);
  assert.match((await client.get('/profile')).text, 'id="mfa-card"');
  assert.match((await client.get('/')).text, '<a href="/account/mfa"');
  const mfaPage = (await client.get('/account/mfa')).text;
  assert.match(mfaPage, /id="mfa-state">[^<]*</);
  // The way back to the profile, and the application's menu in the header.
  assert.match(mfaPage, /<a href="\/profile" id="mfa-back"[^>]*>← Retour à mon profil<\/a>/);
  assert.match(
    /<header[\s\S]*?<\/header>/.exec(mfaPage)?.[0] ?? '',
    /<a href="\/dashboard"[^>]*>Tableau de bord<\/a>[\s\S]*<a href="\/profile"[^>]*>Mon profil<\/a>/,
  );

  const { secret } = await enrol(client);
  const account = await client.get('/account/mfa');
  assert.match(account.text, 'id="recovery-left">10 / 10');
  await signOut(client);
  assert.is((await client.get('/dashboard')).status, 302);

  await passwordStep(client);
  const challenge = await client.get('/login/mfa');
  assert.is(challenge.status, 200);
  assert.is((await client.get('/dashboard')).status, 302, 'the password alone opens nothing');
  await stepMargin();
  const code = await totpCode(secret);
  const done = await postCode(client, code);
  assert.is(done.status, 302, done.text.slice(0, 400));
  assert.is(done.headers.get('location'), '/');
  const back = await client.get('/dashboard');
  assert.is(back.status, 200);
  assert.match(back.text, EMAIL);

  // Another browser with the same code: refused, it was used.
  const other = new SessionClient(url);
  await passwordStep(other);
  assert.is((await postCode(other, code)).status, 401);
  assert.is((await other.get('/dashboard')).status, 302);
}

// --- fw new --profile auth-mfa (SQLite) ---

const profile = suite<Context>('fw new --profile auth-mfa: enrol, then sign in with the code (sqlite)');

profile.before(async (context) => {
  const project = newProject('Secure', ['--profile', 'auth-mfa']);
  context.project = project;
  project.useSqlite();
  // The README's steps.
  fwOk(project, ['db:init']);
  const applied = fwOk(project, ['db:apply']);
  assert.match(applied, 'mvc/models/sql/auth/auth_mfa_factors.sqlite.sql');
  await serve(context, project);
});

profile.after(async ({ project, served }) => {
  await stopServer(served);
  await project?.cleanup();
});

profile('a user created by fw auth:user:create enrols and must pass the second factor', async ({ served }) => {
  await enrolThenLoginWithCode(served.url);
});

profile('the project is the mfa starter: building it again changes nothing', ({ project }) => {
  const run = project.run(['starter:build', 'auth-mfa']);
  assert.is(run.status, 1);
  assert.match(run.stderr, /^Erreur : l'application de démarrage « mfa » est déjà construite dans ce projet/);
});

profile.run();

// --- fw starter:build mfa --init-db (MariaDB) ---

const dialect: DialectName = 'mariadb';
const starter = suite<Context>(`fw starter:build mfa --init-db: enrol, then sign in with the code (${dialect})`);

starter.before(async (context) => {
  const project = newProject('Double');
  context.project = project;
  project.useDialect(dialect);
  const out = fwOk(project, ['starter:build', 'mfa', '--init-db']);
  assert.match(out, 'Routes ajoutées à mvc/routes.ts :\n  registerAuthRoutes(router)\n  registerMfaRoutes(router)\n');
  assert.match(out, 'appliqué   mvc/models/sql/auth/auth_mfa_factors.sql');
  await serve(context, project);
});

starter.after(async ({ project, served }) => {
  await stopServer(served);
  await project?.cleanup();
});

starter('a user created by fw auth:user:create enrols and must pass the second factor', async ({ served }) => {
  await enrolThenLoginWithCode(served.url);
});

starter.run();
