// The module commands through the real CLI (docs/modules.md): a sample module `blog` (a controller, a view, a static
// image and stylesheet, a migration, a doc, routes) in a `fw new --no-install` project; module:list, module:install
// (fw_modules.json, the `mfa` entry kept), module:files (copies, conflicts, symbolic links), module:routes (the file
// written, mvc/routes.ts untouched), bad manifests refused with nothing written; then the printed lines added to
// routes.ts by hand, the project type-checked and served, the module's page and static file fetched.
import { type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fateLine, lines, newProject, type CliProject } from './helpers/cli.js';
import { linkFramework, serveProject } from './helpers/crud-app.js';
import { stopServer } from './helpers/auth-app.js';
import { runTsc } from './helpers/typecheck.js';

interface Context {
  project: CliProject;
  served?: { url: string; child: ChildProcess };
}

const MANIFEST = {
  $schema: '../../node_modules/fw-mvc/schemas/module.schema.json',
  name: 'blog',
  label: 'Blog',
  version: '1.0.0',
  description: 'Articles publics : la liste.',
  provides: ['controllers', 'views', 'routes', 'static', 'migrations', 'docs'],
  paths: { views: 'templates', static: 'assets/public' },
};

const CONTROLLER = `import { BaseController, type Request, type Response } from 'fw-mvc';

export class BlogController extends BaseController {
  /** GET /blog */
  static index(request: Request): Response {
    return BaseController.render('blog/index.html', { request, context: { title: 'Blog' } });
  }
}
`;

const VIEW = `{% extends "layouts/public.html" %}
{% block content %}<h1 id="blog-title">Le blog du module</h1><img src="/static/modules/blog/img/logo.png" alt="">{% endblock %}
`;

const ROUTES = {
  routes: [{ method: 'GET', path: '/blog', controller: 'BlogController', action: 'index', name: 'blog.index', public: true }],
};

/** Bytes that are not UTF-8: a copy through a string would change them. */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28]);
const MIGRATION = '20250101120000_blog_posts.sql';

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

function writeModule(project: CliProject, dir = 'modules/blog', manifest: Record<string, unknown> = MANIFEST): void {
  project.write(`${dir}/module.json`, json(manifest));
  project.write(`${dir}/controllers/blog_controller.ts`, CONTROLLER);
  project.write(`${dir}/templates/index.html`, VIEW);
  project.write(`${dir}/routes/routes.json`, json(ROUTES));
  project.write(`${dir}/assets/public/css/blog.css`, 'h1 { color: teal; }\n');
  fs.mkdirSync(project.path(`${dir}/assets/public/img`), { recursive: true });
  fs.writeFileSync(project.path(`${dir}/assets/public/img/logo.png`), PNG);
  project.write(`${dir}/migrations/${MIGRATION}`, 'CREATE TABLE IF NOT EXISTS blog_posts (id INTEGER PRIMARY KEY);\n');
  project.write(`${dir}/docs/README.md`, '# Blog\n');
}

/** Where module:files puts each file of the sample module. */
const COPIES: ReadonlyArray<readonly [string, string]> = [
  ['controllers/blog_controller.ts', 'mvc/controllers/blog_controller.ts'],
  ['templates/index.html', 'mvc/views/blog/index.html'],
  ['assets/public/css/blog.css', 'static/modules/blog/css/blog.css'],
  ['assets/public/img/logo.png', 'static/modules/blog/img/logo.png'],
  [`migrations/${MIGRATION}`, `mvc/migrations/${MIGRATION}`],
  ['docs/README.md', 'docs/modules/blog/README.md'],
];

/** Runs `fw <args>`, expects exit 1 and that nothing in the project changed; returns stderr. */
function refused(project: CliProject, args: string[]): string {
  const before = project.snapshot();
  const run = project.run(args);
  assert.is(run.status, 1, `fw ${args.join(' ')} :\n${run.stdout}${run.stderr}`);
  assert.equal(project.snapshot(), before, 'nothing written');
  return run.stderr;
}

function ok(project: CliProject, args: string[]): string {
  const run = project.run(args);
  assert.is(run.status, 0, `fw ${args.join(' ')} :\n${run.stdout}${run.stderr}`);
  assert.is(run.stderr, '');
  return run.stdout;
}

const test = suite<Context>('module commands');

test.before((context) => {
  context.project = newProject('Modules');
  context.project.useSqlite();
});

test.after(async ({ project, served }) => {
  await stopServer(served);
  await project?.cleanup();
});

test('module:list: a missing folder, an empty folder, then the module with its version, not installed', ({ project }) => {
  assert.equal(lines(ok(project, ['module:list'])), [
    "Aucun module local : le dossier modules/ n'existe pas.",
    'Un module est un dossier modules/<nom>/ avec un manifeste module.json : docs/modules.md décrit son format.',
  ]);
  fs.mkdirSync(project.path('modules'));
  assert.match(ok(project, ['module:list']), /^Aucun module local : le dossier modules\/ est vide\.\n/);
  writeModule(project);
  assert.equal(lines(ok(project, ['module:list'])), ['Modules locaux dans modules/ :', 'NOM   VERSION  INSTALLÉ  LIBELLÉ', 'blog  1.0.0    non       Blog']);
  // Elsewhere with --path.
  writeModule(project, 'vendor_modules/blog');
  assert.match(ok(project, ['module:list', '--path', 'vendor_modules']), /^Modules locaux dans vendor_modules\/ :\n/);
  fs.rmSync(project.path('vendor_modules'), { recursive: true });
  assert.match(
    refused(project, ['module:list', '--path', '../elsewhere']),
    /^Erreur : --path « \.\.\/elsewhere » doit désigner un dossier à l'intérieur du projet/,
  );
});

test('module:files and module:routes refuse a module that is not installed', ({ project }) => {
  for (const command of ['module:files', 'module:routes']) {
    const stderr = refused(project, [command, 'blog']);
    assert.match(
      stderr,
      /^Erreur : le module « blog » n'est pas installé : fw_modules\.json ne l'enregistre pas ; rien n'a été écrit\.\nConseil : « fw module:install blog » l'enregistre/,
    );
  }
});

test('module:install: --dry-run writes nothing; then fw_modules.json gets the module, the other entries kept; a re-run changes nothing', ({ project }) => {
  // As a project made with --profile auth-mfa holds it.
  project.editJson<Record<string, unknown>>('fw_modules.json', (data) => {
    data.profile = 'auth-mfa';
    data.modules = [{ name: 'mfa' }];
  });
  const before = project.snapshot();
  const dry = ok(project, ['module:install', 'blog', '--dry-run']);
  assert.equal(project.snapshot(), before, 'dry run writes nothing');
  assert.ok(lines(dry).includes(fateLine('mis à jour', 'fw_modules.json')), dry);

  const out = ok(project, ['module:install', 'blog']);
  assert.match(out, /^Module « blog » 1\.0\.0 \(Blog\) : Articles publics : la liste\.\n/);
  assert.match(out, /\n {2}fw module:files blog +# copie ses fichiers dans le projet\n {2}fw module:routes blog +# écrit mvc\/routes_blog\.ts\n$/);
  const registry = JSON.parse(project.read('fw_modules.json'));
  assert.equal(registry.modules, [{ name: 'mfa' }, { name: 'blog', version: '1.0.0', path: 'modules/blog' }]);
  assert.is(registry.profile, 'auth-mfa');
  assert.ok(registry.framework.version, 'the framework reference kept');

  const text = project.read('fw_modules.json');
  assert.ok(lines(ok(project, ['module:install', 'blog'])).includes(fateLine('inchangé', 'fw_modules.json')));
  assert.is(project.read('fw_modules.json'), text);
  assert.equal(lines(ok(project, ['module:list'])), [
    'Modules locaux dans modules/ :',
    'NOM   VERSION  INSTALLÉ     LIBELLÉ',
    'blog  1.0.0    oui (1.0.0)  Blog',
    'Modules du framework enregistrés dans fw_modules.json : mfa.',
  ]);
});

test('module:install refuses a missing module, a bad name, and a local module named like a framework module', ({ project }) => {
  assert.match(
    refused(project, ['module:install', 'absent']),
    /^Erreur : module « absent » introuvable : le dossier modules\/absent\/ n'existe pas ; rien n'a été écrit\.\n/,
  );
  assert.match(refused(project, ['module:install', '../blog']), /^Erreur : nom de module invalide « \.\.\/blog »/);
  writeModule(project, 'modules/mfa', { ...MANIFEST, name: 'mfa' });
  assert.match(refused(project, ['module:install', 'mfa']), /^Erreur : « mfa » est déjà enregistré dans fw_modules\.json comme module du framework/);
  fs.rmSync(project.path('modules/mfa'), { recursive: true });
});

const BAD_MANIFESTS: ReadonlyArray<{ what: string; manifest: Record<string, unknown>; error: string }> = [
  {
    what: 'name mismatch',
    manifest: { ...MANIFEST, name: 'blogue' },
    error: `modules/bad/module.json#/name : le nom « blogue » diffère de celui du dossier « bad »`,
  },
  {
    what: 'unknown kind',
    manifest: { ...MANIFEST, name: 'bad', provides: ['views', 'widgets'] },
    error:
      'modules/bad/module.json#/provides/1 : « provides[1] » vaut la chaîne « widgets » : valeurs permises : entities, controllers, views, routes, static, migrations, docs',
  },
  {
    what: 'path escaping the module',
    manifest: { ...MANIFEST, name: 'bad', paths: { ...MANIFEST.paths, views: '../blog/templates' } },
    error: 'modules/bad/module.json#/paths/views : chemin « ../blog/templates » refusé : « .. » sort du dossier du module',
  },
  {
    what: 'absolute path',
    manifest: { ...MANIFEST, name: 'bad', paths: { ...MANIFEST.paths, docs: '/etc' } },
    error: 'modules/bad/module.json#/paths/docs : chemin « /etc » refusé : un chemin absolu sort du dossier du module',
  },
  {
    what: 'missing folder',
    manifest: { ...MANIFEST, name: 'bad', provides: [...MANIFEST.provides, 'entities'] },
    error:
      'modules/bad/module.json#/provides/6 : dossier « modules/bad/entities » introuvable pour « entities » : créez-le, ou retirez « entities » de provides',
  },
  { what: 'missing key', manifest: { ...MANIFEST, name: 'bad', version: undefined }, error: 'modules/bad/module.json : clé obligatoire « version » manquante' },
  {
    what: 'bad version',
    manifest: { ...MANIFEST, name: 'bad', version: 'v1' },
    error: 'modules/bad/module.json#/version : « version » vaut la chaîne « v1 » : MAJEUR.MINEUR.CORRECTIF attendu',
  },
];

test('module:install refuses a bad manifest: Erreur naming the file and the field, exit 1, nothing written', ({ project }) => {
  for (const { what, manifest, error } of BAD_MANIFESTS) {
    writeModule(project, 'modules/bad', manifest);
    const stderr = refused(project, ['module:install', 'bad']);
    assert.ok(stderr.startsWith(`Erreur : ${error}`), `${what}: ${stderr}`);
    assert.match(stderr, /\nConseil : corrigez le manifeste \(son format est décrit dans docs\/modules\.md\), puis relancez la commande\.\n$/, what);
    fs.rmSync(project.path('modules/bad'), { recursive: true });
  }
  // Several problems: each on its own line, then one Erreur.
  writeModule(project, 'modules/bad', { ...MANIFEST, name: 'blogue', paths: { ...MANIFEST.paths, views: '..' } });
  const stderr = refused(project, ['module:install', 'bad']);
  assert.equal(lines(stderr).slice(0, 3), [
    "[ERREUR] modules/bad/module.json#/name : le nom « blogue » diffère de celui du dossier « bad » : renommez l'un ou l'autre pour qu'ils soient identiques",
    '[ERREUR] modules/bad/module.json#/paths/views : chemin « .. » refusé : « .. » sort du dossier du module',
    "Erreur : 2 erreurs dans modules/bad/module.json (détail ci-dessus) : rien n'a été écrit.",
  ]);
  // module:list shows it as invalid, without failing.
  assert.match(ok(project, ['module:list']), /\nbad +\? +non +manifeste invalide : modules\/bad\/module\.json#\/name : /);
  fs.rmSync(project.path('modules/bad'), { recursive: true });
});

test('module:files: --dry-run lists every fate and writes nothing; then the files are copied byte for byte; a re-run changes nothing', ({ project }) => {
  const before = project.snapshot();
  const dry = ok(project, ['module:files', 'blog', '--dry-run']);
  assert.equal(project.snapshot(), before, 'dry run writes nothing');
  assert.equal(lines(dry), [
    'Fichiers du module « blog » 1.0.0 :',
    "Simulation (--dry-run) : aucun fichier n'est écrit.",
    ...COPIES.map(([, destination]) => fateLine('créé', destination)),
    'Résumé (simulation) : 6 créés.',
  ]);

  const out = ok(project, ['module:files', 'blog']);
  assert.ok(lines(out).includes('Résumé : 6 créés.'), out);
  assert.match(out, /\n {2}fw module:routes blog +# écrit mvc\/routes_blog\.ts/);
  for (const [source, destination] of COPIES) {
    assert.ok(fs.readFileSync(project.path(destination)).equals(fs.readFileSync(project.path(`modules/blog/${source}`))), destination);
  }
  assert.ok(fs.readFileSync(project.path('static/modules/blog/img/logo.png')).equals(PNG), 'binary copied as is');

  const copied = project.snapshot();
  const again = ok(project, ['module:files', 'blog']);
  assert.ok(lines(again).includes('Résumé : 6 inchangés.'), again);
  assert.match(again, /\nRien à faire : les fichiers du module « blog » sont déjà en place\.\n$/);
  assert.equal(project.snapshot(), copied);
});

test('module:files refuses a conflict and a symbolic link: nothing written, not even the other new files', ({ project }) => {
  project.write('modules/blog/docs/guide.md', '# Guide\n');
  project.write('mvc/views/blog/index.html', '<p>ma version</p>\n');
  const dry = project.run(['module:files', 'blog', '--dry-run']);
  assert.is(dry.status, 1);
  assert.ok(lines(dry.stdout).includes(fateLine('ignoré', 'mvc/views/blog/index.html', 'existe avec un autre contenu : conflit')), dry.stdout);
  assert.ok(lines(dry.stdout).includes(fateLine('créé', 'docs/modules/blog/guide.md')), dry.stdout);
  const stderr = refused(project, ['module:files', 'blog']);
  assert.match(
    stderr,
    /^Erreur : 1 fichier\(s\) du projet existent avec un autre contenu que celui du module « blog » : mvc\/views\/blog\/index\.html ; rien n'a été écrit\.\n/,
  );
  assert.not.ok(project.exists('docs/modules/blog/guide.md'));
  project.write('mvc/views/blog/index.html', VIEW);

  fs.symlinkSync(project.path('env/dev'), project.path('modules/blog/assets/public/secrets'));
  assert.match(
    refused(project, ['module:files', 'blog']),
    /^Erreur : « modules\/blog\/assets\/public\/secrets » est un lien symbolique : un module ne contient que de vrais fichiers, rien n'a été écrit\.\n/,
  );
  assert.match(refused(project, ['module:files', 'blog', '--dry-run']), /est un lien symbolique/);
  fs.rmSync(project.path('modules/blog/assets/public/secrets'));
  // A linked folder of the manifest is refused too.
  fs.renameSync(project.path('modules/blog/docs'), project.path('modules/real_docs'));
  fs.symlinkSync(project.path('modules/real_docs'), project.path('modules/blog/docs'), 'dir');
  assert.match(
    refused(project, ['module:files', 'blog']),
    /^Erreur : modules\/blog\/module\.json#\/provides\/5 : le dossier « modules\/blog\/docs » passe par un lien symbolique : refusé/,
  );
  fs.rmSync(project.path('modules/blog/docs'));
  fs.renameSync(project.path('modules/real_docs'), project.path('modules/blog/docs'));
  fs.rmSync(project.path('modules/blog/docs/guide.md'));
});

test('modules/ itself a symbolic link to a folder outside the project: every module command refuses it', ({ project }) => {
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-modules-outside-'));
  fs.cpSync(project.path('modules'), outside, { recursive: true });
  fs.renameSync(project.path('modules'), project.path('modules_real'));
  fs.symlinkSync(outside, project.path('modules'), 'dir');
  try {
    for (const command of ['module:list', 'module:install', 'module:files', 'module:routes']) {
      const args = command === 'module:list' ? [command] : [command, 'blog'];
      const stderr = refused(project, args);
      assert.match(
        lines(stderr)[0]!,
        /^Erreur : .*« modules(\/blog)? » passe par un lien symbolique \(« modules »\) : refusé, les modules sont lus dans de vrais dossiers du projet ; rien n'a été écrit\.$/,
        `${command}: ${stderr}`,
      );
      assert.is(lines(stderr)[1], 'Conseil : remplacez le lien « modules » par un vrai dossier (une copie), puis relancez la commande.');
    }
  } finally {
    fs.rmSync(project.path('modules'));
    fs.renameSync(project.path('modules_real'), project.path('modules'));
    fs.rmSync(outside, { recursive: true });
  }
});

test('module:files refuses a file name with a backslash or a control character, naming the file', ({ project }) => {
  const cases: ReadonlyArray<[string, string]> = [
    ['docs/deux\nlignes.md', 'modules/blog/docs/deux\\nlignes.md'],
    ['docs/a\\b.md', 'modules/blog/docs/a\\b.md'],
    ['assets/public/img\tx/logo.png', 'modules/blog/assets/public/img\\tx'],
  ];
  for (const [file, shown] of cases) {
    project.write(`modules/blog/${file}`, 'x\n');
    try {
      for (const args of [
        ['module:files', 'blog'],
        ['module:files', 'blog', '--dry-run'],
      ]) {
        const stderr = refused(project, args);
        assert.equal(lines(stderr), [
          `Erreur : nom refusé « ${shown} » : le nom d'un fichier ou d'un dossier de module ne contient ni « \\ » ni caractère de contrôle (saut de ligne, tabulation…) ; rien n'a été écrit.`,
          'Conseil : renommez-le dans le module (lettres, chiffres, « - », « _ », « . »), puis relancez la commande.',
        ]);
      }
    } finally {
      fs.rmSync(project.path(`modules/blog/${file}`));
      if (file.includes('\t')) fs.rmdirSync(project.path('modules/blog/assets/public/img\tx'));
    }
  }
});

test('a new version of the module: module:files says the registry is behind, module:install updates the entry in place', ({ project }) => {
  project.editJson<Record<string, unknown>>('modules/blog/module.json', (data) => (data.version = '1.1.0'));
  const files = ok(project, ['module:files', 'blog']);
  assert.match(
    files,
    /^Attention : modules\/blog est en version 1\.1\.0, fw_modules\.json enregistre 1\.0\.0 : « fw module:install blog » met l'enregistrement à jour\.\n/,
  );
  const out = ok(project, ['module:install', 'blog']);
  assert.ok(lines(out).includes(fateLine('mis à jour', 'fw_modules.json')), out);
  assert.ok(lines(out).includes('Version enregistrée : 1.0.0 → 1.1.0.'), out);
  assert.equal(JSON.parse(project.read('fw_modules.json')).modules, [{ name: 'mfa' }, { name: 'blog', version: '1.1.0', path: 'modules/blog' }]);
  project.editJson<Record<string, unknown>>('modules/blog/module.json', (data) => (data.version = '1.0.0'));
  ok(project, ['module:install', 'blog']);
});

test('module:routes: --dry-run writes nothing; then mvc/routes_blog.ts, mvc/routes.ts untouched, the lines to add printed', ({ project }) => {
  const routesTs = project.read('mvc/routes.ts');
  const before = project.snapshot();
  const dry = ok(project, ['module:routes', 'blog', '--dry-run']);
  assert.equal(project.snapshot(), before, 'dry run writes nothing');
  assert.ok(lines(dry).includes(fateLine('créé', 'mvc/routes_blog.ts')), dry);

  const out = ok(project, ['module:routes', 'blog']);
  assert.is(project.read('mvc/routes.ts'), routesTs, 'mvc/routes.ts never edited');
  assert.equal(lines(out), [
    'Routes du module « blog » (1) :',
    '  GET    /blog  BlogController.index (publique)',
    fateLine('créé', 'mvc/routes_blog.ts'),
    'Résumé : 1 créé.',
    '',
    'Ajoutez à mvc/routes.ts (fw module:routes ne le modifie jamais) :',
    '  en tête, avec les autres imports :',
    "    import { registerBlogRoutes } from './routes_blog.js';",
    '  dans la fonction registerRoutes(router) :',
    '    registerBlogRoutes(router);',
  ]);
  assert.equal(lines(project.read('mvc/routes_blog.ts')), [
    '// fw-mvc: generated file, do not edit (regenerate with: fw module:routes blog)',
    '// Routes du module « blog », lues dans modules/blog/routes/routes.json. À brancher dans mvc/routes.ts :',
    "//   import { registerBlogRoutes } from './routes_blog.js';",
    '//   registerBlogRoutes(router);  (dans registerRoutes)',
    "import type { Router } from 'fw-mvc';",
    "import { BlogController } from './controllers/blog_controller.js';",
    '',
    'export function registerBlogRoutes(router: Router): void {',
    "  router.add('GET', '/blog', BlogController.index, { name: 'blog.index', public: true });",
    '}',
  ]);
  assert.ok(lines(ok(project, ['module:routes', 'blog'])).includes(fateLine('inchangé', 'mvc/routes_blog.ts')));
});

test('module:routes refuses a route whose action or controller the module does not have', ({ project }) => {
  const good = project.read('modules/blog/routes/routes.json');
  project.write(
    'modules/blog/routes/routes.json',
    json({
      routes: [
        { ...ROUTES.routes[0], action: 'show' },
        { ...ROUTES.routes[0], path: '/blog/x', name: 'blog.x', controller: 'PostController' },
      ],
    }),
  );
  const stderr = refused(project, ['module:routes', 'blog']);
  assert.equal(lines(stderr).slice(0, 2), [
    "[ERREUR] modules/blog/routes/routes.json#/routes/0/action : « BlogController » (blog_controller.ts) n'a pas de méthode statique « show »",
    "[ERREUR] modules/blog/routes/routes.json#/routes/1/controller : contrôleur « PostController » introuvable : aucun fichier de modules/blog/controllers/ n'exporte cette classe",
  ]);
  project.write('modules/blog/routes/routes.json', json({ routes: [{ ...ROUTES.routes[0], method: 'FETCH' }] }));
  assert.match(
    refused(project, ['module:routes', 'blog']),
    /^Erreur : modules\/blog\/routes\/routes\.json#\/routes\/0\/method : « method » vaut la chaîne « FETCH » : valeurs permises : GET, POST, PUT, PATCH, DELETE/,
  );
  project.write('modules/blog/routes/routes.json', good);
});

test('module:routes refuses what would stop the application at start: a path the router refuses, a route name already declared', ({ project }) => {
  const good = project.read('modules/blog/routes/routes.json');
  const written = project.read('mvc/routes_blog.ts');
  const route = ROUTES.routes[0]!;
  const at = 'Erreur : modules/blog/routes/routes.json#/routes/0';
  const cases: ReadonlyArray<[Record<string, unknown>, string]> = [
    [
      { path: '/blog/{bad' },
      `${at}/path : la route GET /blog/{bad ferait échouer le démarrage de l'application : Segment invalide « {bad » dans la route /blog/{bad : écrivez {nom} ; rien n'a été écrit.`,
    ],
    [
      { path: '/blog/{id}x' },
      `${at}/path : la route GET /blog/{id}x ferait échouer le démarrage de l'application : Segment invalide « {id}x » dans la route /blog/{id}x : écrivez {nom} ; rien n'a été écrit.`,
    ],
    [
      { name: 'home' },
      `${at}/name : le nom « home » de la route GET /blog est déjà déclaré dans mvc/routes.ts : un nom de route est unique dans l'application, choisissez-en un autre ; rien n'a été écrit.`,
    ],
    [
      { name: 'autre.liste' },
      `${at}/name : le nom « autre.liste » de la route GET /blog est déjà déclaré dans mvc/routes_autre.ts : un nom de route est unique dans l'application, choisissez-en un autre ; rien n'a été écrit.`,
    ],
  ];
  project.write(
    'mvc/routes_autre.ts',
    "import type { Router } from 'fw-mvc';\n\nexport function registerAutreRoutes(router: Router): void {\n  router.add('GET', '/autre', () => { throw new Error(); }, { name: 'autre.liste' });\n}\n",
  );
  try {
    for (const [change, error] of cases) {
      project.write('modules/blog/routes/routes.json', json({ routes: [{ ...route, ...change }] }));
      const stderr = refused(project, ['module:routes', 'blog']);
      assert.is(lines(stderr)[0], error);
      assert.is(project.read('mvc/routes_blog.ts'), written);
    }
    // The module's own routes_blog.ts does not count: a re-run with the same names changes nothing.
    project.write('modules/blog/routes/routes.json', good);
    assert.ok(lines(ok(project, ['module:routes', 'blog'])).includes(fateLine('inchangé', 'mvc/routes_blog.ts')));
  } finally {
    project.write('modules/blog/routes/routes.json', good);
    fs.rmSync(project.path('mvc/routes_autre.ts'));
  }
});

test('the printed lines added to mvc/routes.ts by hand: the project type-checks and serves the module page and its static file', async (context) => {
  const { project } = context;
  const routesTs = project.read('mvc/routes.ts');
  project.write(
    'mvc/routes.ts',
    routesTs
      .replace("import { HomeController } from './controllers/home_controller.js';\n", "$&import { registerBlogRoutes } from './routes_blog.js';\n")
      .replace(/\n}\n$/, '\n  registerBlogRoutes(router);\n}\n'),
  );
  assert.match(ok(project, ['module:routes', 'blog']), /\nmvc\/routes\.ts importe et appelle déjà registerBlogRoutes : rien à y ajouter\.\n$/);
  linkFramework(project);
  const checked = runTsc(project.root, ['--noEmit', '-p', 'tsconfig.json']);
  assert.is(checked.stdout + checked.stderr, '', 'tsc --noEmit');
  assert.is(checked.status, 0);

  context.served = await serveProject(project);
  const page = await fetch(`${context.served.url}/blog`);
  const html = await page.text();
  assert.is(page.status, 200, html.slice(0, 400));
  assert.match(html, '<h1 id="blog-title">Le blog du module</h1>');
  const image = await fetch(`${context.served.url}/static/modules/blog/img/logo.png`);
  assert.is(image.status, 200);
  assert.ok(Buffer.from(await image.arrayBuffer()).equals(PNG), 'the static file served as copied');
});

test.run();
