// A many-to-many from an entity to itself (docs/entities.md "Relations (`mvc/entities/relations.json`)"): a person's mentors and students, the two
// sides named by `from_name` / `to_name` (pivot columns MentorId and EleveId, form fields mentor_ids and eleve_ids,
// their labels), through the real CLI and a served application on SQLite and MariaDB; the project type-checks;
// without the names it is refused with the pointer and nothing written.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpClient, linkFramework, serveProject } from './helpers/crud-app.js';
import { rowIds } from './helpers/crud-html.js';
import { lines, newProject, readSchema, type CliProject } from './helpers/cli.js';
import { ID, ok, writeEntity } from './helpers/crud-cli-project.js';
import { query } from './helpers/migrations.js';
import type { DialectName } from '../runtime/db/index.js';
import { DIALECTS } from './helpers/dialects.js';
import { runTsc } from './helpers/typecheck.js';

const PERSONNE = { format_version: 1, entity: 'Personne', table: 'personnes', fields: [ID, { name: 'nom', sql_type: 'VARCHAR(60)' }] };
const MENTORAT = {
  name: 'mentorat',
  type: 'many_to_many',
  from_entity: 'Personne',
  from_field: 'id',
  to_entity: 'Personne',
  to_field: 'id',
  from_name: 'mentor',
  to_name: 'eleve',
  from_label: 'Mentors',
  to_label: 'Élèves',
};
const RELATIONS = 'mvc/entities/relations.json';

function build(dialect: DialectName): CliProject {
  const project = newProject('Ecole');
  try {
    project.useDialect(dialect);
    writeEntity(project, PERSONNE);
    project.write(RELATIONS, `${JSON.stringify({ format_version: 1, relations: [MENTORAT] }, null, 2)}\n`);
    ok(project, ['make:crud', 'Personne', '--public']);
    ok(project, ['sync:relations']);
    ok(project, ['db:init']);
    ok(project, ['db:apply']);
    linkFramework(project);
    return project;
  } catch (err) {
    void project.cleanup();
    throw err;
  }
}

async function serve<T>(project: CliProject, fn: (client: HttpClient) => Promise<T>): Promise<T> {
  const { url, child } = await serveProject(project);
  try {
    return await fn(new HttpClient(url));
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

async function links(project: CliProject): Promise<Array<[number, number]>> {
  const rows = await query<{ m: unknown; e: unknown }>(project, 'SELECT MentorId AS m, EleveId AS e FROM mentorat ORDER BY MentorId, EleveId');
  return rows.map((r) => [Number(r.m), Number(r.e)]);
}

for (const dialect of DIALECTS) {
  test(`${dialect}: mentors and students of a person, both sides in the form, saved in the pivot, shown on the detail page`, async () => {
    const project = build(dialect);
    try {
      const schema = await readSchema(project);
      assert.equal(
        schema.tables.mentorat!.map((c) => `${c.name} ${c.nullable ? 'NULL' : 'NOT NULL'}`),
        ['MentorId NOT NULL', 'EleveId NOT NULL'],
      );
      assert.equal(
        schema.foreignKeys
          .filter((fk) => fk.table === 'mentorat')
          .map((fk) => `${fk.column} → ${fk.refTable}.${fk.refColumn}`)
          .sort(),
        ['EleveId → personnes.Id', 'MentorId → personnes.Id'],
      );
      if (dialect === 'sqlite') {
        const tsc = runTsc(project.root, ['--noEmit', '-p', 'tsconfig.json']);
        assert.is(tsc.status, 0, tsc.stdout + tsc.stderr);
      }
      await serve(project, async (client) => {
        await client.csrfToken('/personnes/new');
        for (const nom of ['Ada', 'Grace', 'Alan']) assert.is((await client.post('/personnes', [['nom', nom]])).status, 302);
        const form = (await client.get('/personnes/new')).text;
        assert.match(form, /<label for="field-mentor_ids"[^>]*>Mentors<\/label>/);
        assert.match(form, /<label for="field-eleve_ids"[^>]*>Élèves<\/label>/);
        assert.match(form, /<select id="field-mentor_ids" name="mentor_ids" multiple/);
        assert.match(form, /<select id="field-eleve_ids" name="eleve_ids" multiple/);

        // Barbara (4): Ada (1) is her mentor, Alan (3) her student.
        const created = await client.post('/personnes', [
          ['nom', 'Barbara'],
          ['mentor_ids', '1'],
          ['eleve_ids', '3'],
        ]);
        assert.is(created.status, 302, created.text);
        assert.equal(await links(project), [
          [1, 4],
          [4, 3],
        ]);
        const show = (await client.get('/personnes/4')).text;
        assert.match(show, /<dt[^>]*>Mentors<\/dt>\s*<dd[^>]*>Ada<\/dd>/);
        assert.match(show, /<dt[^>]*>Élèves<\/dt>\s*<dd[^>]*>Alan<\/dd>/);
        // The list page filters by each side: the people whose students include Alan (3), whose mentors include Ada (1).
        const list = await client.get('/personnes');
        assert.is(list.status, 200);
        assert.equal(rowIds((await client.get('/personnes?eleve_ids=3')).text), [4]);
        assert.equal(rowIds((await client.get('/personnes?mentor_ids=1')).text), [4]);
        // Seen from Ada: Barbara is her student.
        const ada = (await client.get('/personnes/1')).text;
        assert.match(ada, /<dt[^>]*>Élèves<\/dt>\s*<dd[^>]*>Barbara<\/dd>/);

        // Editing Barbara: Grace (2) becomes a second mentor, Alan stays her student.
        const edit = (await client.get('/personnes/4/edit')).text;
        assert.match(edit, /<select id="field-mentor_ids"[\s\S]*?<option value="1" selected>Ada<\/option>/);
        const updated = await client.post('/personnes/4', [
          ['nom', 'Barbara'],
          ['mentor_ids', '1'],
          ['mentor_ids', '2'],
          ['eleve_ids', '3'],
        ]);
        assert.is(updated.status, 302, updated.text);
        assert.equal(await links(project), [
          [1, 4],
          [2, 4],
          [4, 3],
        ]);
        // Deleting Barbara removes her links on both sides (CASCADE by default).
        assert.is((await client.post('/personnes/4/delete', [])).status, 302);
        assert.equal(await links(project), []);
      });
    } finally {
      await project.cleanup();
    }
  });
}

test('without from_name / to_name the relation is refused with its pointer, nothing written', async () => {
  const project = newProject('Ecole');
  try {
    writeEntity(project, PERSONNE);
    const { from_name: _f, to_name: _t, from_label: _fl, to_label: _tl, ...unnamed } = MENTORAT;
    project.write(RELATIONS, `${JSON.stringify({ format_version: 1, relations: [unnamed] }, null, 2)}\n`);
    const before = project.snapshot();
    const run = project.run(['build:model']);
    assert.is(run.status, 1, run.stdout);
    const line = lines(run.stderr).find((l) => l.includes(`${RELATIONS}#/relations/0 `));
    assert.ok(line, run.stderr);
    assert.match(line!, /nommez ses deux côtés avec « from_name » et « to_name »/);
    assert.match(run.stderr, /^Erreur : /m);
    assert.equal(project.snapshot(), before);

    // The same names on both sides are refused too.
    project.write(RELATIONS, `${JSON.stringify({ format_version: 1, relations: [{ ...MENTORAT, to_name: 'mentor' }] }, null, 2)}\n`);
    const same = project.run(['check:model']);
    assert.is(same.status, 1);
    assert.match(same.stderr, /relations\.json#\/relations\/0\/to_name : « from_name » et « to_name » valent tous deux « mentor »/);
  } finally {
    await project.cleanup();
  }
});

test.run();
