/**
 * `fw upload:init`, `fw media:init` and `fw db:apply` with the media table, as real processes in a project made by
 * `fw new`: the folders (idempotent, UPLOAD_ROOT honoured, a link leading out refused), the two SQL files, the table
 * with its index on SQLite and MariaDB, and a missing media file refused by db:apply with nothing applied.
 */
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mediaSqlContent, mediaSqlPath } from '../emitters/media/sql-files.js';
import { fateLine, lines, newProject, readSchema, type CliProject } from './helpers/cli.js';
import { DIALECTS } from './helpers/dialects.js';

const FOLDERS = ['images', 'images/medium', 'images/thumbnail', 'documents', 'tmp'];

const folders = suite('fw upload:init');
let project: CliProject;
folders.before(() => {
  project = newProject('Depots');
  project.useSqlite();
});
folders.after(async () => {
  await project?.cleanup();
});

folders('creates the upload root and its five folders, then says there is nothing to do', () => {
  const dry = project.run(['upload:init', '--dry-run']);
  assert.is(dry.status, 0, dry.stderr);
  assert.not.ok(project.exists('storage/uploads/images'), 'dry run creates nothing');
  const first = project.run(['upload:init']);
  assert.is(first.status, 0, first.stderr);
  const out = lines(first.stdout);
  assert.is(out[0], 'Dossiers de dépôt :');
  assert.is(out[1], fateLine('inchangé', 'storage/uploads/'), 'the template already has the root');
  assert.equal(
    out.slice(2, 7),
    FOLDERS.map((dir) => fateLine('créé', `storage/uploads/${dir}/`)),
  );
  assert.match(out[7]!, /^5 dossier\(s\) créé\(s\)\./);
  for (const dir of FOLDERS) {
    const stat = fs.statSync(project.path(`storage/uploads/${dir}`));
    assert.ok(stat.isDirectory(), dir);
    assert.is(stat.mode & 0o777 & ~0o750, 0, `${dir} mode`);
  }
  const second = project.run(['upload:init']);
  assert.is(second.status, 0);
  assert.equal(
    lines(second.stdout).slice(1, 7),
    ['.', ...FOLDERS].map((dir) => fateLine('inchangé', `storage/uploads/${dir === '.' ? '' : `${dir}/`}`)),
  );
  assert.is(lines(second.stdout).at(-1), 'Rien à faire : les dossiers de dépôt existent déjà.');
});

folders('UPLOAD_ROOT from env/dev moves the root; a folder that is a link leading out is refused', () => {
  project.write('env/dev', `${project.read('env/dev').trimEnd()}\nUPLOAD_ROOT=data/fichiers\n`);
  const run = project.run(['upload:init']);
  assert.is(run.status, 0, run.stderr);
  assert.is(lines(run.stdout)[1], fateLine('créé', 'data/fichiers/'));
  for (const dir of FOLDERS) assert.ok(project.exists(`data/fichiers/${dir}`), dir);
  const outside = project.path('ailleurs');
  fs.mkdirSync(outside);
  fs.rmSync(project.path('data/fichiers/documents'), { recursive: true });
  fs.symlinkSync(outside, project.path('data/fichiers/documents'));
  fs.rmSync(project.path('data/fichiers/tmp'), { recursive: true });
  const refused = project.run(['upload:init']);
  assert.is(refused.status, 1, refused.stdout);
  assert.match(
    refused.stderr,
    /^Erreur : Chemin de média refusé « documents » : son emplacement réel \(liens symboliques résolus\) sort du dossier des dépôts/,
  );
  assert.match(refused.stderr, /\nConseil : vérifiez les droits et les liens symboliques du dossier des dépôts \(UPLOAD_ROOT\)/);
  assert.equal(fs.readdirSync(outside), []);
});

folders.run();

for (const dialect of DIALECTS) {
  const t = suite(`fw media:init and db:apply (${dialect})`);
  let p: CliProject;
  t.before(() => {
    p = newProject('Medias');
    p.useDialect(dialect);
  });
  t.after(async () => {
    await p?.cleanup();
  });

  t('media:init writes both SQL files and the image folders; a second run changes nothing', () => {
    const first = p.run(['media:init']);
    assert.is(first.status, 0, first.stderr);
    const out = lines(first.stdout);
    assert.ok(out.includes(fateLine('créé', 'mvc/models/sql/media/media.sql')), first.stdout);
    assert.ok(out.includes(fateLine('créé', 'mvc/models/sql/media/media.sqlite.sql')));
    for (const dir of ['images', 'images/medium', 'images/thumbnail']) assert.ok(out.includes(fateLine('créé', `storage/uploads/${dir}/`)), dir);
    assert.match(first.stdout, /Ensuite : « fw db:apply » crée la table media/);
    for (const d of DIALECTS) assert.is(p.read(mediaSqlPath(d)), mediaSqlContent(d));
    assert.match(p.read('mvc/models/sql/media/media.sql'), /^-- fw-mvc: generated file, do not edit \(regenerate with: fw media:init\)\n/);
    const second = p.run(['media:init']);
    assert.is(second.status, 0);
    assert.is(lines(second.stdout).at(-1), 'Rien à faire : les fichiers SQL de la table media et les dossiers des variantes sont déjà en place.');
  });

  t('db:apply creates the media table with its index on entity name and id; twice is harmless', async () => {
    if (dialect === 'mariadb') assert.is(p.run(['db:init']).status, 0);
    const dry = p.run(['db:apply', '--dry-run']);
    assert.ok(lines(dry.stdout).includes(`  ${mediaSqlPath(dialect)}`), dry.stdout);
    for (let i = 0; i < 2; i++) {
      const apply = p.run(['db:apply']);
      assert.is(apply.status, 0, apply.stdout + apply.stderr);
      assert.match(apply.stdout, new RegExp(`(appliqué|inchangé)\\s+${mediaSqlPath(dialect).replace(/\./g, '\\.')}`));
    }
    const schema = await readSchema(p);
    assert.equal(
      schema.tables.media?.map((c) => c.name),
      ['id', 'entity_name', 'entity_id', 'path', 'original_name', 'mime_type', 'size', 'role', 'position', 'alt_text', 'created_at'],
    );
    const indexes = schema.indexes
      .filter((i) => i.table === 'media')
      .map((i) => [i.name, i.unique, i.columns.join(',')])
      .sort();
    assert.equal(indexes, [
      ['ix_media_entity', false, 'entity_name,entity_id'],
      ['uq_media_path', true, 'path'],
    ]);
  });

  t('a media file missing for the dialect: db:apply refuses, advises media:init, applies nothing', async () => {
    const file = mediaSqlPath(dialect);
    const text = p.read(file);
    fs.rmSync(p.path(file));
    try {
      const run = p.run(['db:apply']);
      assert.is(run.status, 1);
      assert.is(
        run.stderr,
        `Erreur : fichier SQL de la table media absent ou périmé : ${file} (absent). Rien n'a été appliqué.\nConseil : lancez « fw media:init » puis relancez « fw db:apply ».\n`,
      );
      p.write(file, text.replace('DEFAULT 0', 'DEFAULT 1'));
      const stale = p.run(['db:apply']);
      assert.match(stale.stderr, `${file} (périmé)`);
    } finally {
      p.write(file, text);
    }
    assert.is(fs.existsSync(path.join(p.root, file)), true);
  });

  t.run();
}
