// The stub files of the CRUD's manual files (emitters/crud/stubs/, docs/decisions.md "The CRUD in the runtime"): the
// renderer's few rules, table-driven; a stub that names a value its emitter does not give is refused; the stubs ship
// in the package `fw new` puts in vendor/, so that an installed fw finds them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { packageFiles } from '../cli/package-tarball.js';
import { frameworkPackages } from '../cli/framework-packages.js';
import { crudStubsDir, readCrudStubs } from '../cli/stubs.js';
import { CRUD_STUBS, crudFiles, planCrud } from '../emitters/crud/index.js';
import { stubValues } from '../emitters/crud/manual.js';
import { StubError, renderStub } from '../emitters/stub.js';
import { REPO } from './helpers/cli.js';
import { fixtureModel } from './helpers/fixture-project.js';

const CASES: Array<{ name: string; text: string; values: Record<string, string | boolean>; want: string }> = [
  { name: 'a value', text: 'class <%= Name %>Controller {}', values: { Name: 'Contact' }, want: 'class ContactController {}' },
  { name: 'two on a line', text: "from '../<%= a %>/<%= b %>.js'", values: { a: 'models', b: 'contact_crud' }, want: "from '../models/contact_crud.js'" },
  { name: 'a kept part, its tag lines gone', text: 'a\n<% if media %>\nb\n<% end %>\nc', values: { media: true }, want: 'a\nb\nc' },
  { name: 'a dropped part', text: 'a\n<% if media %>\nb\n<% end %>\nc', values: { media: false }, want: 'a\nc' },
  { name: 'else', text: '<% if media %>\nm\n<% else %>\nplain\n<% end %>', values: { media: false }, want: 'plain' },
  { name: 'not', text: '<% if not media %>\nplain\n<% end %>', values: { media: false }, want: 'plain' },
  { name: 'nested', text: '<% if a %>\n<% if b %>\nab\n<% end %>\na\n<% end %>', values: { a: true, b: false }, want: 'a' },
  { name: 'nunjucks and ${} left alone', text: '{{ row.id }} {% if x %}${y}{% endif %}', values: {}, want: '{{ row.id }} {% if x %}${y}{% endif %}' },
  { name: 'the last newline kept', text: 'x\n', values: {}, want: 'x\n' },
];

test('the renderer: values in place, parts kept or dropped with their tag lines, nothing else touched', () => {
  for (const c of CASES) assert.is(renderStub('t', c.text, c.values), c.want, c.name);
});

test('a stub that does not fit its values is refused, naming the stub and the line', () => {
  const refused: Array<[string, Record<string, string | boolean>, RegExp]> = [
    ['<%= missing %>', {}, /stub t, ligne 1 : la valeur « missing » manque/],
    ['<% if flag %>\nx', { flag: true }, /un « if » n'a pas de « end »/],
    ['x\n<% end %>', {}, /ligne 2 : « end » sans « if »/],
    ['<% if name %>\n<% end %>', { name: 'text' }, /« name » n'est pas une condition \(un texte\)/],
    ['a <% if x %> b', { x: true }, /« <% if x %> » doit être seul sur sa ligne/],
  ];
  for (const [text, values, message] of refused) {
    assert.throws(
      () => renderStub('t', text, values),
      (err: unknown) => err instanceof StubError && message.test(err.message),
      text,
    );
  }
});

test('every CRUD stub renders for the fixture entities, every name it writes given by the emitter', () => {
  const stubs = readCrudStubs();
  assert.equal(Object.keys(stubs).sort(), [...CRUD_STUBS].sort());
  for (const entity of ['Contact', 'Ville', 'Tag']) {
    for (const media of [false, true]) {
      const plan = planCrud(fixtureModel(), entity, { media });
      const files = crudFiles(plan, stubs);
      for (const file of files.filter((f) => f.kind === 'manual')) assert.not.match(file.content, /<%/, file.path);
      // A name of the values that no stub writes would be a value for nothing.
      const written = Object.values(stubs).join('\n');
      for (const name of Object.keys(stubValues(plan))) assert.ok(written.includes(`<%= ${name} %>`) || written.includes(`if ${name} %>`), name);
    }
  }
});

test('the stubs are in the CLI package npm pack makes (the vendor/ tarball of fw new)', () => {
  const packed = packageFiles(REPO, JSON.parse(frameworkPackages(REPO).cli.manifest));
  for (const name of CRUD_STUBS) assert.ok(packed.includes(`emitters/crud/stubs/${name}.stub`), name);
  assert.ok(crudStubsDir().startsWith(REPO));
});

test.run();
