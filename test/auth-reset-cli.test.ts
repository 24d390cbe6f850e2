// `fw auth:init --password-reset` as a real process in a project made by `fw new`: on a fresh project (the auth
// files, both routes calls, the three message templates), again (nothing to do), on a project that ran `fw auth:init`
// before (only the reset part added), with a template the user changed (kept), and --dry-run (nothing written);
// the project then type-checks (`tsc --noEmit`) with the framework linked in.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PASSWORD_RESET_MAIL_FILES } from '../emitters/auth/password-reset-files.js';
import { FRAMEWORK_VIEWS } from '../runtime/paths.js';
import { fateLine, lines, newProject, type CliProject } from './helpers/cli.js';
import { linkFramework } from './helpers/crud-app.js';
import { runTsc } from './helpers/typecheck.js';

const ROUTES = 'mvc/routes.ts';
const BOTH = `// Application routes. Generators (fw make:crud, fw make:public-*) add their routes to this function.
import type { Router } from 'fw-mvc';
import { HomeController } from './controllers/home_controller.js';
import { registerAuthRoutes } from 'fw-mvc/auth';
import { registerPasswordResetRoutes } from 'fw-mvc/auth';

export function registerRoutes(router: Router): void {
  router.add('GET', '/', HomeController.index, { name: 'home', public: true });
  // Authentification : GET /login, POST /login, POST /logout (fw auth:init)
  registerAuthRoutes(router);
  // Mot de passe oublié : /password/forgot et /password/reset/{token} (fw auth:init --password-reset)
  registerPasswordResetRoutes(router);
}
`;
const TEMPLATES = PASSWORD_RESET_MAIL_FILES.map((name) => ({
  path: `mvc/views/mail/${name}`,
  content: fs.readFileSync(path.join(FRAMEWORK_VIEWS, 'mail', name), 'utf8'),
}));

const t = suite('auth:init --password-reset');
const projects: CliProject[] = [];

t.after(async () => {
  for (const project of projects) await project.cleanup();
});

function fresh(): CliProject {
  const project = newProject('ResetInit');
  project.useSqlite();
  projects.push(project);
  return project;
}

function ok(project: CliProject, args: string[]): string[] {
  const run = project.run(args);
  assert.is(run.status, 0, `fw ${args.join(' ')} : ${run.stdout}${run.stderr}`);
  assert.is(run.stderr, '', `fw ${args.join(' ')}`);
  return lines(run.stdout);
}

t('on a fresh project: the auth files, the templates, both calls; a second run changes nothing', () => {
  const project = fresh();
  const before = project.snapshot();
  const dry = ok(project, ['auth:init', '--password-reset', '--dry-run']);
  assert.equal(project.snapshot(), before, '--dry-run writes nothing');
  assert.ok(dry.includes('+  registerPasswordResetRoutes(router);'), dry.join('\n'));

  const out = ok(project, ['auth:init', '--password-reset']);
  for (const template of TEMPLATES) {
    assert.ok(out.includes(fateLine('créé', template.path)), template.path);
    assert.is(project.read(template.path), template.content);
  }
  assert.ok(out.includes('Résumé : 23 créés, 1 mis à jour.'), out.join('\n'));
  assert.ok(
    out.includes(
      'Réinitialisation du mot de passe ajoutée à mvc/routes.ts : « registerPasswordResetRoutes(…) » dans registerRoutes (GET /password/forgot, POST /password/forgot, GET /password/reset/{token}, POST /password/reset/{token}).',
    ),
    out.join('\n'),
  );
  assert.ok(out.some((line) => line.startsWith('Pour les messages : « fw mail:init » puis « fw db:apply »')));
  assert.is(project.read(ROUTES), BOTH);
  linkFramework(project);
  const tsc = runTsc(project.root, ['--noEmit', '-p', 'tsconfig.json']);
  assert.is(tsc.status, 0, tsc.stdout + tsc.stderr);

  const snapshot = project.snapshot();
  const again = ok(project, ['auth:init', '--password-reset']);
  assert.equal(project.snapshot(), snapshot);
  assert.ok(again.includes('Réinitialisation du mot de passe : registerPasswordResetRoutes est déjà importé et appelé dans mvc/routes.ts.'));
  assert.ok(again.includes("Rien à faire : les fichiers SQL et les routes d'authentification sont déjà en place."));
});

t('on a project that ran auth:init before: only the call and the templates; a template the user changed is kept', () => {
  const project = fresh();
  ok(project, ['auth:init']);
  assert.ok(!project.read(ROUTES).includes('registerPasswordResetRoutes'));
  assert.ok(!fs.existsSync(project.path('mvc/views/mail')), 'auth:init alone writes no template');
  project.write('mvc/views/mail/password_reset_subject.txt', 'Mon sujet à moi\n');
  const out = ok(project, ['auth:init', '--password-reset']);
  assert.equal(
    out.filter((line) => line.startsWith('Résumé')),
    ['Résumé : 2 créés, 1 mis à jour, 20 inchangés, 1 ignoré.'],
  );
  assert.is(project.read('mvc/views/mail/password_reset_subject.txt'), 'Mon sujet à moi\n');
  assert.is(project.read('mvc/views/mail/password_reset_text.txt'), TEMPLATES[1]!.content);
  assert.is(project.read(ROUTES), BOTH);
});

t.run();
