/**
 * `fw build:css` (docs/frontend.md, docs/styles.md): runs the project's Tailwind CLI (`@tailwindcss/cli` in its
 * node_modules) as the project's `npm run build:css` script does: `static/src/input.css` to a minified
 * `static/tailwind.css`. The tool's exit code is the command's.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';

const INPUT = 'static/src/input.css';
const OUTPUT = 'static/tailwind.css';

export function configure(): void {}

export async function run(_input: CommandInput): Promise<number> {
  const root = projectRoot();
  const cli = tailwindBin(root);
  if (!fs.existsSync(path.join(root, INPUT))) {
    throw new CliError(
      `${INPUT} introuvable : c'est la source de la feuille de style.`,
      'recréez-le (un projet « fw new » en a un : docs/styles.md de fw-mvc), puis relancez « fw build:css ».',
    );
  }
  process.stdout.write(`Tailwind : ${INPUT} → ${OUTPUT} (minifié)\n`);
  const child = spawn(process.execPath, [cli, '-i', INPUT, '-o', OUTPUT, '--minify'], { cwd: root, stdio: 'inherit' });
  return new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** The entry point of the project's `@tailwindcss/cli`, from its package.json `bin`; a CliError when it is not installed. */
function tailwindBin(root: string): string {
  const folder = path.join(root, 'node_modules', '@tailwindcss', 'cli');
  const notInstalled = new CliError(
    "le CLI de Tailwind (@tailwindcss/cli) n'est pas installé dans node_modules du projet.",
    '« npm install » installe les devDependencies du projet (@tailwindcss/cli et tailwindcss), puis relancez « fw build:css ».',
  );
  let bin: unknown;
  try {
    bin = (JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as { bin?: unknown }).bin;
  } catch {
    throw notInstalled;
  }
  const entry = typeof bin === 'string' ? bin : bin && typeof bin === 'object' ? (bin as Record<string, unknown>).tailwindcss : undefined;
  const file = typeof entry === 'string' ? path.join(folder, entry) : '';
  if (!file || !fs.existsSync(file)) throw notInstalled;
  return file;
}
