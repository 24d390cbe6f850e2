/**
 * docs/architecture.md "What may import what", checked on the sources of compiler/, emitters/, cli/ and runtime/:
 * the rules of each folder, the runtime's numbered layers (read from the page itself, so that the page and this
 * test cannot drift apart: every runtime file must belong to one of them), no import cycle in the runtime, emitters
 * that never touch the disk, and a `fw` command whose entry loads only the command table. Each failure names the
 * file, the line, the import and the rule it breaks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { importCycles, importGraph, sourceFiles, staticClosure, type ImportEdge } from './helpers/import-graph.js';
import { REPO } from './helpers/cli.js';

const t = suite('architecture-imports');

const DOC = 'docs/architecture.md';
const SECTION = 'What may import what';
const FILES = sourceFiles(REPO, ['compiler', 'emitters', 'cli', 'runtime'], ['cli/templates']);
const GRAPH = importGraph(REPO, FILES);
const EDGES: readonly ImportEdge[] = [...GRAPH.values()].flat();

/** The heavy packages of the `cli/` row: ts-morph, sharp, argon2, the database drivers. */
const HEAVY = ['ts-morph', 'sharp', 'argon2', 'mysql2', 'better-sqlite3'];

/** The text of the section `SECTION` of the page. */
function section(): string {
  const text = fs.readFileSync(path.join(REPO, DOC), 'utf8');
  const start = text.indexOf(`\n## ${SECTION}\n`);
  assert.ok(start >= 0, `${DOC} has a section « ${SECTION} »`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** The `code` spans of `text`, in order. */
function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
}

/** Text up to the first `:` outside a code span. */
function head(text: string): string {
  let inCode = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '`') inCode = !inCode;
    else if (text[i] === ':' && !inCode) return text.slice(0, i);
  }
  return text;
}

interface Layer {
  readonly rank: number;
  /** Runtime folders (`db/`) and files (`config.ts`), from `runtime/`. */
  readonly members: readonly string[];
  /** The item's whole text, for the messages. */
  readonly text: string;
}

/** The numbered list after « Inside the runtime, from the bottom up »: each item's members are the code spans before its first colon. */
function runtimeLayers(): Layer[] {
  const text = section();
  const start = text.indexOf('Inside the runtime, from the bottom up');
  assert.ok(start >= 0, `${DOC} « ${SECTION} » lists the runtime's layers after « Inside the runtime, from the bottom up »`);
  const items: Array<{ rank: number; text: string }> = [];
  for (const line of text.slice(start).split('\n').slice(1)) {
    const item = /^(\d+)\. (.*)$/.exec(line);
    if (item) items.push({ rank: Number(item[1]), text: item[2]! });
    else if (/^\s+\S/.test(line) && items.length > 0) items[items.length - 1]!.text += ` ${line.trim()}`;
    else if (items.length > 0 && line.trim() === '') break;
  }
  return items.map(({ rank, text }) => ({ rank, text, members: codeSpans(head(text)) }));
}

/** The layer of a runtime file: the member that names it (the longest folder that holds it, or the file itself). */
function layerOf(layers: readonly Layer[], file: string): { layer: Layer; member: string } | undefined {
  const inside = file.slice('runtime/'.length);
  let best: { layer: Layer; member: string } | undefined;
  for (const layer of layers) {
    for (const member of layer.members) {
      const holds = member.endsWith('/') ? inside.startsWith(member) : inside === member;
      if (holds && (!best || member.length > best.member.length)) best = { layer, member };
    }
  }
  return best;
}

/** The runtime modules the `emitters/` row allows: the code spans between « from `runtime/` » and « Never ». */
function emitterRuntimeModules(): string[] {
  const row = section()
    .split('\n')
    .find((line) => line.startsWith('| `emitters/` |'));
  assert.ok(row, `${DOC} « ${SECTION} » has a row for \`emitters/\``);
  const from = row.indexOf('from `runtime/`');
  const never = row.indexOf('Never', from);
  assert.ok(from >= 0 && never > from, 'the emitters row names its runtime modules between « from `runtime/` » and « Never »');
  return codeSpans(row.slice(from + 'from `runtime/`'.length, never));
}

/** A module of a row as a pattern: `<name>` stands for one folder (`db/dialects/<name>/spelling.ts`: every dialect's). */
function modulePattern(module: string): RegExp {
  const escaped = module.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/<[a-z]+>/g, '[^/]+');
  return new RegExp(`^${escaped}${module.endsWith('/') ? '' : '$'}`);
}

/** True when the runtime file `file` is one of `modules` (folders end with `/`, from `runtime/`). */
function isOneOf(modules: readonly string[], file: string): boolean {
  const inside = file.slice('runtime/'.length);
  return file.startsWith('runtime/') && modules.some((module) => modulePattern(module).test(inside));
}

const folderOf = (file: string): string => file.split('/')[0]!;
const where = (edge: ImportEdge): string => `${edge.from}:${edge.line} imports '${edge.specifier}'${edge.file ? ` (${edge.file})` : ''}`;

/** Fails with every violation of `rule`, one a line. */
function none(violations: readonly string[], rule: string): void {
  if (violations.length > 0) assert.unreachable(`${violations.length} problem(s) with « ${rule} » (${DOC} « ${SECTION} »):\n  ${violations.join('\n  ')}`);
}

t('the sources are read: every relative import names one of them', () => {
  assert.ok(FILES.length > 300, `${FILES.length} files`);
  assert.ok(EDGES.length > 1000, `${EDGES.length} imports`);
  const kinds = new Set(EDGES.map((edge) => edge.kind));
  assert.equal([...kinds].sort(), ['dynamic', 'type', 'value']);
  none(
    EDGES.filter((edge) => edge.file && !edge.file.endsWith('.json') && !GRAPH.has(edge.file)).map((edge) => `${where(edge)}: no such source file`),
    'imports resolve',
  );
});

t('compiler/ imports nothing else of ours', () => {
  none(
    EDGES.filter((edge) => folderOf(edge.from) === 'compiler' && edge.file && folderOf(edge.file) !== 'compiler').map(where),
    'compiler/: nothing else of ours',
  );
});

t('emitters/ import compiler/, emitters/ and, from runtime/, only the modules that run nothing the page names', () => {
  const allowed = emitterRuntimeModules();
  assert.ok(allowed.includes('db/ddl/') && allowed.includes('db/dialect.ts'), `the emitters row names db/ddl/ and db/dialect.ts: ${allowed.join(', ')}`);
  for (const module of allowed) {
    const exists = module.includes('<')
      ? FILES.some((file) => file.startsWith('runtime/') && modulePattern(module).test(file.slice('runtime/'.length)))
      : fs.existsSync(path.join(REPO, 'runtime', module));
    assert.ok(exists, `runtime/${module}, named by the emitters row, exists`);
  }
  const rule = `emitters/: compiler/, and from runtime/ only ${allowed.join(', ')}; never cli/`;
  none(
    EDGES.filter((edge) => folderOf(edge.from) === 'emitters' && edge.file)
      .filter((edge) => {
        const to = folderOf(edge.file!);
        if (to === 'cli') return true;
        if (to === 'runtime') return edge.kind !== 'type' && !isOneOf(allowed, edge.file!);
        return to !== 'compiler' && to !== 'emitters';
      })
      .map(where),
    rule,
  );
  // What those modules load with them stays among them: they "import only those", and no npm package.
  const escapes: string[] = [];
  for (const file of FILES.filter((file) => isOneOf(allowed, file))) {
    for (const [reached, chain] of staticClosure(GRAPH, file)) {
      const ours = /\.(?:ts|json)$/.test(reached);
      if (ours ? !isOneOf(allowed, reached) : !reached.startsWith('node:')) escapes.push(`${chain.join(' → ')}: loads ${reached}`);
    }
  }
  none(escapes, `the runtime modules emitters may import (${allowed.join(', ')}) import only those`);
});

t('emitters never read or write the disk: no emitter imports node:fs', () => {
  none(
    EDGES.filter((edge) => folderOf(edge.from) === 'emitters' && edge.pkg === 'node:fs').map(where),
    'emitters/ never read or write the disk (the caller in cli/ reads what an emitter needs and passes it)',
  );
});

t('inside cli/, a helper never imports a command: only the command table and other commands do', () => {
  const isCommand = (file: string): boolean => /^cli\/commands\/[^/]+\/[^/]+\.ts$/.test(file) && !file.endsWith('/table.ts');
  none(
    EDGES.filter(
      (edge) => folderOf(edge.from) === 'cli' && !edge.from.startsWith('cli/commands/') && edge.kind !== 'type' && edge.file && isCommand(edge.file),
    ).map(where),
    'cli/: a helper never imports a command',
  );
});

t('runtime/ never imports cli/, emitters/ or compiler/, not even a type', () => {
  none(
    EDGES.filter((edge) => folderOf(edge.from) === 'runtime' && edge.file && folderOf(edge.file) !== 'runtime').map(where),
    'runtime/: never cli/, emitters/ or compiler/',
  );
});

t('every runtime source belongs to one layer of the page, and every folder or file a layer names exists', () => {
  const layers = runtimeLayers();
  assert.equal(
    layers.map((layer) => layer.rank),
    layers.map((_, i) => i + 1),
    'the layers are numbered 1, 2, 3…',
  );
  for (const layer of layers) {
    assert.ok(layer.members.length > 0, `layer ${layer.rank} names its folders and files before its colon: ${layer.text}`);
    for (const member of layer.members) {
      assert.ok(fs.existsSync(path.join(REPO, 'runtime', member)), `runtime/${member}, named by layer ${layer.rank}, exists`);
      const named = layers.filter((other) => other.members.includes(member)).map((other) => other.rank);
      assert.equal(named, [layer.rank], `runtime/${member} is named by one layer only`);
    }
  }
  none(
    FILES.filter((file) => folderOf(file) === 'runtime' && !layerOf(layers, file)).map((file) => `${file} belongs to no layer`),
    'every runtime file belongs to a layer',
  );
});

t('a runtime file imports only from its own layer or a layer below (type-only imports excepted)', () => {
  const layers = runtimeLayers();
  const violations: string[] = [];
  for (const edge of EDGES) {
    if (folderOf(edge.from) !== 'runtime' || edge.kind === 'type' || !edge.file || folderOf(edge.file) !== 'runtime') continue;
    const from = layerOf(layers, edge.from);
    const to = layerOf(layers, edge.file);
    if (!from || !to) continue; // reported by the test above
    if (to.layer.rank > from.layer.rank) {
      violations.push(`${where(edge)}: layer ${from.layer.rank} (${from.member}) imports layer ${to.layer.rank} (${to.member})`);
    } else if (/nothing (?:else )?of ours/.test(from.layer.text) && from.member !== to.member) {
      violations.push(`${where(edge)}: layer ${from.layer.rank} (${from.member}) imports nothing else of ours`);
    }
  }
  none(violations, 'a file imports only from its own layer or a layer below');
});

t('in a layer whose modules build on one another (« never the reverse »), no two of them import each other', () => {
  const layers = runtimeLayers().filter((layer) => layer.text.includes('never the reverse'));
  assert.ok(layers.length > 0, 'the subpath modules build on one another, never the reverse');
  const violations: string[] = [];
  for (const layer of layers) {
    // One edge per pair of members, the first import found standing for the others.
    const uses = new Map<string, Map<string, ImportEdge>>();
    for (const edge of EDGES) {
      if (edge.kind === 'type' || !edge.file || folderOf(edge.from) !== 'runtime' || folderOf(edge.file) !== 'runtime') continue;
      const from = layerOf([layer], edge.from)?.member;
      const to = layerOf([layer], edge.file)?.member;
      if (!from || !to || from === to) continue;
      if (!uses.has(from)) uses.set(from, new Map());
      if (!uses.get(from)!.has(to)) uses.get(from)!.set(to, edge);
    }
    for (const [from, targets] of uses) {
      for (const [to, edge] of targets) {
        // `to` reaches back to `from`?
        const seen = new Set([to]);
        const queue = [to];
        while (queue.length > 0) {
          const next = queue.shift()!;
          for (const [further, back] of uses.get(next) ?? []) {
            if (further === from) violations.push(`${where(edge)}, and ${where(back)}: ${from} and ${to} of layer ${layer.rank} build on each other`);
            else if (!seen.has(further)) {
              seen.add(further);
              queue.push(further);
            }
          }
        }
      }
    }
  }
  none(violations, 'one may import another it builds on, never the reverse');
});

t('no two runtime files import each other, directly or not', () => {
  const runtime = new Set(FILES.filter((file) => folderOf(file) === 'runtime'));
  none(
    importCycles(GRAPH, runtime).map((cycle) => cycle.join(' → ')),
    'no import cycle between runtime files',
  );
});

t('cli/main.ts statically loads only the command table; no cli/ file imports a heavy package statically', () => {
  const closure = staticClosure(GRAPH, 'cli/main.ts');
  // What main.ts may load with it: the files the `cli/` row names after « statically loads only » (`<family>`: any).
  const row = section()
    .split('\n')
    .find((line) => line.startsWith('| `cli/` |') && line.includes('statically loads only'));
  assert.ok(row, `${DOC} « ${SECTION} »: the cli/ row says what main.ts statically loads`);
  const named = codeSpans(row.slice(row.indexOf('statically loads only'))).filter((span) => span.endsWith('.ts'));
  assert.ok(named.includes('main.ts') && named.includes('commands-table.ts'), `the cli/ row names main.ts and the command table: ${named.join(', ')}`);
  const patterns = named.map((span) => new RegExp(`^cli/${span.replace(/[.]/g, '\\.').replace('<family>', '[^/]+')}$`));
  const mayLoad = (file: string): boolean => patterns.some((pattern) => pattern.test(file));
  none(
    [...closure]
      .filter(([reached]) => (/\.(?:ts|json)$/.test(reached) ? !mayLoad(reached) : !reached.startsWith('node:')))
      .map(([reached, chain]) => `${chain.join(' → ')}: cli/main.ts loads ${reached} before any command runs`),
    'cli/main.ts statically loads only the command table; a command is loaded by its row, through import()',
  );
  assert.ok(closure.has('cli/commands-table.ts'), 'main.ts loads the command table');
  assert.ok(
    [...closure.keys()].some((file) => /^cli\/commands\/[^/]+\/table\.ts$/.test(file)),
    'the command table loads its rows',
  );
  none(
    EDGES.filter((edge) => folderOf(edge.from) === 'cli' && edge.kind === 'value' && HEAVY.includes(edge.pkg ?? '')).map(where),
    `cli/: heavy parts (${HEAVY.join(', ')}) only through import()`,
  );
});

t.run();
