// The generated entity files, written by the writer into a fresh folder, type-check under `tsc --noEmit` with
// strict settings and no dependency at all, and a small program using them runs against SQLite.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyPlan, planWrites } from '../cli/writer.js';
import { modelFiles } from '../emitters/index.js';
import { fixtureModel } from './helpers/fixture-project.js';
import { runTsc } from './helpers/typecheck.js';

const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/** Stricter than the project template: the generated code must compile in any reasonable project. */
const STRICT = {
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  lib: ['ES2023'],
  strict: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noImplicitReturns: true,
  noImplicitOverride: true,
  noUncheckedIndexedAccess: true,
  noPropertyAccessFromIndexSignature: true,
  exactOptionalPropertyTypes: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  forceConsistentCasingInFileNames: true,
};

const USER_CONTACT = `import { ContactBase } from './contact_base.js';

export class Contact extends ContactBase {
  fullName(): string {
    return \`\${this.prenom} \${this.nom}\`;
  }
}
`;

const MAIN = `import fs from 'node:fs';
import Database from 'better-sqlite3';
import { Contact } from './mvc/entities/contact/index.js';
import { Ville } from './mvc/entities/ville/index.js';

const db = new Database(':memory:');
db.pragma('foreign_keys = ON');
for (const file of ['ville/ville', 'tag/tag', 'contact/contact', 'relations']) {
  db.exec(fs.readFileSync(\`mvc/entities/\${file}.sqlite.sql\`, 'utf8'));
}

function insert(table: string, row: Record<string, unknown>): number {
  const columns = Object.keys(row).filter((c) => c !== 'Id');
  const sql = \`INSERT INTO "\${table}" (\${columns.map((c) => \`"\${c}"\`).join(', ')}) VALUES (\${columns.map((c) => '@' + c).join(', ')})\`;
  return Number(db.prepare(sql).run(Object.fromEntries(columns.map((c) => [c, row[c]]))).lastInsertRowid);
}

const ville = new Ville({ nom: 'Lyon', code_postal: '69001' });
const villeId = insert(Ville.table, { ...ville.toRow() });

const draft = new Contact({ nom: ' ', email: 'jean@example.org', nb_visites: 1.5 });
const contact = new Contact({ nom: 'Dupont', prenom: 'Jean', email: 'jean@example.org', nb_visites: 3, actif: true, solde: '12.50', ville_id: villeId });
const id = insert(Contact.table, { ...contact.toRow() });

const row = db.prepare(\`SELECT * FROM "\${Contact.table}" WHERE "\${Contact.columns.id}" = ?\`).get(id) as Record<string, unknown>;
const loaded: Contact = Contact.fromRow(row);
console.log(JSON.stringify({
  fullName: loaded.fullName(),
  isContact: loaded instanceof Contact,
  loaded: { ...loaded },
  draftErrors: draft.validate(),
  draftValid: draft.isValid(),
  loadedValid: loaded.isValid(),
}));
`;

let dir = '';

function tsc(config: string): { status: number | null; output: string } {
  const result = runTsc(dir, ['-p', path.join(dir, config)]);
  return { status: result.status, output: result.stdout + result.stderr };
}

// uvu reports a failing before() hook as 0 passed tests with exit code 0: the first test throws it instead.
let setupError: unknown;

test.before(() => {
  try {
    setup();
  } catch (error) {
    setupError = error;
  }
});

function setup(): void {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-generated-'));
  applyPlan(planWrites(dir, modelFiles(fixtureModel())));
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  // The entity files alone, with no type package at all: they import nothing.
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { ...STRICT, types: [], noEmit: true }, include: ['mvc/**/*.ts'] }, null, 2),
  );
  // The program: the entity files, Node and better-sqlite3 (linked from this repository).
  fs.writeFileSync(
    path.join(dir, 'tsconfig.app.json'),
    JSON.stringify({ compilerOptions: { ...STRICT, types: ['node'], outDir: 'dist', rootDir: '.' }, include: ['mvc/**/*.ts', 'main.ts'] }, null, 2),
  );
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(path.join(REPO, 'node_modules', 'better-sqlite3'), path.join(dir, 'node_modules', 'better-sqlite3'), 'dir');
  fs.symlinkSync(path.join(REPO, 'node_modules', '@types'), path.join(dir, 'node_modules', '@types'), 'dir');
}

test.after(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('the generated files are written into a fresh folder', () => {
  if (setupError) throw setupError;
});

test('the generated entity files type-check alone with tsc --noEmit (strict, NodeNext, no types)', () => {
  const { status, output } = tsc('tsconfig.json');
  assert.is(status, 0, output);
});

test('the check is real: a type error in a generated folder fails it', () => {
  const bad = path.join(dir, 'mvc', 'entities', 'contact', 'bad.ts');
  fs.writeFileSync(bad, "import { Contact } from './contact.js';\nexport const c: Contact = Contact.fromRow({});\nc.nom = 3;\n");
  try {
    const { status, output } = tsc('tsconfig.json');
    assert.is.not(status, 0);
    assert.match(output, /bad\.ts.*TS2322/);
  } finally {
    fs.rmSync(bad);
  }
});

test('the user edits contact.ts; regenerating skips it and changes nothing else', () => {
  fs.writeFileSync(path.join(dir, 'mvc/entities/contact/contact.ts'), USER_CONTACT);
  const plan = planWrites(dir, modelFiles(fixtureModel()));
  const changed = plan.entries.filter((e) => e.fate !== 'unchanged').map((e) => [e.path, e.fate]);
  assert.equal(changed, [['mvc/entities/contact/contact.ts', 'skipped']]);
  applyPlan(plan);
  assert.is(fs.readFileSync(path.join(dir, 'mvc/entities/contact/contact.ts'), 'utf8'), USER_CONTACT);
});

test('a program using Contact.fromRow, toRow and validate compiles and runs against SQLite', () => {
  fs.writeFileSync(path.join(dir, 'main.ts'), MAIN);
  const compiled = tsc('tsconfig.app.json');
  assert.is(compiled.status, 0, compiled.output);
  const run = spawnSync(process.execPath, [path.join(dir, 'dist', 'main.js')], { cwd: dir, encoding: 'utf8' });
  assert.is(run.status, 0, run.stderr);
  const out = JSON.parse(run.stdout) as Record<string, unknown>;
  assert.equal(out, {
    fullName: 'Jean Dupont',
    isContact: true,
    loaded: {
      id: 1,
      nom: 'Dupont',
      prenom: 'Jean',
      email: 'jean@example.org',
      telephone: null,
      date_naissance: null,
      // DECIMAL is TEXT in SQLite and read at its declared scale: '12.50', as on MariaDB.
      solde: '12.50',
      nb_visites: 3,
      actif: true,
      ville_id: 1,
    },
    draftErrors: {
      nom: 'Le champ « Nom » ne peut pas être vide.',
      prenom: 'Le champ « Prenom » est obligatoire.',
      nb_visites: 'Le champ « Nb visites » doit être un nombre entier.',
    },
    draftValid: false,
    loadedValid: true,
  });
});

test.run();
