/**
 * Field names taken by the generated base class (`validate`, `constructor`…) are refused by the compiler with
 * their file, JSON pointer and a French message, instead of passing and breaking `build:model` later; the same
 * names stay legal where they do not become class members (pivot fields, columns).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSources, type CompileResult } from '../compiler/index.js';
import { lines, newProject } from './helpers/cli.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- definition documents are edited freely in the cases */
type Doc = Record<string, any>;

const NOTE = 'mvc/entities/note/note.json';
const TAG = 'mvc/entities/tag/tag.json';
const RELATIONS = 'mvc/entities/relations.json';

function files(): Record<string, Doc> {
  return {
    [NOTE]: {
      format_version: 1,
      entity: 'Note',
      table: 'notes',
      primary_key: { name: 'id', sql_type: 'INT' },
      fields: [{ name: 'titre', sql_type: 'VARCHAR(100)' }],
    },
    [TAG]: {
      format_version: 1,
      entity: 'Tag',
      table: 'tags',
      primary_key: { name: 'id', sql_type: 'INT' },
      fields: [{ name: 'libelle', sql_type: 'VARCHAR(50)' }],
    },
    [RELATIONS]: {
      format_version: 1,
      relations: [{ name: 'note_tag', type: 'many_to_many', from_entity: 'Note', from_field: 'id', to_entity: 'Tag', to_field: 'id' }],
    },
  };
}

function compile(docs: Record<string, Doc>): CompileResult {
  return compileSources(Object.entries(docs).map(([file, doc]) => ({ file, text: JSON.stringify(doc, null, 2) })));
}

const Names = suite('compiler-diagnostics-names: names of the generated class');

const cases: Array<{ name: string; edit: (docs: Record<string, Doc>) => void; pointer: string; says: string[] }> = [
  {
    name: 'a field named validate',
    edit: (d) => d[NOTE]!.fields.push({ name: 'validate', sql_type: 'BOOLEAN' }),
    pointer: '#/fields/1/name',
    says: ['champ « validate »', 'la méthode validate() de la classe générée (mvc/entities/note/note_base.ts)', 'renommez le champ', '« validate_valeur »'],
  },
  {
    name: 'a field named constructor',
    edit: (d) => d[NOTE]!.fields.push({ name: 'constructor', sql_type: 'VARCHAR(50)', nullable: true }),
    pointer: '#/fields/1/name',
    says: ['champ « constructor »', 'le constructeur de la classe générée (mvc/entities/note/note_base.ts)'],
  },
  {
    name: 'a primary key named constructor',
    edit: (d) => {
      d[NOTE]!.primary_key.name = 'constructor';
      d[RELATIONS]!.relations[0].from_field = 'constructor';
    },
    pointer: '#/primary_key/name',
    says: ['clé primaire « constructor »', 'le constructeur'],
  },
  {
    name: 'a field with primary_key: true named validate',
    edit: (d) => {
      delete d[TAG]!.primary_key;
      d[TAG]!.fields.unshift({ name: 'validate', sql_type: 'INT', primary_key: true });
      d[RELATIONS]!.relations[0].to_field = 'validate';
    },
    pointer: '#/fields/0/name',
    says: ['champ « validate »', 'mvc/entities/tag/tag_base.ts'],
  },
];

for (const c of cases) {
  Names(`${c.name}: refused with file, pointer and message`, () => {
    const docs = files();
    c.edit(docs);
    const result = compile(docs);
    assert.is(result.model, null);
    const described = result.diagnostics.map((d) => `${d.file}${d.pointer} [${d.code}] ${d.message}`).join('\n');
    assert.is(result.diagnostics.length, 1, described);
    const [found] = result.diagnostics;
    assert.is(`${found!.file}${found!.pointer}`, `${c.pointer.startsWith('#/fields/0') ? TAG : NOTE}${c.pointer}`, described);
    assert.is(found!.code, 'member_name');
    for (const part of c.says) assert.ok(found!.message.includes(part), `« ${found!.message} » should contain « ${part} »`);
  });
}

Names('the same names are legal as a pivot field, and as a column (sql) of another field', () => {
  const docs = files();
  docs[RELATIONS]!.relations[0].pivot_fields = [{ name: 'validate', sql_type: 'BOOLEAN', nullable: true }];
  docs[NOTE]!.fields.push({ name: 'valide', sql: 'Validate', sql_type: 'BOOLEAN' });
  const result = compile(docs);
  assert.equal(result.diagnostics, []);
  assert.ok(result.model);
});

Names('relations: from_entity and to_entity follow the entity name rule (64 characters at most), like the fields', () => {
  const docs = files();
  const long = `N${'o'.repeat(64)}`;
  Object.assign(docs[RELATIONS]!.relations[0], { from_entity: long, to_field: `t${'a'.repeat(64)}` });
  const result = compile(docs);
  const lengths = result.diagnostics.filter((d) => d.code === 'identifier_length').map((d) => `${d.file}${d.pointer} ${d.message}`);
  assert.equal(lengths, [
    `${RELATIONS}#/relations/0/from_entity « from_entity » compte 65 caractères, 64 au plus (limite des identifiants MariaDB) : raccourcissez-le`,
    `${RELATIONS}#/relations/0/to_field « to_field » compte 65 caractères, 64 au plus (limite des identifiants MariaDB) : raccourcissez-le`,
  ]);
});

Names('fw build:model: the [ERREUR] line names the file and pointer, and nothing is written', async () => {
  const project = newProject('Noms');
  try {
    const made = project.run(['make:entity', 'Note', '--no-input']);
    assert.is(made.status, 0, made.stderr);
    project.editJson<{ fields: unknown[] }>('mvc/entities/note/note.json', (data) => data.fields.push({ name: 'validate', sql_type: 'BOOLEAN' }));
    const before = project.snapshot();
    const run = project.run(['build:model']);
    assert.is(run.status, 1);
    assert.is(run.stdout, '');
    const first = lines(run.stderr)[0]!;
    assert.ok(first.startsWith('[ERREUR] mvc/entities/note/note.json#/fields/1/name : champ « validate » : ce nom est pris par la méthode validate()'), first);
    assert.match(run.stderr, /\nErreur : .*\nConseil : /);
    assert.equal(project.snapshot(), before);
  } finally {
    await project.cleanup();
  }
});

Names.run();
