/**
 * French texts that visitors and users read write the apostrophe as ’ (docs/frontend.md "Apostrophes"): the
 * catalogues (the framework's fr.json and the project template's), the framework's views, the views `fw new` writes,
 * the generated views kept as snapshots and the views of the starters. A straight ' after an elided word (l', d', n',
 * qu', s'…) followed by a letter fails, naming the file, the line and the text.
 *
 * The messages of the `fw` command (its sources under cli/ and compiler/, the project template aside) write the
 * straight ', as most of them always have: a ’ after an elided word fails there, so that one message does not mix both.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { emitAppLayout } from '../emitters/crud/views-record.js';
import { emitDashboardView, emitMfaCardView, emitProfileView } from '../emitters/starters/account-views.js';
import { emitStarterHome } from '../emitters/starters/home.js';
import { PACKAGE_ROOT } from '../runtime/paths.js';

/** An elided French word, then a straight apostrophe, then a letter: `l'entité`, `qu'il`, `aujourd'hui`. */
const STRAIGHT = /(?<![\p{L}\p{N}_$.\\])(?:[ldnsjcmt]|qu|jusqu|lorsqu|puisqu|aujourd)'(?=\p{L})/giu;

function problems(label: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const match of line.matchAll(STRAIGHT)) found.push(`${label}:${i + 1} : « ${line.slice(Math.max(0, match.index - 20), match.index + 20).trim()} »`);
  });
  return found;
}

function filesUnder(folder: string, ext: string): string[] {
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(ext))
    .map((file) => path.join(folder, file));
}

const relative = (file: string): string => path.relative(PACKAGE_ROOT, file);

test('the pattern finds a straight apostrophe and leaves the typographic one, code and English alone', () => {
  assert.is(problems('x', "l'entité, qu'il, Aujourd'hui").length, 3);
  assert.equal(problems('x', "Aucune observation pour l'instant."), ["x:1 : « ne observation pour l'instant. »"]);
  assert.equal(problems('x', "l’entité, qu’il ; trans('app.home') ; it's ; {{ 'd' }}"), []);
});

test('French catalogues: every text writes ’', () => {
  const found: string[] = [];
  for (const file of [
    path.join(PACKAGE_ROOT, 'runtime', 'i18n', 'fr.json'),
    path.join(PACKAGE_ROOT, 'cli', 'templates', 'project', 'translations', 'fr.json'),
  ]) {
    const catalogue = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
    for (const [key, value] of Object.entries(catalogue)) found.push(...problems(`${relative(file)} ${key}`, value));
  }
  assert.equal(found, []);
});

test('views: the framework\u2019s, the project template\u2019s, the generated ones (snapshots) and the starters\u2019', () => {
  const found: string[] = [];
  const folders = [
    path.join(PACKAGE_ROOT, 'runtime', 'views'),
    path.join(PACKAGE_ROOT, 'cli', 'templates', 'project', 'mvc', 'views'),
    path.join(PACKAGE_ROOT, 'snapshots'),
  ];
  const files = folders.flatMap((folder) => filesUnder(folder, '.html'));
  assert.ok(files.length > 30, `${files.length} views`);
  for (const file of files) found.push(...problems(relative(file), fs.readFileSync(file, 'utf8')));
  const generated: Record<string, string> = {
    'layouts/app.html': emitAppLayout(),
    'dashboard/index.html': emitDashboardView('fw starter:build auth'),
    'account/profile.html': emitProfileView('fw starter:build auth'),
    'account/_mfa.html': emitMfaCardView('fw starter:build mfa'),
    'home/index.html': emitStarterHome({
      command: 'fw starter:build auth',
      login: true,
      descriptions: [{ href: '/account/mfa', description: 'Codes d’une application d’authentification et codes de secours.' }],
    }),
  };
  for (const [label, text] of Object.entries(generated)) found.push(...problems(label, text));
  assert.equal(found, []);
});

/** An elided French word, then a typographic apostrophe, then a letter: the CLI's messages write `'` instead. */
const TYPOGRAPHIC = /(?<![\p{L}\p{N}_$.\\])(?:[ldnsjcmt]|qu|jusqu|lorsqu|puisqu|aujourd)’(?=\p{L})/giu;

test('the pattern of the CLI finds a typographic apostrophe after an elided word', () => {
  assert.is([...'rien n’a été écrit, l’entité, qu’il'.matchAll(TYPOGRAPHIC)].length, 3);
  assert.is([..."rien n'a été écrit ; le site’s".matchAll(TYPOGRAPHIC)].length, 0);
});

test('CLI messages (cli/ and compiler/ sources, the project template aside) write the straight apostrophe', () => {
  const templates = path.join(PACKAGE_ROOT, 'cli', 'templates');
  const files = [
    ...filesUnder(path.join(PACKAGE_ROOT, 'cli'), '.ts').filter((file) => !file.startsWith(templates + path.sep)),
    ...filesUnder(path.join(PACKAGE_ROOT, 'compiler'), '.ts'),
  ];
  assert.ok(files.length > 100, `${files.length} sources`);
  const found: string[] = [];
  for (const file of files) {
    fs.readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const match of line.matchAll(TYPOGRAPHIC))
          found.push(`${relative(file)}:${i + 1} : « ${line.slice(Math.max(0, match.index - 20), match.index + 20).trim()} »`);
      });
  }
  assert.equal(found, []);
});

test.run();
