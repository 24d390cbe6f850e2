/**
 * Error pages, API route loading and the configuration registry (docs/runtime.md "Request flow"; docs/api-mapping.md
 * "Configuration (`core.forge`)").
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  ApiRoutesImportError,
  Application,
  BaseController,
  ConfigKeyError,
  HttpError,
  Router,
  configure,
  escapeHtml,
  get,
  getPath,
  loadApiRoutes,
  resetConfig,
  trans,
  type ConfigKey,
  type Handler,
} from '../runtime/index.js';
import { assertSecurityHeaders } from './helpers/client.js';
import { captureLogs, startApp, type TestApp } from './helpers/server.js';
import { makeProject, type TempProject } from './helpers/project.js';

const RUNTIME_URL = pathToFileURL(path.resolve(path.dirname(new URL(import.meta.url).pathname), '../runtime/index.js')).href;

function routes(router: Router): void {
  router.add('GET', '/ok', () => BaseController.json({ ok: true }), { public: true });
  router.add(
    'GET',
    '/boom',
    () => {
      throw new Error('db exploded: secret-xyz');
    },
    { public: true },
  );
  router.add(
    'GET',
    '/reject',
    async () => {
      await Promise.resolve();
      throw new TypeError('async failure secret-abc');
    },
    { public: true },
  );
  router.add(
    'GET',
    '/throw-string',
    () => {
      throw 'a bare string secret-str';
    },
    { public: true },
  );
  router.add('GET', '/no-response', (() => undefined) as unknown as Handler, { public: true });
  router.add(
    'GET',
    '/gone',
    () => {
      throw new HttpError(410, 'gone');
    },
    { public: true },
  );
  router.add(
    'GET',
    '/missing-thing',
    () => {
      throw new HttpError(404, 'no such thing');
    },
    { public: true },
  );
}

// --- error pages with the framework's templates ---

let t: TestApp;
const E = suite('http-app: 404 and 500 pages');
E.before(async () => {
  t = await startApp({ routes });
});
E.after(() => t.close());
E.before.each(() => t.logs.clear());

E('404: the errors/404.html page in the base layout', async () => {
  const r = await t.fetch('/no/such/page');
  assert.is(r.status, 404);
  assert.is(r.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.match(r.text, /^<!DOCTYPE html>/i);
  assert.ok(r.text.includes(escapeHtml(trans('errors.404.title'))));
  const thrown = await t.fetch('/missing-thing');
  assert.is(thrown.status, 404);
  assert.ok(thrown.text.includes(escapeHtml(trans('errors.404.title'))));
  assert.is(t.logs.records.length, 0, 'a 404 is not an error');
});

E('404 for a JSON client: the not_found envelope', async () => {
  const r = await t.fetch('/no/such/page', { headers: { Accept: 'application/json' } });
  assert.is(r.status, 404);
  assert.is(r.json().success, false);
  assert.is(r.json().error.code, 'not_found');
});

E('500: the errors/500.html page, no message and no stack; the stack goes to the log', async () => {
  const cases: Array<[string, string]> = [
    ['/boom', 'db exploded: secret-xyz'],
    ['/reject', 'async failure secret-abc'],
    ['/throw-string', 'a bare string secret-str'],
  ];
  for (const [url, secret] of cases) {
    t.logs.clear();
    const r = await t.fetch(url);
    assert.is(r.status, 500, url);
    assert.is(r.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.ok(r.text.includes(escapeHtml(trans('errors.500.title'))), url);
    assert.not.ok(r.text.includes(secret), `${url}: message hidden`);
    assert.not.ok(r.text.includes('secret-'), url);
    assert.not.ok(/\n\s+at /.test(r.text), `${url}: no stack`);
    assertSecurityHeaders(r.headers, url);
    const errors = t.logs.records.filter((rec) => rec.level === 'ERROR');
    assert.is(errors.length, 1, url);
    assert.is(errors[0]!.logger, 'fw.http');
    assert.ok(errors[0]!.message.includes(`GET ${url}`), errors[0]!.message);
    const stack = String(errors[0]!.fields?.stack);
    assert.ok(stack.includes(secret), `${url}: logged with its message`);
    if (url !== '/throw-string') assert.match(stack, /\n\s+at /);
  }
});

E('a handler that returns no Response: the 500 page, logged', async () => {
  const r = await t.fetch('/no-response');
  assert.is(r.status, 500);
  assert.ok(r.text.includes(escapeHtml(trans('errors.500.title'))));
  assertSecurityHeaders(r.headers, 'no response');
  assert.is(t.logs.records.filter((rec) => rec.level === 'ERROR').length, 1);
});

E('an HttpError without a template still gives a page of its status', async () => {
  const r = await t.fetch('/gone');
  assert.is(r.status, 410);
  assert.is(r.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.match(r.text, /<h1>410<\/h1>/);
});

E.run();

// --- the application's own error templates win ---

const O = suite('http-app: application error templates');
let o: TestApp;
O.before(async () => {
  o = await startApp({
    routes,
    files: { 'mvc/views/errors/404.html': 'APP-404 {{ app_name }}', 'mvc/views/errors/500.html': 'APP-500' },
    config: { app_name: 'Demo' },
  });
});
O.after(() => o.close());

O('errors/404.html and errors/500.html from views_dir', async () => {
  const notFound = await o.fetch('/nope');
  assert.is(notFound.status, 404);
  assert.is(notFound.text, 'APP-404 Demo');
  const failed = await o.fetch('/boom');
  assert.is(failed.status, 500);
  assert.is(failed.text, 'APP-500');
});

O.run();

// --- API routes loading ---

const MODULES = {
  'mvc/api_routes.mjs': `import { apiSuccess } from '${RUNTIME_URL}';
let calls = 0;
export function registerApiRoutes(router) {
  calls += 1;
  router.add('GET', '/api/ping', () => apiSuccess({ pong: true, calls }), { public: true, csrf: false, api: true });
}`,
  'mvc/api_none.mjs': 'export const notTheFunction = 1;\n',
  'mvc/api_throws.mjs': "throw new Error('broken at load time');\n",
  'mvc/api_syntax.mjs': 'export function registerApiRoutes(router) {\n',
};

const L = suite('http-app: API routes loading');
let project: TempProject;
L.before(() => {
  project = makeProject(MODULES);
  configure({ project_root: project.root });
});
L.after(() => {
  resetConfig();
  project.cleanup();
});

L('module absent: silent, nothing added', async () => {
  const logs = captureLogs();
  try {
    const router = new Router();
    assert.is(await loadApiRoutes(router, 'mvc/api_absent'), false);
    assert.is(router.iterRoutes().length, 0);
    assert.is(logs.records.length, 0);
  } finally {
    logs.restore();
  }
});

L('module without registerApiRoutes: a warning naming the file, nothing added', async () => {
  const logs = captureLogs();
  try {
    const router = new Router();
    assert.is(await loadApiRoutes(router, 'mvc/api_none'), false);
    assert.is(router.iterRoutes().length, 0);
    assert.is(logs.records.length, 1);
    assert.is(logs.records[0]!.level, 'WARNING');
    assert.ok(logs.records[0]!.message.includes(path.join(project.root, 'mvc', 'api_none.mjs')), logs.records[0]!.message);
    assert.ok(logs.records[0]!.message.includes('registerApiRoutes'));
  } finally {
    logs.restore();
  }
});

L('module that throws while loading: ApiRoutesImportError naming the file and the cause', async () => {
  for (const [module, cause] of [
    ['mvc/api_throws', 'broken at load time'],
    ['mvc/api_syntax', ''],
  ] as const) {
    let caught: unknown;
    try {
      await loadApiRoutes(new Router(), module);
    } catch (err) {
      caught = err;
    }
    assert.instance(caught, ApiRoutesImportError);
    const err = caught as Error;
    assert.is(err.name, 'ApiRoutesImportError');
    assert.ok(err.message.includes(path.join(project.root, `${module}.mjs`)), err.message);
    if (cause) assert.ok(err.message.includes(cause), err.message);
  }
  const app = new Application(new Router(), { apiRoutesModule: 'mvc/api_throws' });
  try {
    await app.init();
    assert.unreachable('init() should reject');
  } catch (err) {
    assert.instance(err, ApiRoutesImportError);
  }
});

L.run();

const I = suite('http-app: Application.init() loads mvc/api_routes');
let withApi: TestApp;
let withoutApi: TestApp;
I.before(async () => {
  withApi = await startApp({ files: MODULES, options: { apiRoutesModule: undefined } });
});
I.after(async () => {
  await withApi.close();
  await withoutApi?.close();
});

I('present with registerApiRoutes: the routes answer over HTTP; init() runs once', async () => {
  await withApi.app.init();
  const r = await withApi.fetch('/api/ping');
  assert.is(r.status, 200);
  assert.equal(r.json(), { success: true, data: { pong: true, calls: 1 } });
  assert.equal(
    withApi.router.iterRoutes().map((e) => `${e.method} ${e.pattern}`),
    ['GET /api/ping'],
  );
});

I('apiRoutesModule: null disables loading', async () => {
  withoutApi = await startApp({ files: MODULES, options: { apiRoutesModule: null } });
  assert.is(withoutApi.router.iterRoutes().length, 0);
  assert.is((await withoutApi.fetch('/api/ping')).status, 404);
});

I.run();

// --- configuration registry ---

const C = suite('http-app: configuration registry');
C.after.each(() => resetConfig());

C('an unknown key in configure or get throws ConfigKeyError naming it; nothing is changed', () => {
  const bad = { app_name: 'Changed', no_such_key: 1 } as unknown as Parameters<typeof configure>[0];
  try {
    configure(bad);
    assert.unreachable('configure should throw');
  } catch (err) {
    assert.instance(err, ConfigKeyError);
    assert.is((err as ConfigKeyError).key, 'no_such_key');
    assert.ok((err as Error).message.includes('no_such_key'));
  }
  assert.is(get('app_name'), 'fw-mvc', 'nothing changed');
  assert.throws(
    () => get('nope' as ConfigKey),
    (e: Error) => e instanceof ConfigKeyError && e.message.includes('nope'),
  );
});

C('inherited names (toString, constructor, __proto__…) are unknown keys too', () => {
  for (const key of ['toString', 'constructor', 'hasOwnProperty', 'valueOf']) {
    const bad = { [key]: 1 } as unknown as Parameters<typeof configure>[0];
    assert.throws(
      () => configure(bad),
      (e: Error) => e instanceof ConfigKeyError && (e as ConfigKeyError).key === key && e.message.includes(`« ${key} »`),
      key,
    );
    assert.throws(
      () => get(key as ConfigKey),
      (e: Error) => e instanceof ConfigKeyError && e.message.includes(`« ${key} »`),
      key,
    );
  }
  assert.throws(
    () => configure(JSON.parse('{"__proto__": {"polluted": true}}')),
    (e: Error) => e instanceof ConfigKeyError && e.message.includes('__proto__'),
  );
  assert.is(({} as Record<string, unknown>).polluted, undefined);
});

C('defaults of the original configuration keys', () => {
  const expected: Partial<Record<ConfigKey, unknown>> = {
    app_name: 'fw-mvc',
    app_env: 'dev',
    views_dir: 'mvc/views',
    sql_dir: 'mvc/models/sql',
    upload_root: 'storage/uploads',
    upload_max_size: 5_242_880,
    upload_allowed_extensions: ['jpg', 'jpeg', 'png', 'webp', 'pdf'],
    upload_allowed_mime_types: ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'],
    mail_host: '',
    mail_port: 587,
    mail_username: '',
    mail_password: '',
    mail_from: '',
    mail_use_tls: false,
    mail_use_ssl: false,
    mail_timeout: 10,
    mail_enabled: true,
    db_host: 'localhost',
    db_port: 3306,
    db_name: 'fw_db',
    db_user: 'root',
    db_password: '',
    db_pool_size: 5,
    css_visible: 'block',
    css_hidden: 'hidden',
    router: null,
    body_max_size: 1_048_576,
  };
  for (const [key, value] of Object.entries(expected)) assert.equal(get(key as ConfigKey), value, key);
});

C('relative paths are resolved from project_root', () => {
  configure({ project_root: '/srv/app', upload_root: '/var/uploads' });
  assert.is(getPath('views_dir'), '/srv/app/mvc/views');
  assert.is(getPath('sql_dir'), '/srv/app/mvc/models/sql');
  assert.is(getPath('upload_root'), '/var/uploads');
});

C('mutating a returned list does not change the defaults', () => {
  get('upload_allowed_extensions').push('exe');
  resetConfig();
  assert.equal(get('upload_allowed_extensions'), ['jpg', 'jpeg', 'png', 'webp', 'pdf']);
});

C.run();
