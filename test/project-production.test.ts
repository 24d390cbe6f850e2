// The production path of a generated project (docs/deploy.md): `npm run build` compiles it to dist/ with
// tsconfig.build.json, and Node alone serves dist/app.js — views, static files, translations and env/ read from the
// project root, the compiled mvc/api_routes.js loaded — with no tsx anywhere in the process tree.
import { type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { CliProject } from './helpers/cli.js';
import { buildCrudApp, serveWith } from './helpers/crud-app.js';
import { stopApp } from './helpers/app-process.js';
import { runTsc } from './helpers/typecheck.js';

let project: CliProject | undefined;
let server: ChildProcess | undefined;
let base = '';

const API_ROUTES = `import { apiSuccess, type Router } from 'fw-mvc';

export function registerApiRoutes(router: Router): void {
  router.add('GET', '/api/ping', () => apiSuccess({ pong: true }), { name: 'api_ping', public: true });
}
`;

/** `node dist/app.js` on an ephemeral port; resolves with its address. */
async function serveCompiled(root: string): Promise<string> {
  const { url } = await serveWith(root, ['dist/app.js'], {}, (child) => {
    server = child;
  });
  return url;
}

/** The pids of `pid` and of all its descendants (Linux /proc). */
function processTree(pid: number): number[] {
  const children = fs
    .readdirSync(`/proc/${pid}/task`)
    .flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/))
    .filter((child) => child !== '')
    .map(Number);
  return [pid, ...children.flatMap(processTree)];
}

test('npm run build compiles the CRUD project to dist/ with its tsconfig.build.json', () => {
  project = buildCrudApp('sqlite');
  project.write('mvc/api_routes.ts', API_ROUTES);
  const build = runTsc(project.root, ['-p', 'tsconfig.build.json']);
  assert.is(build.status, 0, build.stdout + build.stderr);
  for (const file of ['dist/app.js', 'dist/config.js', 'dist/mvc/routes.js', 'dist/mvc/api_routes.js', 'dist/mvc/controllers/contact_controller.js']) {
    assert.ok(project.exists(file), `${file} manque`);
  }
  // Views, static files and translations stay at the project root, where the app reads them.
  assert.not.ok(project.exists('dist/mvc/views'));
  assert.ok(project.read('.gitignore').split('\n').includes('dist/'));
});

test('node dist/app.js serves the CRUD list, a static file and the compiled API routes, with no tsx', async () => {
  assert.ok(project, 'the project was not built');
  base = await serveCompiled(project.root);
  const list = await fetch(`${base}/contacts`);
  assert.is(list.status, 200);
  assert.match(await list.text(), /href="\/contacts\/new"/);
  const css = await fetch(`${base}/static/tailwind.css`);
  assert.is(css.status, 200);
  // The stylesheet fw new ships, built by the Tailwind CLI (not an empty file).
  assert.ok((await css.text()).includes('.md\\:grid-cols-4'), 'tailwind.css');
  const api = await fetch(`${base}/api/ping`);
  assert.is(api.status, 200, await api.clone().text());
  assert.equal((await api.json()) as unknown, { success: true, data: { pong: true } });

  const pids = processTree(server!.pid!);
  assert.equal(pids, [server!.pid!], 'the server starts no child process');
  const argv = fs
    .readFileSync(`/proc/${server!.pid}/cmdline`, 'utf8')
    .split('\0')
    .filter((arg) => arg !== '');
  assert.equal(argv.slice(1), ['dist/app.js']);
  assert.not.match(fs.readFileSync(`/proc/${server!.pid}/environ`, 'utf8'), /tsx/, 'no tsx loader in NODE_OPTIONS');
});

test.after(async () => {
  if (server) await stopApp(server);
  await project?.cleanup();
});

test.run();
