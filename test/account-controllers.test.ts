// The starters' profile pages as fw-mvc/auth's ProfilePages (docs/starters.md, docs/upgrading.md): a project built
// with `fw starter:build auth --init-db` on SQLite gets a short ProfileController that calls the runtime. Then the
// controllers a project generated before kept (the long ones, copied in test/fixtures/account-controllers-before/)
// replace it, beside a controller of the user's that extends ProfilePages with its own options: `tsc --noEmit` is
// clean against the current runtime, and over HTTP the old controllers still show the profile and change the
// password (422 on a wrong field, success with its flash), the extended one answers with its title, its variable,
// its message and its own limit.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { REPO, newProject, type CliProject } from './helpers/cli.js';
import { linkFramework, serveProject } from './helpers/crud-app.js';
import { SessionClient } from './helpers/auth-client.js';
import { fwOk, stopServer } from './helpers/auth-app.js';
import { runTsc } from './helpers/typecheck.js';

const PASSWORD = 'Motdepasse-solide-42';
const NEXT = 'Nouveau-mot-de-passe-7';
const EMAIL = 'alice@example.test';
const BEFORE = path.join(REPO, 'test', 'fixtures', 'account-controllers-before');

/** A controller of the user's: ProfilePages extended with a variable, with its own title, message and limit. */
const CUSTOM_CONTROLLER = `import { BaseController, type Request, type Response } from 'fw-mvc';
import { ProfilePages, type AuthUser, type ProfilePasswordErrors } from 'fw-mvc/auth';

class AccountPages extends ProfilePages {
  protected override async context(request: Request, account: AuthUser, errors: ProfilePasswordErrors): Promise<Record<string, unknown>> {
    return { ...(await super.context(request, account, errors)), greeting: \`Bonjour \${account.email}\` };
  }
}

const pages = new AccountPages({
  template: 'account/custom.html',
  title: 'Mon compte',
  redirectTo: '/dashboard',
  messages: { wrongCurrentPassword: 'Ce n’est pas votre mot de passe.' },
  maxFailures: 2,
  windowSeconds: 60,
});

export class CustomProfileController extends BaseController {
  static show(request: Request): Promise<Response> {
    return pages.show(request);
  }

  static changePassword(request: Request): Promise<Response> {
    return pages.changePassword(request);
  }
}
`;

const CUSTOM_VIEW = `{% extends "layouts/app.html" %}
{% block content %}<h1 id="custom-title">{{ title }}</h1><p id="custom-greeting">{{ greeting }}</p><p id="custom-error">{{ errors.current_password }}</p>{% endblock %}
`;

const test = suite<{ project: CliProject; served: { url: string; child: ChildProcess } }>('account controllers: ProfilePages, and the controllers of before');

test.before(async (context) => {
  const project = newProject('Comptes');
  context.project = project;
  project.useSqlite();
  fwOk(project, ['starter:build', 'auth', '--init-db']);
  fwOk(project, ['auth:user:create', '--email', EMAIL, '--password', PASSWORD]);
});

test.after(async ({ project, served }) => {
  await stopServer(served);
  await project?.cleanup();
});

test('the generated ProfileController is short and calls ProfilePages of fw-mvc/auth', ({ project }) => {
  const profile = project.read('mvc/controllers/profile_controller.ts');
  assert.match(profile, "import { ProfilePages } from 'fw-mvc/auth';");
  assert.match(profile, "new ProfilePages({ template: 'profile/show.html', title: 'Mon profil', redirectTo: '/profile' })");
  assert.match(profile, 'return pages.changePassword(request);');
  assert.ok(profile.split('\n').length <= 30, `${profile.split('\n').length} lines`);
  assert.not.match(profile, 'reserveAttempt');
});

test('the controllers of before and an extended ProfilePages type-check against the runtime, and are served', async (context) => {
  const { project } = context;
  for (const file of fs.readdirSync(BEFORE)) project.write(`mvc/controllers/${file}`, fs.readFileSync(path.join(BEFORE, file), 'utf8'));
  assert.match(project.read('mvc/controllers/profile_controller.ts'), 'reserveAttempt', 'the long controller of before');
  project.write('mvc/controllers/custom_profile_controller.ts', CUSTOM_CONTROLLER);
  project.write('mvc/views/account/custom.html', CUSTOM_VIEW);
  const routes = project.read('mvc/routes.ts');
  project.write(
    'mvc/routes.ts',
    routes
      .replace(/^(export function registerRoutes)/m, "import { CustomProfileController } from './controllers/custom_profile_controller.js';\n\n$1")
      .replace(
        /\n}\n$/,
        "\n  router.add('GET', '/compte', CustomProfileController.show, { name: 'compte' });\n  router.add('POST', '/compte/password', CustomProfileController.changePassword, { name: 'compte.password' });\n}\n",
      ),
  );
  linkFramework(project);
  const checked = runTsc(project.root, ['--noEmit', '-p', 'tsconfig.json']);
  assert.is(checked.stdout + checked.stderr, '', 'tsc --noEmit');
  assert.is(checked.status, 0);
  context.served = await serveProject(project);
});

function change(client: SessionClient, url: string, current: string, next: string, confirm = next) {
  return client.post(
    url,
    [
      ['current_password', current],
      ['new_password', next],
      ['new_password_confirm', confirm],
    ],
    '/profile',
  );
}

test('the profile of before: the page, 422 on a wrong field, success ends the other sessions', async ({ served }) => {
  const client = new SessionClient(served.url);
  const other = new SessionClient(served.url);
  assert.is((await client.login(EMAIL, PASSWORD)).status, 302);
  assert.is((await other.login(EMAIL, PASSWORD)).status, 302);
  assert.is((await client.get('/dashboard')).status, 200);
  const profile = await client.get('/profile');
  assert.is(profile.status, 200);
  assert.match(profile.text, `id="profile-email">${EMAIL}</dd>`);
  const wrong = await change(client, '/profile/password', 'pas-le-bon-mot-de-passe', NEXT);
  assert.is(wrong.status, 422);
  assert.match(wrong.text, 'Mot de passe actuel incorrect.');
  const mismatch = await change(client, '/profile/password', PASSWORD, NEXT, 'Autre-mot-de-passe-8');
  assert.is(mismatch.status, 422);
  assert.match(mismatch.text, 'Les deux mots de passe ne correspondent pas.');
  const done = await change(client, '/profile/password', PASSWORD, NEXT);
  assert.is(done.status, 302, done.text.slice(0, 400));
  assert.is(done.headers.get('location'), '/profile');
  assert.match((await client.get('/profile')).text, 'Mot de passe changé. Vos autres sessions sont fermées.');
  assert.is((await other.get('/dashboard')).status, 302, 'the other session is ended');
});

test('the extended ProfilePages: its template, variable and message; its limit of 2; success leads to its page', async ({ served }) => {
  const client = new SessionClient(served.url);
  assert.is((await client.login(EMAIL, NEXT)).status, 302);
  const page = await client.get('/compte');
  assert.is(page.status, 200);
  assert.match(page.text, '<h1 id="custom-title">Mon compte</h1>');
  assert.match(page.text, `<p id="custom-greeting">Bonjour ${EMAIL}</p>`);
  const wrong = await change(client, '/compte/password', 'faux-mot-de-passe', 'Encore-un-autre-9');
  assert.is(wrong.status, 422);
  assert.match(wrong.text, '<p id="custom-error">Ce n’est pas votre mot de passe.</p>');
  const done = await change(client, '/compte/password', NEXT, 'Encore-un-autre-9');
  assert.is(done.status, 302);
  assert.is(done.headers.get('location'), '/dashboard');
  assert.is((await change(client, '/compte/password', 'faux-1', 'Encore-un-autre-10')).status, 422);
  assert.is((await change(client, '/compte/password', 'faux-2', 'Encore-un-autre-10')).status, 422);
  const limited = await change(client, '/compte/password', 'Encore-un-autre-9', 'Encore-un-autre-10');
  assert.is(limited.status, 429, 'a limit of 2 wrong passwords');
  assert.ok(Number(limited.headers.get('retry-after')) >= 1);
});

test.run();
