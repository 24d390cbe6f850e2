/**
 * `fw build:assets` (docs/runtime.md "Static files", docs/deploy.md "The nginx site"): the fingerprinted copies,
 * the gzip and brotli files and the manifest of the project's `static/` (cli/frontend/assets.ts). A new project's
 * `npm run build` runs it after `tsc`, so `fw deploy:release` builds them in each release.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';
import { buildAssets } from '../../frontend/assets.js';

export function configure(): void {}

export function run(_input: CommandInput): Promise<number> {
  const dir = path.join(projectRoot(), 'static');
  if (!fs.existsSync(dir))
    throw new CliError('static/ introuvable dans le projet.', 'créez le dossier static/ (un projet « fw new » en a un), puis relancez « fw build:assets ».');
  const built = buildAssets(dir);
  const kib = (n: number): string => `${(n / 1024).toFixed(1)} Kio`;
  process.stdout.write(
    `static/assets-manifest.json : ${built.files} fichiers sous un nom à empreinte, ${built.compressed} compressés ` +
      `(${kib(built.bytes.plain)} → gzip ${kib(built.bytes.gzip)}, brotli ${kib(built.bytes.brotli)})` +
      `${built.removed ? `, ${built.removed} anciens fichiers supprimés` : ''}.\n`,
  );
  return Promise.resolve(0);
}
