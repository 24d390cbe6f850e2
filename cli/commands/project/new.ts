/**
 * `fw new <Nom> [--ref <ref>] [--profile standard|auth-mfa] [--no-install]` (README.md "Quick start"). The
 * `auth-mfa` profile is the standard template with the `mfa` starter built into it at creation time, by the same
 * code as `fw starter:build mfa` (docs/starters.md).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { CliError, missingOptionValue } from '../../errors.js';
import { frameworkPackages } from '../../framework-packages.js';
import { CLI_PACKAGE_NAME, packageInfo, PACKAGE_NAME } from '../../package-root.js';
import { packageName, projectFiles, type Profile, type ProjectFile } from '../../project/project-template.js';
import { startAddress } from '../../start-address.js';

const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const PROFILES: readonly Profile[] = ['standard', 'auth-mfa'];
const PROFILES_TEXT = 'standard (par défaut) ou auth-mfa';
/** Names the pattern accepts but npm refuses as the name of a project that depends on fw-mvc and fw-mvc-cli. */
const RESERVED_NAMES = new Set([PACKAGE_NAME, CLI_PACKAGE_NAME, 'node_modules']);
const EXAMPLE = 'fw new MonProjet';
/** Folders only the application's account may list: the file session store keeps its sessions there. */
const PRIVATE_FOLDERS = ['storage/sessions'];

export function configure(command: Command): void {
  const refs = refsText(packageInfo().version);
  command
    .argument('<Nom>', 'nom du projet et de son dossier')
    .option('--ref <ref>', refs, optionValue('--ref', refs))
    .option('--profile <profil>', PROFILES_TEXT, optionValue('--profile', PROFILES_TEXT))
    .option('--no-install', 'ne lance pas npm install');
}

export async function run({ args, options }: CommandInput): Promise<number> {
  const name = String(args[0]);
  const framework = packageInfo();
  checkName(name);
  const ref = parseRef(options.ref, framework.version);
  const profile = parseProfile(options.profile);
  const target = path.resolve(name);
  checkTarget(target, name);

  const files = projectFiles({ name, framework: frameworkPackages(framework.root), ref, profile });
  const created = await writeProjectAtomically(target, files, profile === 'auth-mfa' ? buildMfaStarter : undefined);

  const out = process.stdout;
  out.write(`Projet « ${name} » créé dans ${target} (${created.length} fichiers).\n`);
  for (const file of created) out.write(`  créé  ${file}\n`);

  if (options.install !== false) {
    out.write('\nInstallation des dépendances (npm install ; la compilation de SQLite prend une minute ou plus)…\n');
    const outcome = await npmInstall(target);
    // npm got the same Ctrl+C as fw, and its exit may be seen before fw's own SIGINT handler runs.
    if (outcome.signal === 'SIGINT' || outcome.code === 130) throw new CliError('opération interrompue.', undefined, 130);
    if (outcome.code !== 0) {
      const reason = outcome.error ?? (outcome.signal ? `signal ${outcome.signal}` : `code ${outcome.code}`);
      throw new CliError(
        `npm install a échoué (${reason}) ; le projet « ${name} » est créé mais ses dépendances ne sont pas installées.`,
        `lancez « cd ${name} » puis « npm install » à la main, puis « npm start ».`,
      );
    }
  }

  const database = profile === 'auth-mfa' ? ['fw db:init', 'fw db:apply', 'fw auth:user:create --email vous@example.com --password-prompt'] : [];
  const steps = [`cd ${name}`, ...(options.install === false ? ['npm install'] : []), ...database, 'npm start'];
  out.write(`\nProchaines étapes :\n${steps.map((step) => `  ${step}\n`).join('')}`);
  // The address env/dev of the new project gives (the process's HOST and PORT winning, as for the server).
  const address = await startAddress(target);
  if (profile === 'auth-mfa') {
    out.write(`puis ouvrez ${address}, connectez-vous et activez le second facteur sur ${address}/account/mfa (voir README.md)\n`);
  } else {
    out.write(`puis ouvrez ${address}\n`);
  }
  return 0;
}

/** The `auth-mfa` profile: the `mfa` starter built into the project's folder before it takes its name. */
async function buildMfaStarter(root: string): Promise<string[]> {
  const [{ findStarter }, { buildIntoNewProject }] = await Promise.all([import('../../starters/registry.js'), import('../../starters/build.js')]);
  const plan = await buildIntoNewProject(root, findStarter('mfa')!);
  return plan.entries.filter((entry) => entry.fate === 'created').map((entry) => entry.path);
}

/**
 * commander gives a value-taking option the next word even when it is another option (`--ref --no-install`);
 * such a word means the value is missing.
 */
function optionValue(flag: string, accepted: string): (value: string) => string {
  return (value) => {
    if (value === '' || value.startsWith('-')) throw missingOptionValue('new', flag, `${flag} : ${accepted}.`);
    return value;
  };
}

function checkName(name: string): void {
  if (!NAME_PATTERN.test(name)) {
    throw new CliError(
      `nom de projet invalide « ${name} ».`,
      `le nom commence par une lettre et ne contient que des lettres, des chiffres, « _ » ou « - » (64 caractères au plus), par exemple « ${EXAMPLE} ».`,
    );
  }
  if (RESERVED_NAMES.has(packageName(name))) {
    throw new CliError(
      `nom de projet réservé « ${name} » : npm refuse ce nom pour un projet qui dépend de ${PACKAGE_NAME} et ${CLI_PACKAGE_NAME}.`,
      `choisissez un autre nom, par exemple « ${EXAMPLE} ».`,
    );
  }
}

function refsText(version: string): string {
  return `stable (par défaut), main ou v${version}`;
}

/** `stable` (default), `main`, or `v<version>` of the running package: the template ships with this version. */
function parseRef(value: unknown, version: string): string {
  if (value === undefined) return 'stable';
  const ref = String(value);
  if (ref === 'stable' || ref === 'main' || ref === `v${version}`) return ref;
  throw new CliError(`référence inconnue « ${ref} » pour --ref.`, `valeurs acceptées : stable (par défaut), main, v${version} (la version de ce fw).`);
}

function parseProfile(value: unknown): Profile {
  if (value === undefined) return 'standard';
  const profile = String(value);
  const known = PROFILES.find((candidate) => candidate === profile);
  if (known) return known;
  throw new CliError(`profil inconnu « ${profile} » pour --profile.`, `profils acceptés : ${PROFILES.join(', ')}.`);
}

/** The target may not exist yet, or be an empty folder; anything else is refused before a byte is written. */
function checkTarget(target: string, name: string): void {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return;
  if (!stat.isDirectory()) {
    throw new CliError(`« ${name} » existe déjà et n'est pas un dossier.`, 'choisissez un autre nom de projet.');
  }
  if (fs.readdirSync(target).length > 0) {
    throw new CliError(`le dossier « ${name} » existe déjà et n'est pas vide.`, 'choisissez un autre nom de projet, ou videz ou déplacez ce dossier.');
  }
}

/**
 * Writes every file into a hidden sibling folder, lets `complete` add to it (the profile's starter), then renames it
 * to `target`: the project appears whole or not at all. On failure, or when fw is stopped (Ctrl+C) meanwhile, the
 * temporary folder is removed. Returns the paths of the project's files, sorted.
 */
async function writeProjectAtomically(target: string, files: readonly ProjectFile[], complete?: (root: string) => Promise<string[]>): Promise<string[]> {
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.tmp-${randomBytes(6).toString('hex')}`);
  const removeTemporary = (): void => fs.rmSync(temporary, { recursive: true, force: true });
  process.on('exit', removeTemporary);
  try {
    fs.mkdirSync(temporary);
    for (const file of files) {
      const destination = path.join(temporary, ...file.path.split('/'));
      fs.mkdirSync(path.dirname(destination), { recursive: true });
      fs.writeFileSync(destination, file.content, { flag: 'wx' });
    }
    for (const folder of PRIVATE_FOLDERS) {
      const dir = path.join(temporary, ...folder.split('/'));
      if (fs.existsSync(dir)) fs.chmodSync(dir, 0o700);
    }
    const added = complete ? await complete(temporary) : [];
    // An empty folder of the same name was accepted by checkTarget; rename() cannot replace it on every platform.
    if (fs.existsSync(target)) fs.rmdirSync(target);
    fs.renameSync(temporary, target);
    return [...new Set([...files.map((file) => file.path), ...added])].sort((a, b) => a.localeCompare(b));
  } catch (error) {
    removeTemporary();
    // The profile's starter says what went wrong itself (its message and advice); the project is not created.
    if (error instanceof CliError) throw new CliError(`la création du projet a échoué : ${error.message}`, error.advice, error.exitCode);
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError(
      `la création du projet a échoué : ${reason}`,
      `rien n'a été écrit ; vérifiez les droits d'écriture dans ${path.dirname(target)} et l'espace disque.`,
    );
  } finally {
    process.off('exit', removeTemporary);
  }
}

interface NpmOutcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Set when npm could not be started at all. */
  readonly error?: string;
}

/** Runs `npm install` in the project with the terminal attached. */
function npmInstall(cwd: string): Promise<NpmOutcome> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['install'], { cwd, stdio: 'inherit', shell: process.platform === 'win32' });
    child.on('error', (error) => resolve({ code: null, signal: null, error: error.message }));
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
}
