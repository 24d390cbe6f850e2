// `fw routes:list` run as a process in a generated project: the table of docs/decisions.md#command-output-reports-and-tables, handler names, --json,
// the API routes file, and the refusals (extra argument, dependencies missing, routes.ts that does not load).
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { CliProject } from './helpers/cli.js';
import { buildCrudApp } from './helpers/crud-app.js';

let project: CliProject;

test.before(() => {
  project = buildCrudApp('sqlite');
});

test.after(async () => {
  await project?.cleanup();
});

test('prints METHOD PATH NAME PUBLIC CSRF API HANDLER with oui/non, one line per route, in declaration order, nothing else', () => {
  const run = project.run(['routes:list']);
  assert.is(run.status, 0, run.stderr);
  const lines = run.stdout.trimEnd().split('\n');
  assert.equal(lines[0]!.split(/\s{2,}/), ['METHOD', 'PATH', 'NAME', 'PUBLIC', 'CSRF', 'API', 'HANDLER']);
  assert.equal(lines[1]!.split(/\s{2,}/), ['GET', '/', 'home', 'oui', 'oui', 'non', 'HomeController.index']);
  const rows = lines.slice(1).map((line) => line.split(/\s{2,}/));
  assert.is(rows.length, 21);
  assert.equal(
    rows.find((r) => r[1] === '/contacts/{id}/delete'),
    ['POST', '/contacts/{id}/delete', 'contacts.delete', 'oui', 'oui', 'non', 'ContactController.destroy'],
  );
  assert.equal(
    rows.find((r) => r[1] === '/contacts/export.csv'),
    ['GET', '/contacts/export.csv', 'contacts.export', 'oui', 'oui', 'non', 'ContactController.exportCsv'],
  );
  // The table of docs/decisions.md#command-output-reports-and-tables only: a header and one line per route, no summary line after it.
  assert.is(lines.length, 1 + 21);
  assert.ok(run.stdout.endsWith('ContactController.destroy\n'), run.stdout.slice(-200));
  assert.ok(
    rows.every((row) => row.length === 7 && /^(GET|POST)$/.test(row[0]!)),
    'every line after the header is a route',
  );
  // Columns line up: every PATH cell starts at the same offset.
  const offset = lines[0]!.indexOf('PATH');
  for (const line of lines.slice(1)) assert.is(line.charAt(offset), '/', line);
});

test('--json gives one object per route; api_routes.ts routes are listed with API oui; anonymous handlers are named so', () => {
  project.write(
    'mvc/api_routes.ts',
    `import { apiSuccess, requireApiToken, type Router } from 'fw-mvc';\n` +
      `export function registerApiRoutes(router: Router): void {\n` +
      `  router.add('GET', '/api/ping', requireApiToken(() => apiSuccess({ pong: true })), { name: 'api.ping', api: true, csrf: false, public: true });\n}\n`,
  );
  try {
    const run = project.run(['routes:list', '--json']);
    assert.is(run.status, 0, run.stderr);
    const routes = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
    assert.is(routes.length, 22);
    assert.equal(routes[0], { method: 'GET', path: '/', name: 'home', public: true, csrf: true, api: false, handler: 'HomeController.index' });
    const ping = routes.find((r) => r.path === '/api/ping');
    assert.ok(ping, 'la route API est listée');
    assert.is(ping!.api, true);
    assert.is(ping!.csrf, false);
    assert.type(ping!.handler, 'string');
  } finally {
    fs.rmSync(project.path('mvc/api_routes.ts'));
  }
});

test('an extra argument is refused with the usage as advice', () => {
  const run = project.run(['routes:list', 'contacts']);
  assert.is(run.status, 1);
  assert.match(run.stderr, /^Erreur : .*routes:list/m);
  assert.match(run.stderr, /^Conseil : .*fw routes:list/m);
});

test('a routes.ts that throws while loading gives Erreur and exit 1, no stack', () => {
  const original = project.read('mvc/routes.ts');
  project.write('mvc/routes.ts', `${original}\nthrow new Error('boum au chargement');\n`);
  try {
    const run = project.run(['routes:list']);
    assert.is(run.status, 1);
    assert.match(run.stderr, /^Erreur : mvc\/routes\.ts ne se charge pas : .*boum au chargement/m);
    assert.not.match(run.stderr, /\n\s+at /);
  } finally {
    project.write('mvc/routes.ts', original);
  }
});

test('without node_modules/fw-mvc: Erreur with the advice to run npm install', () => {
  const link = project.path('node_modules/fw-mvc');
  const target = fs.readlinkSync(link);
  fs.unlinkSync(link);
  try {
    const run = project.run(['routes:list']);
    assert.is(run.status, 1);
    assert.match(run.stderr, /^Erreur : .*node_modules\/fw-mvc/m);
    assert.match(run.stderr, /^Conseil : .*npm install/m);
  } finally {
    fs.symlinkSync(target, link, 'dir');
  }
});

test.run();
