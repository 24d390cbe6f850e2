// `fw sync:entity`, `fw sync:relations`, `fw build:model` and `fw check:model` run as real processes in a project
// made by `fw new`: each file's fate, idempotence byte for byte, manual files never rewritten, --dry-run and
// --force, and an invalid model that makes every generating command fail without writing anything.
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fateLine, lines, newProject, type CliProject } from './helpers/cli.js';

let project: CliProject;

test.after(async () => {
  await project?.cleanup();
});

const C = 'mvc/entities/contact';
const V = 'mvc/entities/ville';
const CONTACT_FILES = [`${C}/contact.sql`, `${C}/contact.sqlite.sql`, `${C}/contact_base.ts`, `${C}/contact.ts`, `${C}/index.ts`];
const VILLE_FILES = [`${V}/ville.sql`, `${V}/ville.sqlite.sql`, `${V}/ville_base.ts`, `${V}/ville.ts`, `${V}/index.ts`];
const RELATION_FILES = ['mvc/entities/relations.sql', 'mvc/entities/relations.sqlite.sql'];
/** build:model's order: each entity's files, then the relation files. */
const ALL_FILES = [...CONTACT_FILES, ...VILLE_FILES, ...RELATION_FILES];

const MANUAL = 'fichier manuel : jamais réécrit';
const MARKER_REMOVED = 'ligne « fw-mvc: generated file » retirée : le fichier est à vous ; --force le régénère';
const FORCED = 'ligne « fw-mvc: generated file » retirée, réécrit à cause de --force';

type Fate = [label: string, file: string, reason?: string];

/** The exact stdout of a generating command: one line per file, then the summary. */
function report(fates: readonly Fate[], summary: string, dryRun = false): string[] {
  return [
    ...(dryRun ? ["Simulation (--dry-run) : aucun fichier n'est écrit."] : []),
    ...fates.map(([label, file, reason]) => fateLine(label, file, reason)),
    `${dryRun ? 'Résumé (simulation)' : 'Résumé'} : ${summary}.`,
  ];
}

function each(label: string, files: readonly string[]): Fate[] {
  return files.map((file) => [label, file]);
}

/** Runs a command that must succeed with nothing on stderr; returns its stdout lines. */
function ok(args: string[]): string[] {
  const run = project.run(args);
  assert.is(run.status, 0, `fw ${args.join(' ')} : ${run.stderr}`);
  assert.is(run.stderr, '', `fw ${args.join(' ')}`);
  return lines(run.stdout);
}

test('setup with the CLI: Contact (with ville_id), Ville and the relation contact_ville', () => {
  project = newProject('Carnet');
  for (const name of ['Contact', 'Ville']) ok(['make:entity', name, '--no-input']);
  project.editJson<{ fields: unknown[] }>(`${C}/contact.json`, (data) => {
    data.fields.push({ name: 'ville_id', sql_type: 'INT', nullable: true, unique: false });
  });
  ok(['make:relation', '--no-input', '--name', 'contact_ville', '--type', 'many_to_one', '--from', 'Contact.ville_id', '--to', 'Ville.id']);
  assert.equal(ok(['check:model']), ['OK : 2 entité(s), 1 relation(s), aucune erreur.']);
});

test('sync:entity Contact: every file créé, then all inchangé and byte-identical', () => {
  assert.equal(ok(['sync:entity', 'Contact']), report(each('créé', CONTACT_FILES), '5 créés'));
  for (const file of [`${C}/contact.sql`, `${C}/contact.sqlite.sql`]) {
    assert.is(lines(project.read(file))[0], '-- fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Contact)');
  }
  assert.is(lines(project.read(`${C}/contact_base.ts`))[0], '// fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Contact)');
  assert.not.match(project.read(`${C}/contact.ts`), /fw-mvc: generated file/);
  const before = project.snapshot();
  assert.equal(ok(['sync:entity', 'Contact']), report(each('inchangé', CONTACT_FILES), '5 inchangés'));
  assert.equal(project.snapshot(), before);
});

test('sync:relations: relations SQL créé (with the SQLite table files that carry the keys), then all inchangé', () => {
  const fates: Fate[] = [
    ['créé', RELATION_FILES[0]!],
    ['créé', RELATION_FILES[1]!],
    ['inchangé', `${C}/contact.sqlite.sql`],
    ['créé', `${V}/ville.sqlite.sql`],
  ];
  assert.equal(ok(['sync:relations']), report(fates, '3 créés, 1 inchangé'));
  const before = project.snapshot();
  assert.equal(ok(['sync:relations']), report(each('inchangé', [...RELATION_FILES, `${C}/contact.sqlite.sql`, `${V}/ville.sqlite.sql`]), '4 inchangés'));
  assert.equal(project.snapshot(), before);
});

test('build:model: the missing files créé, then all inchangé; from scratch it writes the same bytes', () => {
  const fates: Fate[] = ALL_FILES.map((file) => [
    [`${V}/ville.sql`, `${V}/ville_base.ts`, `${V}/ville.ts`, `${V}/index.ts`].includes(file) ? 'créé' : 'inchangé',
    file,
  ]);
  assert.equal(ok(['build:model']), report(fates, '4 créés, 8 inchangés'));
  const generated = project.snapshot();
  assert.equal(ok(['build:model']), report(each('inchangé', ALL_FILES), '12 inchangés'));
  assert.equal(project.snapshot(), generated);

  for (const file of ALL_FILES) fs.rmSync(project.path(file));
  assert.equal(ok(['build:model']), report(each('créé', ALL_FILES), '12 créés'));
  assert.equal(project.snapshot(), generated);
});

const USER_CONTACT = `import { ContactBase } from './contact_base.js';

export class Contact extends ContactBase {
  label(): string {
    return this.nom.toUpperCase();
  }
}
`;

test('a user edit of the manual contact.ts survives a model change and every regeneration', () => {
  project.write(`${C}/contact.ts`, USER_CONTACT);
  project.editJson<{ fields: unknown[] }>(`${C}/contact.json`, (data) => {
    data.fields.push({ name: 'telephone', sql_type: 'VARCHAR(20)', nullable: true, unique: false });
  });
  const fates: Fate[] = ALL_FILES.map((file) => {
    if (file === `${C}/contact.ts`) return ['ignoré', file, MANUAL];
    return [[`${C}/contact.sql`, `${C}/contact.sqlite.sql`, `${C}/contact_base.ts`].includes(file) ? 'mis à jour' : 'inchangé', file];
  });
  assert.equal(ok(['build:model']), report(fates, '3 mis à jour, 8 inchangés, 1 ignoré'));
  assert.is(project.read(`${C}/contact.ts`), USER_CONTACT);
  assert.match(project.read(`${C}/contact_base.ts`), /\n {2}telephone: string \| null;\n/);
  assert.match(project.read(`${C}/contact.sql`), /\n {2}`Telephone` VARCHAR\(20\) NULL,\n/);

  const stable = project.snapshot();
  const again: Fate[] = CONTACT_FILES.map((file) => (file === `${C}/contact.ts` ? ['ignoré', file, MANUAL] : ['inchangé', file]));
  assert.equal(ok(['sync:entity', 'Contact']), report(again, '4 inchangés, 1 ignoré'));
  assert.equal(ok(['sync:entity', 'Contact', '--force']), report(again, '4 inchangés, 1 ignoré'));
  assert.equal(project.snapshot(), stable);
});

test('--dry-run reports what would change and writes nothing', () => {
  project.editJson<{ fields: unknown[] }>(`${C}/contact.json`, (data) => {
    data.fields.push({ name: 'mobile', sql_type: 'VARCHAR(20)', nullable: true, unique: false });
  });
  fs.rmSync(project.path(`${V}/ville_base.ts`));
  const before = project.snapshot();
  const fates: Fate[] = ALL_FILES.map((file) => {
    if (file === `${C}/contact.ts`) return ['ignoré', file, MANUAL];
    if (file === `${V}/ville_base.ts`) return ['créé', file];
    return [[`${C}/contact.sql`, `${C}/contact.sqlite.sql`, `${C}/contact_base.ts`].includes(file) ? 'mis à jour' : 'inchangé', file];
  });
  assert.equal(ok(['build:model', '--dry-run']), report(fates, '1 créé, 3 mis à jour, 7 inchangés, 1 ignoré', true));
  const entityFates = fates.filter(([, file]) => CONTACT_FILES.includes(file));
  assert.equal(ok(['sync:entity', 'Contact', '--dry-run']), report(entityFates, '3 mis à jour, 1 inchangé, 1 ignoré', true));
  const relationFates: Fate[] = [
    ['inchangé', RELATION_FILES[0]!],
    ['inchangé', RELATION_FILES[1]!],
    ['mis à jour', `${C}/contact.sqlite.sql`],
    ['inchangé', `${V}/ville.sqlite.sql`],
  ];
  assert.equal(ok(['sync:relations', '--dry-run']), report(relationFates, '1 mis à jour, 3 inchangés', true));
  assert.equal(project.snapshot(), before);

  assert.equal(ok(['build:model']), report(fates, '1 créé, 3 mis à jour, 7 inchangés, 1 ignoré'));
  assert.match(project.read(`${C}/contact_base.ts`), /\n {2}mobile: string \| null;\n/);
  assert.ok(project.exists(`${V}/ville_base.ts`));
});

test('a regenerable file whose marker line was removed is ignoré and kept; --force rewrites it', () => {
  const generated = project.snapshot();
  const owned = [`${C}/contact_base.ts`, `${C}/contact.sql`];
  for (const file of owned) project.write(file, project.read(file).replace(/^[^\n]*\n/, ''));
  const edited = project.snapshot();
  const fates: Fate[] = CONTACT_FILES.map((file) => {
    if (file === `${C}/contact.ts`) return ['ignoré', file, MANUAL];
    return owned.includes(file) ? ['ignoré', file, MARKER_REMOVED] : ['inchangé', file];
  });
  assert.equal(ok(['sync:entity', 'Contact']), report(fates, '2 inchangés, 3 ignorés'));
  assert.equal(project.snapshot(), edited);
  const allFates: Fate[] = ALL_FILES.map((file) => fates.find(([, f]) => f === file) ?? ['inchangé', file]);
  assert.equal(ok(['build:model']), report(allFates, '9 inchangés, 3 ignorés'));
  assert.equal(project.snapshot(), edited);

  const forced: Fate[] = CONTACT_FILES.map((file) => {
    if (file === `${C}/contact.ts`) return ['ignoré', file, MANUAL];
    return owned.includes(file) ? ['écrasé', file, FORCED] : ['inchangé', file];
  });
  assert.equal(ok(['sync:entity', 'Contact', '--force']), report(forced, '2 écrasés, 2 inchangés, 1 ignoré'));
  assert.equal(project.snapshot(), generated);
});

/** Three problems in two files: a reserved column, a TEXT filter, a DECIMAL filter (Produit is new). */
const PRODUIT = {
  format_version: 1,
  entity: 'Produit',
  table: 'produit',
  primary_key: { name: 'id', sql: 'Id', python_type: 'int', sql_type: 'INT', auto_increment: true },
  fields: [
    { name: 'libelle', sql: 'Select', sql_type: 'VARCHAR(80)', nullable: false, unique: false },
    { name: 'prix', sql_type: 'DECIMAL(10,2)', nullable: true, unique: false, list: { filter: true } },
  ],
};
const PROBLEMS = [
  ['mvc/entities/contact/contact.json', '#/fields/4/list/filter', 'filter_type'],
  ['mvc/entities/produit/produit.json', '#/fields/0/sql', 'reserved_word'],
  ['mvc/entities/produit/produit.json', '#/fields/1/list/filter', 'filter_type'],
] as const;

function assertProblemLines(output: string): void {
  const found = lines(output).filter((line) => line.startsWith('[ERREUR] '));
  assert.is(found.length, PROBLEMS.length, output);
  PROBLEMS.forEach(([file, pointer], index) => assert.ok(found[index]!.startsWith(`[ERREUR] ${file}${pointer} : `), found[index]));
}

test('an invalid model: every generating command exits 1, one [ERREUR] line per problem, writes NO file', () => {
  project.editJson<{ fields: unknown[] }>(`${C}/contact.json`, (data) => {
    data.fields.push({ name: 'notes', sql_type: 'TEXT', nullable: true, unique: false, list: { filter: true } });
  });
  project.write('mvc/entities/produit/produit.json', `${JSON.stringify(PRODUIT, null, 2)}\n`);
  const before = project.snapshot();
  assert.ok(before[`${C}/contact_base.ts`] && before['mvc/entities/produit/produit.json'] && !before['mvc/entities/produit/produit.sql']);
  const commands = [
    ['sync:entity', 'Contact'],
    ['sync:entity', 'Ville'],
    ['sync:entity', 'Produit', '--force'],
    ['sync:relations'],
    ['build:model'],
    ['build:model', '--dry-run'],
    ['build:model', '--force'],
    ['db:apply'],
    ['migration:make', 'creation', '--from-entities'],
    ['migration:make', 'creation', '--from-entity', 'Ville'],
  ];
  for (const args of commands) {
    const run = project.run(args);
    assert.is(run.status, 1, `fw ${args.join(' ')}`);
    assert.is(run.stdout, '', `fw ${args.join(' ')}`);
    assertProblemLines(run.stderr);
    assert.equal(lines(run.stderr).slice(PROBLEMS.length), [
      "Erreur : 3 erreurs dans les définitions d'entités : aucun fichier n'a été écrit.",
      'Conseil : corrigez les fichiers indiqués puis relancez la commande (« fw check:model » vérifie sans rien écrire).',
    ]);
    assert.equal(project.snapshot(), before, `fw ${args.join(' ')} changed the project`);
  }
});

test('check:model: exit 1 with the problems, then Erreur and Conseil, on stderr; --json lists them; exit 0 once fixed', () => {
  const before = project.snapshot();
  const text = project.run(['check:model']);
  assert.is(text.status, 1);
  assert.is(text.stdout, '');
  assertProblemLines(text.stderr);
  assert.equal(lines(text.stderr).slice(PROBLEMS.length), [
    "Erreur : 3 erreurs dans les définitions d'entités.",
    'Conseil : corrigez les fichiers indiqués (fichier#pointeur JSON) puis relancez « fw check:model ».',
  ]);

  const json = project.run(['check:model', '--json']);
  assert.is(json.status, 1);
  const parsed = JSON.parse(json.stdout) as { ok: boolean; entities: string[]; relations: string[]; diagnostics: Array<Record<string, string>> };
  assert.equal(
    { ...parsed, diagnostics: parsed.diagnostics.map((d) => [d.file, d.pointer, d.code]) },
    { ok: false, entities: [], relations: [], diagnostics: PROBLEMS.map((p) => [...p]) },
  );
  assert.ok(parsed.diagnostics.every((d) => typeof d.message === 'string' && d.message.length > 0));
  assert.equal(project.snapshot(), before);

  fs.rmSync(project.path('mvc/entities/produit'), { recursive: true });
  project.editJson<{ fields: Array<{ name: string }> }>(`${C}/contact.json`, (data) => {
    data.fields = data.fields.filter((f) => f.name !== 'notes');
  });
  assert.equal(ok(['check:model']), ['OK : 2 entité(s), 1 relation(s), aucune erreur.']);
  const valid = project.run(['check:model', '--json']);
  assert.is(valid.status, 0);
  assert.equal(JSON.parse(valid.stdout), { ok: true, entities: ['Contact', 'Ville'], relations: ['contact_ville'], diagnostics: [] });
});

test.run();
