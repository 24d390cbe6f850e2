/**
 * docs/architecture.md "Where a new feature goes", the rows on names: every command has exactly one file,
 * `cli/commands/<family>/<its name with each ':' written '-'>.ts`, which its row loads; a commands folder holds
 * only command files and its `table.ts`; and no source file sits beside a folder of the same name (`x.ts` and
 * `x/`), in `compiler/`, `emitters/`, `cli/` and `runtime/`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { CommandEntry } from '../cli/command-entry.js';
import { COMMANDS } from '../cli/commands-table.js';
import { REPO } from './helpers/cli.js';
import { sourceFiles } from './helpers/import-graph.js';

const t = suite('architecture-names');

const COMMANDS_DIR = path.join(REPO, 'cli', 'commands');
const FOLDERS = fs
  .readdirSync(COMMANDS_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** The file a command's name asks for: `auth:user:create` → `auth-user-create.ts`. */
function commandFile(name: string): string {
  return `${name.replaceAll(':', '-')}.ts`;
}

/** The compiled module of a source file of `cli/commands/`, as the dispatcher imports it. */
function compiled(folder: string, file: string): Promise<unknown> {
  return import(pathToFileURL(path.join(REPO, 'dist', 'cli', 'commands', folder, file.replace(/\.ts$/, '.js'))).href);
}

/** The rows every export of `cli/commands/<folder>/table.ts` lists. */
async function rowsOf(folder: string): Promise<CommandEntry[]> {
  const table = (await compiled(folder, 'table.ts')) as Record<string, unknown>;
  return Object.values(table)
    .filter((value): value is CommandEntry[] => Array.isArray(value))
    .flat();
}

t('every commands folder has a table, and the tables together are the command table', async () => {
  const missing = FOLDERS.filter((folder) => !fs.existsSync(path.join(COMMANDS_DIR, folder, 'table.ts')));
  assert.equal(missing, [], 'a table.ts in each folder of cli/commands/');
  const names: string[] = [];
  for (const folder of FOLDERS) names.push(...(await rowsOf(folder)).map((row) => row.name));
  assert.equal([...names].sort(), COMMANDS.map((row) => row.name).sort(), 'the rows of the folders are the rows of cli/commands-table.ts');
});

t("every row loads its own file: cli/commands/<family>/<name with ':' written '-'>.ts", async () => {
  const wrong: string[] = [];
  for (const folder of FOLDERS) {
    for (const row of await rowsOf(folder)) {
      const file = commandFile(row.name);
      if (!fs.existsSync(path.join(COMMANDS_DIR, folder, file))) {
        wrong.push(`${row.name}: cli/commands/${folder}/${file} is missing`);
        continue;
      }
      assert.ok(row.load, `${row.name} has its load`);
      const loaded = await row.load();
      if (loaded !== (await compiled(folder, file))) wrong.push(`${row.name}: its load does not import cli/commands/${folder}/${file}`);
    }
  }
  assert.equal(wrong, [], 'one file per command, named after it');
});

t('a commands folder holds only the files of its commands and its table.ts', async () => {
  const extra: string[] = [];
  for (const folder of FOLDERS) {
    const files = new Set((await rowsOf(folder)).map((row) => commandFile(row.name)));
    for (const entry of fs.readdirSync(path.join(COMMANDS_DIR, folder), { withFileTypes: true })) {
      if (entry.name === 'table.ts' || (entry.isFile() && files.has(entry.name))) continue;
      extra.push(`cli/commands/${folder}/${entry.name} is no command's file (a helper goes in cli/${folder}/)`);
    }
  }
  assert.equal(extra, [], 'only command files and table.ts');
});

t('no source file sits beside a folder of the same name', () => {
  const clashes = sourceFiles(REPO, ['compiler', 'emitters', 'cli', 'runtime'], ['cli/templates'])
    .filter((file) => fs.existsSync(path.join(REPO, file.replace(/\.ts$/, ''))))
    .map((file) => `${file} beside ${file.replace(/\.ts$/, '')}/`);
  assert.equal(clashes, [], 'x.ts and x/ never share a folder');
});

t.run();
