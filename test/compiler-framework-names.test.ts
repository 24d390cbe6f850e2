// The compiler's lists of what the framework owns (compiler/framework-names.ts, framework-tables.ts,
// framework-paths.ts, class-members.ts) are the runtime's: the names its entries export, the tables its modules
// describe, the paths its modules register, the names a form refuses. The compiler may not import the runtime
// (docs/architecture.md), so the lists are kept twice and compared here.
import path from 'node:path';
import ts from 'typescript';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FORM_RESERVED_NAMES } from '../compiler/class-members.js';
import { FRAMEWORK_EXPORTS, frameworkNameClash, frameworkNames } from '../compiler/framework-names.js';
import { frameworkPathOwner } from '../compiler/framework-paths.js';
import { FRAMEWORK_TABLES, frameworkTableConflict } from '../compiler/framework-tables.js';
import { MIGRATIONS_TABLE } from '../cli/db/migrations.js';
import { AUTH_TABLE_NAMES, registerAuthRoutes, registerPasswordResetRoutes } from '../runtime/auth/index.js';
import { onlyBookkeeping } from '../runtime/db/writes.js';
import { Router } from '../runtime/http/router.js';
import { CSRF_FIELD, SESSIONS_TABLE } from '../runtime/index.js';
import { MAIL_LOG_TABLE } from '../runtime/mail/index.js';
import { MEDIA_TABLE } from '../runtime/media/index.js';
import { registerMfaRoutes } from '../runtime/mfa/index.js';
import { RESERVED_FIELD_NAMES } from '../runtime/forms/form.js';
import '../runtime/rate-limit/database-store.js';
import { REPO } from './helpers/cli.js';

const t = suite('compiler-framework-names');

/** Every name the package's entries export (values and types), read from their declaration files. */
function packageExports(): string[] {
  const entries = ['index', 'crud/index', 'auth/index', 'media/index', 'rbac/index', 'mfa/index', 'mail/index'].map((entry) =>
    path.join(REPO, 'dist', 'runtime', `${entry}.d.ts`),
  );
  const program = ts.createProgram(entries, { noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const names = new Set<string>();
  for (const entry of entries) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
    for (const symbol of checker.getExportsOfModule(module)) names.add(symbol.name);
  }
  return [...names].sort();
}

t('every PascalCase name the fw-mvc entries export is a framework name, and the list names nothing else', () => {
  const exported = packageExports().filter((name) => /^[A-Z][a-z]/.test(name));
  assert.ok(exported.length > 200, String(exported.length));
  assert.equal([...FRAMEWORK_EXPORTS].sort(), exported);
});

t('the globals of TypeScript and Node are framework names; an entity named after one, or making one, is refused', () => {
  const names = frameworkNames();
  for (const name of ['Record', 'Readonly', 'Partial', 'Promise', 'Object', 'String', 'Date', 'URL', 'Request', 'Response', 'Buffer', 'Map']) {
    assert.ok(names.has(name), name);
  }
  assert.is(frameworkNameClash('Base', 'base'), 'BaseController');
  assert.is(frameworkNameClash('List', 'list'), 'ListRow');
  assert.is(frameworkNameClash('Home', 'home'), 'HomeController');
  assert.is(frameworkNameClash('Contact', 'contact'), undefined);
  assert.is(frameworkNameClash('Document', 'document'), undefined);
});

t('the framework tables are the runtime modules’ tables, compared without case', () => {
  const runtimeTables = [...AUTH_TABLE_NAMES, MEDIA_TABLE, MAIL_LOG_TABLE, SESSIONS_TABLE, MIGRATIONS_TABLE].sort();
  assert.equal(Object.values(FRAMEWORK_TABLES).flat().sort(), runtimeTables);
  for (const table of runtimeTables) assert.ok(frameworkTableConflict(table.toUpperCase()), table);
  // The rate limiter's database table is one of the auth tables.
  assert.ok(onlyBookkeeping('DELETE FROM auth_rate_limit_attempts WHERE id = 1'));
  assert.ok(frameworkTableConflict('auth_rate_limit_attempts'));
  assert.ok(frameworkTableConflict('fw_anything'));
  assert.ok(frameworkTableConflict('sqlite_stat'));
  assert.ok(frameworkTableConflict('contacts__fw_new'));
  assert.is(frameworkTableConflict('contacts'), undefined);
  assert.is(frameworkTableConflict('app_users'), undefined);
});

t('every first path segment the auth and mfa modules register is a framework path', () => {
  const router = new Router();
  registerAuthRoutes(router);
  registerPasswordResetRoutes(router);
  registerMfaRoutes(router);
  const segments = new Set(router.iterRoutes().map((route) => route.pattern.split('/')[1]!));
  assert.ok(segments.size >= 4, [...segments].join(','));
  for (const segment of segments) assert.ok(frameworkPathOwner(segment), segment);
  for (const segment of ['static', 'media', 'api']) assert.ok(frameworkPathOwner(segment), segment);
  assert.is(frameworkPathOwner('contacts'), undefined);
});

t('the names a form field may not take are the form’s reserved keys and the CSRF input', () => {
  assert.equal([...FORM_RESERVED_NAMES].sort(), [...RESERVED_FIELD_NAMES, CSRF_FIELD].sort());
});

t.run();
