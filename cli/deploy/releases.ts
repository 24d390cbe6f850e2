/**
 * Releases of `fw deploy:release` and `fw deploy:rollback` (docs/deploy.md "Releases"). Under the deploy folder:
 * `releases/<version>/` (one build each), `shared/storage/` and `shared/env/prod` (linked into every release), and
 * `current`, a symlink to the release served. The symlink is replaced by renaming a new one over it (rename(2) is
 * atomic: a process resolving `current` sees the old release or the new one, never nothing).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CliError } from '../errors.js';

/** Written in a release folder once it is built and migrated: only such releases are switched to. */
export const MARKER = '.fw-release.json';

export interface ReleaseMarker {
  readonly version: string;
  /** ISO time the release was built. */
  readonly builtAt: string;
  /** Set when `deploy:rollback` left it: a second rollback goes further back. */
  readonly rolledBack?: string;
}

export interface Layout {
  readonly base: string;
  readonly releases: string;
  readonly current: string;
  readonly shared: string;
}

export function layout(base: string): Layout {
  const root = path.resolve(base);
  return { base: root, releases: path.join(root, 'releases'), current: path.join(root, 'current'), shared: path.join(root, 'shared') };
}

/** `shared/storage/` is created; `shared/env/prod` must exist (the secrets are the operator's). */
export function prepareShared(paths: Layout): void {
  fs.mkdirSync(paths.releases, { recursive: true });
  fs.mkdirSync(path.join(paths.shared, 'storage'), { recursive: true });
  if (!fs.existsSync(path.join(paths.shared, 'env', 'prod')))
    throw new CliError(
      `${path.join(paths.shared, 'env', 'prod')} est absent : chaque release lit ses réglages de production dans ce fichier partagé.`,
      `copiez-y votre env/prod (install -D -m 600 env/prod ${path.join(paths.shared, 'env', 'prod')}), puis relancez.`,
    );
}

const VERSION = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A version name given on the command line, or the UTC time (`20261202-040512`), which sorts in build order. */
export function releaseVersion(given: unknown, now = new Date()): string {
  if (given === undefined) return now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const text = String(given);
  if (!VERSION.test(text))
    throw new CliError(`nom de version invalide : « ${text} ».`, 'lettres, chiffres, « . », « _ » et « - » (64 au plus), par exemple « --version v1.4.2 ».');
  return text;
}

/** Copies a folder (without node_modules, dist, .git, storage, env/prod) or unpacks a tarball into `dest`. */
export function unpack(from: string, dest: string): void {
  const source = path.resolve(from);
  const stat = fs.statSync(source, { throwIfNoEntry: false });
  if (!stat) throw new CliError(`« ${from} » n'existe pas.`, '--from attend un dossier du projet ou une archive .tar.gz / .tgz / .tar.');
  fs.mkdirSync(dest, { recursive: true });
  if (stat.isDirectory()) {
    const skip = new Set(['node_modules', 'dist', '.git', 'storage', path.join('env', 'prod')].map((entry) => path.join(source, entry)));
    fs.cpSync(source, dest, { recursive: true, verbatimSymlinks: true, filter: (file) => !skip.has(file) });
  } else {
    const result = spawnSync('tar', ['-xf', source, '-C', dest], { encoding: 'utf8' });
    if (result.status !== 0) throw new CliError(`l'archive « ${from} » ne s'ouvre pas : ${(result.stderr || result.error?.message || '').trim()}`);
    // An archive made by `npm pack` or `git archive --prefix` holds one folder: its content is the project.
    const entries = fs.readdirSync(dest);
    const only = entries.length === 1 ? path.join(dest, entries[0]!) : undefined;
    if (only && fs.statSync(only).isDirectory() && !fs.existsSync(path.join(dest, 'package.json'))) {
      for (const entry of fs.readdirSync(only)) fs.renameSync(path.join(only, entry), path.join(dest, entry));
      fs.rmdirSync(only);
    }
  }
  if (!fs.existsSync(path.join(dest, 'package.json')))
    throw new CliError(`« ${from} » ne contient pas de package.json à sa racine.`, '--from attend le dossier du projet, ou une archive de ce dossier.');
}

/** `storage` and `env/prod` of the release become links to the shared ones (relative: the deploy folder can move). */
export function linkShared(dest: string): void {
  fs.rmSync(path.join(dest, 'storage'), { recursive: true, force: true });
  fs.symlinkSync(path.join('..', '..', 'shared', 'storage'), path.join(dest, 'storage'));
  fs.mkdirSync(path.join(dest, 'env'), { recursive: true });
  fs.rmSync(path.join(dest, 'env', 'prod'), { force: true });
  fs.symlinkSync(path.join('..', '..', '..', 'shared', 'env', 'prod'), path.join(dest, 'env', 'prod'));
}

/** Runs one step in the release folder (its output is the CI job's); a status other than 0 throws. */
export function runStep(
  label: string,
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
  advice = 'la release en cours est supprimée et « current » est inchangé ; corrigez puis relancez.',
): void {
  process.stdout.write(`→ ${label} : ${command}\n`);
  const result = spawnSync('/bin/sh', ['-c', command], { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) {
    const how = result.signal ? `signal ${result.signal}` : `code ${result.status ?? '?'}`;
    throw new CliError(`l'étape « ${label} » a échoué (${how}) : ${command}`, advice);
  }
}

export function writeMarker(dir: string, marker: ReleaseMarker): void {
  fs.writeFileSync(path.join(dir, MARKER), JSON.stringify(marker, null, 2) + '\n');
}

export function readMarker(dir: string): ReleaseMarker | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8')) as ReleaseMarker;
  } catch {
    return undefined;
  }
}

/** The release folder `current` names, or undefined before the first release. */
export function currentRelease(paths: Layout): string | undefined {
  try {
    return path.basename(fs.realpathSync(paths.current));
  } catch {
    return undefined;
  }
}

/** The completed releases (a marker), oldest build first. */
export function completedReleases(paths: Layout): Array<{ version: string; marker: ReleaseMarker }> {
  if (!fs.existsSync(paths.releases)) return [];
  return fs
    .readdirSync(paths.releases)
    .flatMap((version) => {
      const marker = readMarker(path.join(paths.releases, version));
      return marker ? [{ version, marker }] : [];
    })
    .sort((a, b) => a.marker.builtAt.localeCompare(b.marker.builtAt) || a.version.localeCompare(b.version));
}

/** Points `current` at `releases/<version>`: a new symlink beside it, renamed over it. */
export function switchCurrent(paths: Layout, version: string): void {
  const temporary = `${paths.current}.tmp-${process.pid}`;
  fs.rmSync(temporary, { force: true });
  fs.symlinkSync(path.join('releases', version), temporary);
  const existing = fs.lstatSync(paths.current, { throwIfNoEntry: false });
  if (existing && !existing.isSymbolicLink()) {
    fs.rmSync(temporary, { force: true });
    throw new CliError(`${paths.current} existe et n'est pas un lien symbolique.`, 'déplacez ce dossier : « current » est le lien vers la release servie.');
  }
  fs.renameSync(temporary, paths.current);
}

/**
 * Keeps `keep` complete releases: the current one and the most recent others a rollback could go back to (not
 * rolled back). The rest is removed (a release a rollback left among them); returns their names.
 */
export function prune(paths: Layout, keep: number): string[] {
  const current = currentRelease(paths);
  const all = completedReleases(paths);
  const others = all.filter((release) => release.version !== current && !release.marker.rolledBack);
  const kept = new Set([current, ...others.slice(Math.max(0, others.length - (keep - 1))).map((release) => release.version)]);
  const removed = all.filter((release) => !kept.has(release.version));
  for (const release of removed) fs.rmSync(path.join(paths.releases, release.version), { recursive: true, force: true });
  return removed.map((release) => release.version);
}

/** `--keep`: a whole number of at least 2 (the current release and one to roll back to). */
export function keepCount(value: unknown): number {
  if (value === undefined) return 5;
  const text = String(value);
  if (!/^\d+$/.test(text) || Number(text) < 2)
    throw new CliError(
      `--keep vaut « ${text} » : un nombre de releases gardées, au moins 2.`,
      'la release servie et celle du retour arrière, par exemple « --keep 5 ».',
    );
  return Number(text);
}

/** Runs the reload (`systemctl reload <service>` by default): the primary's SIGHUP restarts the workers one by one. */
export function reload(command: string | undefined, cwd: string, version: string): void {
  if (command === undefined) return;
  runStep(
    'rechargement',
    command,
    cwd,
    process.env,
    `« current » nomme déjà ${version} mais les processus servent encore l'ancienne release : rechargez (systemctl reload) ou revenez en arrière (fw deploy:rollback).`,
  );
}

/**
 * The deploy folder: `--root`, else the one whose `releases/<version>` holds the working folder (a command run from
 * `current`). Anything else is refused: the releases would be built in a guessed place.
 */
export function deployBase(given: unknown, cwd = process.cwd()): string {
  if (typeof given === 'string' && given.trim() !== '') return path.resolve(given);
  let dir = fs.realpathSync(cwd);
  for (;;) {
    const parent = path.dirname(dir);
    if (parent === dir) break;
    if (path.basename(parent) === 'releases') return path.dirname(parent);
    dir = parent;
  }
  throw new CliError(
    `le dossier de déploiement n'est pas indiqué (« ${cwd} » n'est dans aucune release).`,
    'précisez-le : « --root /srv/monapp » (il contiendra releases/, shared/ et le lien current).',
  );
}
