// The writer: each fate, the dry run, force, refused paths, and the all-or-nothing apply (a failure in the
// middle leaves the disk byte for byte as it was).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CliError } from '../cli/errors.js';
import { applyPlan, formatPlan, planWrites, type Fate, type WritePlan } from '../cli/writer.js';
import { GENERATED_MARKER, type PlannedFile } from '../emitters/index.js';

const MARK = `-- ${GENERATED_MARKER} (regenerate with: fw sync:entity Contact)`;

let root = '';
test.before.each(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-writer-'));
});
test.after.each(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function put(file: string, content: string): void {
  const target = path.join(root, file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, content);
}

function read(file: string): string {
  return fs.readFileSync(path.join(root, file), 'utf8');
}

/** Every file and folder under the root with its bytes: the "disk as it was". */
function tree(dir = root): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const rel = path.relative(root, full).split(path.sep).join('/');
    if (entry.isDirectory()) Object.assign(out, { [`${rel}/`]: '<dir>' }, tree(full));
    else out[rel] = fs.readFileSync(full, 'latin1');
  }
  return out;
}

function fates(plan: WritePlan): Array<[string, Fate]> {
  return plan.entries.map((e) => [e.path, e.fate]);
}

const regen = (p: string, body: string): PlannedFile => ({ path: p, content: `${MARK}\n${body}\n`, kind: 'regenerable' });
const manual = (p: string, body: string): PlannedFile => ({ path: p, content: body, kind: 'manual' });

// --- fates ------------------------------------------------------------------------------------------------------

const fateCases: Array<{
  name: string;
  disk: Record<string, string>;
  file: PlannedFile;
  force?: boolean;
  forceManual?: boolean;
  fate: Fate;
  reason?: RegExp;
  after: string;
}> = [
  { name: 'absent: created', disk: {}, file: regen('mvc/a.sql', 'v2'), fate: 'created', after: `${MARK}\nv2\n` },
  { name: 'same bytes: unchanged', disk: { 'mvc/a.sql': `${MARK}\nv2\n` }, file: regen('mvc/a.sql', 'v2'), fate: 'unchanged', after: `${MARK}\nv2\n` },
  {
    name: 'regenerable with its marker: updated',
    disk: { 'mvc/a.sql': `${MARK}\nv1\n` },
    file: regen('mvc/a.sql', 'v2'),
    fate: 'updated',
    after: `${MARK}\nv2\n`,
  },
  {
    name: "regenerable whose marker line was removed: skipped, the file is the user's",
    disk: { 'mvc/a.sql': 'my own version\n' },
    file: regen('mvc/a.sql', 'v2'),
    fate: 'skipped',
    reason: /retirée.*--force/,
    after: 'my own version\n',
  },
  {
    name: 'marker removed and force: forced',
    disk: { 'mvc/a.sql': 'my own version\n' },
    file: regen('mvc/a.sql', 'v2'),
    force: true,
    fate: 'forced',
    reason: /--force/,
    after: `${MARK}\nv2\n`,
  },
  { name: 'manual, absent: created', disk: {}, file: manual('mvc/c.ts', 'class C {}\n'), fate: 'created', after: 'class C {}\n' },
  {
    name: 'manual, existing: skipped',
    disk: { 'mvc/c.ts': 'class C { mine() {} }\n' },
    file: manual('mvc/c.ts', 'class C {}\n'),
    fate: 'skipped',
    reason: /manuel/,
    after: 'class C { mine() {} }\n',
  },
  {
    name: 'manual, existing, even with force: skipped (never overwritten)',
    disk: { 'mvc/c.ts': 'class C { mine() {} }\n' },
    file: manual('mvc/c.ts', 'class C {}\n'),
    force: true,
    fate: 'skipped',
    reason: /manuel/,
    after: 'class C { mine() {} }\n',
  },
  {
    name: 'manual, existing, force and forceManual (fw starter:build --force): forced',
    disk: { 'mvc/c.ts': 'class C { mine() {} }\n' },
    file: manual('mvc/c.ts', 'class C {}\n'),
    force: true,
    forceManual: true,
    fate: 'forced',
    reason: /^fichier modifié, réécrit à cause de --force$/,
    after: 'class C {}\n',
  },
  {
    name: 'manual, existing, forceManual without force: skipped',
    disk: { 'mvc/c.ts': 'class C { mine() {} }\n' },
    file: manual('mvc/c.ts', 'class C {}\n'),
    forceManual: true,
    fate: 'skipped',
    reason: /manuel/,
    after: 'class C { mine() {} }\n',
  },
  {
    name: 'manual, same bytes: unchanged',
    disk: { 'mvc/c.ts': 'class C {}\n' },
    file: manual('mvc/c.ts', 'class C {}\n'),
    fate: 'unchanged',
    after: 'class C {}\n',
  },
  {
    name: 'canonical, differs: updated without marker',
    disk: { 'mvc/r.json': '{}\n' },
    file: { path: 'mvc/r.json', content: '{"a":1}\n', kind: 'canonical' },
    fate: 'updated',
    after: '{"a":1}\n',
  },
  {
    name: 'marker kept with CRLF line endings: updated',
    disk: { 'mvc/a.sql': `${MARK}\r\nv1\r\n` },
    file: regen('mvc/a.sql', 'v2'),
    fate: 'updated',
    after: `${MARK}\nv2\n`,
  },
];

for (const c of fateCases) {
  test(`fate: ${c.name}`, () => {
    for (const [file, content] of Object.entries(c.disk)) put(file, content);
    const before = tree();
    const plan = planWrites(root, [c.file], { force: c.force ?? false, forceManual: c.forceManual ?? false });
    assert.equal(tree(), before, 'planning writes nothing');
    assert.equal(fates(plan), [[c.file.path, c.fate]]);
    if (c.reason) assert.match(plan.entries[0]?.reason ?? '', c.reason);
    else assert.is(plan.entries[0]?.reason, undefined);
    applyPlan(plan);
    assert.is(read(c.file.path), c.after);
    assert.equal(
      Object.keys(tree()).filter((f) => f.includes('.fw-')),
      [],
      'no temporary or backup file left',
    );
  });
}

test('a second run of the same plan finds everything unchanged', () => {
  const files = [regen('mvc/entities/contact/contact.sql', 'x'), manual('mvc/entities/contact/contact.ts', 'y\n')];
  applyPlan(planWrites(root, files));
  assert.equal(fates(planWrites(root, files)), [
    ['mvc/entities/contact/contact.sql', 'unchanged'],
    ['mvc/entities/contact/contact.ts', 'unchanged'],
  ]);
});

test('an updated file keeps its permissions', () => {
  put('bin/run.sql', `${MARK}\nold\n`);
  fs.chmodSync(path.join(root, 'bin/run.sql'), 0o751);
  applyPlan(planWrites(root, [regen('bin/run.sql', 'new')]));
  assert.is(fs.statSync(path.join(root, 'bin/run.sql')).mode & 0o777, 0o751);
});

// --- dry run and output -----------------------------------------------------------------------------------------

test('dry run: planning and formatting write nothing; the output says so', () => {
  put('mvc/entities/contact/contact.sql', `${MARK}\nold\n`);
  put('mvc/entities/contact/contact.ts', 'mine\n');
  const before = tree();
  const plan = planWrites(root, [
    regen('mvc/entities/contact/contact.sql', 'new'),
    manual('mvc/entities/contact/contact.ts', 'x\n'),
    regen('mvc/entities/relations.sql', 'r'),
  ]);
  const text = formatPlan(plan, { dryRun: true });
  assert.equal(tree(), before);
  assert.equal(text.split('\n'), [
    "Simulation (--dry-run) : aucun fichier n'est écrit.",
    '  mis à jour  mvc/entities/contact/contact.sql',
    '  ignoré      mvc/entities/contact/contact.ts (fichier manuel : jamais réécrit)',
    '  créé        mvc/entities/relations.sql',
    'Résumé (simulation) : 1 créé, 1 mis à jour, 1 ignoré.',
    '',
  ]);
});

test('formatPlan: one line per file, labels padded, plural summary', () => {
  put('a/same.sql', `${MARK}\ns\n`);
  put('a/old.sql', 'user took it\n');
  const plan = planWrites(root, [regen('a/one.sql', '1'), regen('a/two.sql', '2'), regen('a/same.sql', 's'), regen('a/old.sql', 'o')], { force: true });
  assert.equal(formatPlan(plan, { dryRun: false }).split('\n'), [
    '  créé        a/one.sql',
    '  créé        a/two.sql',
    '  inchangé    a/same.sql',
    '  écrasé      a/old.sql (ligne « fw-mvc: generated file » retirée, réécrit à cause de --force)',
    'Résumé : 2 créés, 1 écrasé, 1 inchangé.',
    '',
  ]);
  assert.is(formatPlan(planWrites(root, []), { dryRun: false }), 'Résumé : aucun fichier.\n');
});

// --- refused paths ----------------------------------------------------------------------------------------------

const refusedPaths = ['../outside.sql', 'mvc/../../outside.sql', '/etc/passwd', 'C:/x.sql', 'mvc\\x.sql', '', 'mvc//x.sql', './x.sql', 'mvc/.'];
for (const bad of refusedPaths) {
  test(`refused path: ${JSON.stringify(bad)}`, () => {
    assert.throws(
      () => planWrites(root, [regen('ok.sql', 'x'), regen(bad, 'x')]),
      (e: unknown) => e instanceof CliError && /chemin refusé/.test(e.message),
    );
    assert.equal(tree(), {});
  });
}

test('a symbolic link that leads out of the root is refused', () => {
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-writer-outside-'));
  try {
    fs.symlinkSync(outside, path.join(root, 'mvc'), 'dir');
    assert.throws(
      () => planWrites(root, [regen('mvc/x.sql', 'x')]),
      (e: unknown) => e instanceof CliError && /hors du projet/.test(e.message),
    );
    assert.equal(fs.readdirSync(outside), []);
  } finally {
    fs.rmSync(outside, { recursive: true, force: true });
  }
});

test('a target that is a folder is refused at planning, nothing written', () => {
  fs.mkdirSync(path.join(root, 'mvc/a.sql'), { recursive: true });
  assert.throws(
    () => planWrites(root, [regen('mvc/b.sql', 'b'), regen('mvc/a.sql', 'a')]),
    (e: unknown) => e instanceof CliError && /un dossier/.test(e.message),
  );
  assert.equal(tree(), { 'mvc/': '<dir>', 'mvc/a.sql/': '<dir>' });
});

test('a path through a file is refused at planning', () => {
  put('mvc', 'not a folder\n');
  assert.throws(
    () => planWrites(root, [regen('mvc/a.sql', 'a')]),
    (e: unknown) => e instanceof CliError && /pas un dossier/.test(e.message),
  );
});

test('the same path twice: once if identical, refused if different', () => {
  const plan = planWrites(root, [regen('a.sql', 'x'), regen('a.sql', 'x')]);
  assert.equal(fates(plan), [['a.sql', 'created']]);
  assert.throws(
    () => planWrites(root, [regen('a.sql', 'x'), regen('a.sql', 'y')]),
    (e: unknown) => e instanceof CliError && /deux contenus/.test(e.message),
  );
});

// --- all or nothing ---------------------------------------------------------------------------------------------

test('a failure while renaming restores every file already replaced and removes the created ones', () => {
  put('mvc/entities/contact/contact.sql', `${MARK}\nold contact\n`);
  put('mvc/entities/contact/contact_base.ts', `${MARK}\nold base\n`);
  put('mvc/entities/contact/contact.ts', 'user code\n');
  const before = tree();
  const plan = planWrites(root, [
    regen('mvc/entities/contact/contact.sql', 'new contact'),
    regen('mvc/entities/contact/contact_base.ts', 'new base'),
    regen('mvc/entities/ville/ville.sql', 'new ville'),
    manual('mvc/entities/contact/contact.ts', 'template\n'),
    regen('mvc/entities/tag/tag.sql', 'new tag'),
  ]);
  assert.equal(
    fates(plan).map(([, f]) => f),
    ['updated', 'updated', 'created', 'skipped', 'created'],
  );
  // The last target becomes a folder after planning: its rename fails once the others are in place.
  fs.mkdirSync(path.join(root, 'mvc/entities/tag/tag.sql'), { recursive: true });
  const during = tree();
  assert.throws(
    () => applyPlan(plan),
    (e: unknown) => e instanceof CliError && /mvc\/entities\/tag\/tag\.sql/.test(e.message) && /aucun fichier n'a été modifié/.test(e.advice ?? ''),
  );
  assert.equal(tree(), during, 'the disk is as it was before applyPlan');
  assert.equal(Object.fromEntries(Object.entries(tree()).filter(([f]) => !f.startsWith('mvc/entities/tag'))), before);
});

test('a failure while writing the temporary files removes them and the folders made for them', () => {
  put('mvc/entities/contact/contact.sql', `${MARK}\nold\n`);
  const plan = planWrites(root, [
    regen('mvc/entities/contact/contact.sql', 'new'),
    regen('mvc/entities/ville/ville.sql', 'v'),
    regen('mvc/entities/tag/deep/tag.sql', 't'),
  ]);
  // A file now stands where a folder has to be made.
  put('mvc/entities/tag', 'in the way\n');
  const before = tree();
  assert.throws(
    () => applyPlan(plan),
    (e: unknown) => e instanceof CliError && /tag\/deep\/tag\.sql/.test(e.message),
  );
  assert.equal(tree(), before);
});

test('a file that appeared after planning is not replaced', () => {
  const plan = planWrites(root, [regen('a.sql', 'generated')]);
  put('a.sql', 'written meanwhile\n');
  assert.throws(
    () => applyPlan(plan),
    (e: unknown) => e instanceof CliError && /absent au moment du plan/.test(e.message),
  );
  assert.is(read('a.sql'), 'written meanwhile\n');
  assert.equal(Object.keys(tree()), ['a.sql']);
});

test.run();
