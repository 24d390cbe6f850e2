// The README's list of commands and the printed help both equal the command table (cli/commands-table.ts): every
// command once, in its family, none missing, none extra.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { COMMANDS, FAMILIES } from '../cli/commands-table.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** Family → command names, in the table's order. */
function tableByFamily(): Map<string, string[]> {
  const byFamily = new Map<string, string[]>(FAMILIES.map((family) => [family, []]));
  for (const entry of COMMANDS) byFamily.get(entry.family)!.push(entry.name);
  return byFamily;
}

/**
 * The README's "## Commands" list: one bullet per family, `- **Famille**: `a`, `b` — free text`. The commands are
 * the backticked names before the dash; what follows is commentary.
 */
function readmeByFamily(): { families: string[]; byFamily: Map<string, string[]> } {
  const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Commands\n');
  assert.ok(start >= 0, 'README.md has a "## Commands" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  // Bullets, their continuation lines joined.
  const bullets: string[] = [];
  for (const line of section.split('\n')) {
    if (line.startsWith('- **')) bullets.push(line);
    else if (bullets.length > 0 && line.startsWith('  ') && !line.trimStart().startsWith('-')) bullets[bullets.length - 1] += ` ${line.trim()}`;
    else if (line.trim() === '' || line.startsWith('```')) bullets.push('');
  }
  const families: string[] = [];
  const byFamily = new Map<string, string[]>();
  for (const bullet of bullets.filter((b) => b !== '')) {
    // The family, and the text before the first " — " (the commands; what follows describes them).
    const [, family, list] = /^- \*\*(.+?)\*\*: (.*?)(?: — |$)/.exec(bullet) ?? [];
    assert.ok(family !== undefined && list !== undefined, `bullet shaped "- **Famille**: …": ${bullet}`);
    const names = [...list.matchAll(/`([^`]+)`/g)].flatMap((m) => m[1] ?? []);
    assert.ok(names.length > 0, `commands listed for ${family}`);
    families.push(family);
    byFamily.set(family, [...(byFamily.get(family) ?? []), ...names]);
  }
  return { families, byFamily };
}

/** `fw help`'s families and their commands: a family line, then `  fw <name> …` lines (summaries are deeper). */
function helpByFamily(): { families: string[]; byFamily: Map<string, string[]> } {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-docs-commands-'));
  try {
    const run = spawnSync(process.execPath, [path.join(REPO, 'bin', 'fw.js'), 'help'], { cwd, encoding: 'utf8' });
    assert.is(run.status, 0, run.stderr);
    const families: string[] = [];
    const byFamily = new Map<string, string[]>();
    let current: string | undefined;
    for (const line of run.stdout.split('\n')) {
      if (line === 'Options générales') current = undefined;
      else if ((FAMILIES as readonly string[]).includes(line)) {
        current = line;
        families.push(line);
        byFamily.set(line, []);
      } else {
        const command = /^ {2}fw (\S+)/.exec(line)?.[1];
        if (current && command !== undefined) byFamily.get(current)!.push(command);
      }
    }
    return { families, byFamily };
  } finally {
    fs.rmSync(cwd, { recursive: true, force: true });
  }
}

function assertSameAsTable(source: string, listed: { families: string[]; byFamily: Map<string, string[]> }): void {
  const table = tableByFamily();
  assert.equal(listed.families, [...FAMILIES], `${source}: every family once, in the help's order`);
  const all = [...listed.byFamily.values()].flat();
  const duplicated = all.filter((name, i) => all.indexOf(name) !== i);
  assert.equal(duplicated, [], `${source}: no command listed twice`);
  const known = new Set(COMMANDS.map((entry) => entry.name));
  assert.equal(
    all.filter((name) => !known.has(name)),
    [],
    `${source}: no command outside the table`,
  );
  assert.equal(
    COMMANDS.map((entry) => entry.name).filter((name) => !all.includes(name)),
    [],
    `${source}: no command of the table missing`,
  );
  for (const family of FAMILIES) {
    assert.equal(listed.byFamily.get(family), table.get(family), `${source}: the commands of ${family}, in the table's order`);
  }
}

test('the README lists every command of the table once, in its family and order', () => {
  assertSameAsTable('README.md', readmeByFamily());
});

test('fw help lists every command of the table once, in its family and order', () => {
  assertSameAsTable('fw help', helpByFamily());
});

test('the README no longer says that some commands are not available', () => {
  const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
  assert.not.match(readme, /not available yet/);
  // Every row of the table is implemented, which is what the README's list claims.
  assert.equal(
    COMMANDS.filter((entry) => !entry.load).map((entry) => entry.name),
    [],
  );
});

test.run();
