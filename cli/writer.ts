/**
 * The one writer of generated files (docs/architecture.md "One writer"). `planWrites` reads the disk and
 * gives every file its fate; `applyPlan` writes the plan all or nothing; `formatPlan` prints it. Output labels
 * are French, like the rest of the CLI (`créé`, `mis à jour`, `inchangé`, `ignoré`, `écrasé`).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { hasGeneratedMarker } from '../emitters/marker.js';
import type { CopiedFile, FileKind, PlannedFile } from '../emitters/planned-file.js';
import { CliError } from './errors.js';

/**
 * `created`: absent. `unchanged`: same bytes. `updated`: differs, and may be rewritten (a regenerable file that
 * still has its marker line, or a canonical file). `skipped`: an existing manual file, or a regenerable file whose
 * marker line the user removed. `forced`: that last case overwritten because of `force`.
 */
export type Fate = 'created' | 'updated' | 'unchanged' | 'skipped' | 'forced';

/** What the writer is given: generated text, or the bytes of a copied file. */
export type WriterFile = PlannedFile | CopiedFile;

export interface PlannedWrite {
  /** Posix path relative to the root, as given. */
  readonly path: string;
  /** Absolute path on disk. */
  readonly target: string;
  readonly kind: FileKind;
  /** Text (written as UTF-8), or the bytes of a copied file. */
  readonly content: string | Uint8Array;
  readonly fate: Fate;
  /** Why a file is skipped or forced. */
  readonly reason?: string;
  /** The mode of a created file (PlannedFile.mode). */
  readonly mode?: number;
}

export interface WritePlan {
  readonly root: string;
  readonly entries: readonly PlannedWrite[];
}

export interface PlanOptions {
  /** Overwrite regenerable files whose marker line was removed. Manual files are never overwritten (docs/decisions.md#regenerable-and-manual-files). */
  readonly force?: boolean;
  /**
   * With `force`, overwrite manual files that differ too: only `fw starter:build --force` asks for it, for the files
   * the starter itself generates (docs/starters.md).
   */
  readonly forceManual?: boolean;
}

export const FATE_LABELS: Readonly<Record<Fate, string>> = {
  created: 'créé',
  updated: 'mis à jour',
  unchanged: 'inchangé',
  skipped: 'ignoré',
  forced: 'écrasé',
};

const FATE_PLURALS: Readonly<Record<Fate, string>> = {
  created: 'créés',
  updated: 'mis à jour',
  unchanged: 'inchangés',
  skipped: 'ignorés',
  forced: 'écrasés',
};

const FATE_ORDER: readonly Fate[] = ['created', 'updated', 'forced', 'unchanged', 'skipped'];

const REASON_MANUAL = 'fichier manuel : jamais réécrit';
const REASON_MARKER_REMOVED = 'ligne « fw-mvc: generated file » retirée : le fichier est à vous ; --force le régénère';
const REASON_FORCED = 'ligne « fw-mvc: generated file » retirée, réécrit à cause de --force';
const REASON_FORCED_MANUAL = 'fichier modifié, réécrit à cause de --force';

/** A path an emitter produced: relative, posix, with no `.`/`..` segment. Anything else is refused. */
function checkRelative(file: string): string[] {
  const segments = file.split('/');
  const bad = file === '' || file.includes('\\') || file.includes('\0') || /^[A-Za-z]:/.test(file) || segments.some((s) => s === '' || s === '.' || s === '..');
  if (bad) {
    throw new CliError(
      `chemin refusé « ${file} » : un fichier généré doit avoir un chemin relatif au projet, sans « .. » ni chemin absolu.`,
      "c'est une erreur du générateur ; signalez-la avec la commande lancée.",
    );
  }
  return segments;
}

/** The deepest existing ancestor must resolve inside the root, so that a symbolic link cannot lead writes outside. */
function checkInside(realRoot: string, target: string, file: string): void {
  let existing = path.dirname(target);
  while (!fs.existsSync(existing)) existing = path.dirname(existing);
  const relative = path.relative(realRoot, fs.realpathSync(existing));
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new CliError(`chemin refusé « ${file} » : il mène hors du projet (${realRoot}) par un lien symbolique.`, 'remplacez le lien par un vrai dossier.');
  }
}

function readExisting(target: string, file: string): Buffer | null {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(target, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') {
      throw new CliError(
        `impossible d'écrire « ${file} » : un élément de son chemin est un fichier, pas un dossier.`,
        'renommez ou déplacez ce fichier, puis relancez la commande.',
      );
    }
    throw error;
  }
  if (!stat) return null;
  if (!stat.isFile()) {
    throw new CliError(
      `impossible d'écrire « ${file} » : un dossier (ou autre chose qu'un fichier) porte déjà ce nom.`,
      "renommez ou déplacez-le, puis relancez la commande ; rien n'a été écrit.",
    );
  }
  return fs.readFileSync(target);
}

function bytesOf(content: string | Uint8Array): Buffer {
  return typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
}

function sameContent(a: string | Uint8Array, b: string | Uint8Array): boolean {
  return typeof a === 'string' && typeof b === 'string' ? a === b : bytesOf(a).equals(bytesOf(b));
}

function fateOf(file: WriterFile, existing: Buffer | null, force: boolean, forceManual: boolean): { fate: Fate; reason?: string } {
  if (existing === null) return { fate: 'created' };
  if (existing.equals(bytesOf(file.content))) return { fate: 'unchanged' };
  if (file.kind === 'manual') return force && forceManual ? { fate: 'forced', reason: REASON_FORCED_MANUAL } : { fate: 'skipped', reason: REASON_MANUAL };
  if (file.kind === 'canonical' || hasGeneratedMarker(existing.toString('utf8'))) return { fate: 'updated' };
  return force ? { fate: 'forced', reason: REASON_FORCED } : { fate: 'skipped', reason: REASON_MARKER_REMOVED };
}

/** Reads the disk and decides each file's fate; writes nothing. The same path twice must carry the same file. */
export function planWrites(root: string, files: readonly WriterFile[], options: PlanOptions = {}): WritePlan {
  const absoluteRoot = path.resolve(root);
  const realRoot = fs.realpathSync(absoluteRoot);
  const seen = new Map<string, WriterFile>();
  const entries: PlannedWrite[] = [];
  for (const file of files) {
    const previous = seen.get(file.path);
    if (previous) {
      if (sameContent(previous.content, file.content) && previous.kind === file.kind) continue;
      throw new CliError(
        `deux contenus différents pour « ${file.path} » dans la même génération.`,
        "c'est une erreur du générateur ; signalez-la avec la commande lancée.",
      );
    }
    seen.set(file.path, file);
    const target = path.join(absoluteRoot, ...checkRelative(file.path));
    checkInside(realRoot, target, file.path);
    const { fate, reason } = fateOf(file, readExisting(target, file.path), options.force === true, options.forceManual === true);
    const mode = 'mode' in file && file.mode !== undefined ? { mode: file.mode } : {};
    entries.push({ path: file.path, target, kind: file.kind, content: file.content, fate, ...(reason ? { reason } : {}), ...mode });
  }
  return { root: absoluteRoot, entries };
}

/** A hidden name beside the target, unique to this run. */
function sibling(target: string, tag: 'tmp' | 'bak'): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.fw-${tag}-${process.pid}-${randomBytes(4).toString('hex')}`);
}

/** mkdir -p that remembers which folders it made, deepest last, so that a rollback can remove them. */
function makeDirs(dir: string, made: string[]): void {
  const missing: string[] = [];
  for (let current = dir; !fs.existsSync(current); current = path.dirname(current)) missing.unshift(current);
  for (const folder of missing) {
    fs.mkdirSync(folder);
    made.push(folder);
  }
}

interface Staged {
  readonly entry: PlannedWrite;
  readonly temp: string;
  backup?: string;
  placed: boolean;
}

/** Puts everything back as it was; returns what could not be undone. */
function rollback(staged: readonly Staged[], madeDirs: readonly string[]): string[] {
  const failures: string[] = [];
  const attempt = (what: string, action: () => void): void => {
    try {
      action();
    } catch (error) {
      failures.push(`${what} (${(error as Error).message})`);
    }
  };
  for (const item of [...staged].reverse()) {
    const { entry, temp, backup } = item;
    if (item.placed) {
      if (backup) attempt(`restauration de ${entry.path}`, () => fs.renameSync(backup, entry.target));
      else attempt(`suppression de ${entry.path}`, () => fs.rmSync(entry.target, { force: true }));
    } else {
      attempt(`suppression de ${temp}`, () => fs.rmSync(temp, { force: true }));
      if (backup) attempt(`suppression de ${backup}`, () => fs.rmSync(backup, { force: true }));
    }
  }
  for (const dir of [...madeDirs].reverse()) attempt(`suppression du dossier ${dir}`, () => fs.rmdirSync(dir));
  return failures;
}

/**
 * Writes every created, updated or forced file of the plan, all or nothing: each content goes to a temporary file
 * beside its target, then each is renamed over its target (the replaced file copied to a backup first). On any
 * failure, temporary files are removed, replaced files restored, created files and folders removed, and a
 * CliError names the file that failed.
 */
export function applyPlan(plan: WritePlan): void {
  const writes = plan.entries.filter((e) => e.fate === 'created' || e.fate === 'updated' || e.fate === 'forced');
  const staged: Staged[] = [];
  const madeDirs: string[] = [];
  let current: PlannedWrite | undefined;
  try {
    for (const entry of writes) {
      current = entry;
      makeDirs(path.dirname(entry.target), madeDirs);
      const temp = sibling(entry.target, 'tmp');
      fs.writeFileSync(temp, entry.content, { flag: 'wx', ...(entry.mode !== undefined ? { mode: entry.mode } : {}) });
      staged.push({ entry, temp, placed: false });
      if (entry.fate !== 'created') fs.chmodSync(temp, fs.statSync(entry.target).mode & 0o7777);
    }
    for (const item of staged) {
      current = item.entry;
      const { target } = item.entry;
      if (item.entry.fate === 'created') {
        // Appeared since the plan was made: never replace what was not read.
        if (fs.existsSync(target)) throw new Error(`« ${item.entry.path} » existe maintenant alors qu'il était absent au moment du plan`);
      } else {
        item.backup = sibling(target, 'bak');
        fs.copyFileSync(target, item.backup, fs.constants.COPYFILE_EXCL);
      }
      fs.renameSync(item.temp, target);
      item.placed = true;
    }
  } catch (error) {
    const failures = rollback(staged, madeDirs);
    const reason = error instanceof Error ? error.message : String(error);
    const where = current ? ` sur « ${current.path} »` : '';
    throw new CliError(
      `l'écriture des fichiers générés a échoué${where} : ${reason}`,
      failures.length === 0
        ? "aucun fichier n'a été modifié ; vérifiez les droits d'écriture et l'espace disque, puis relancez la commande."
        : `la remise en état est incomplète : ${failures.join(' ; ')}.`,
    );
  }
  for (const item of staged) if (item.backup) fs.rmSync(item.backup, { force: true });
}

export interface FormatOptions {
  readonly dryRun: boolean;
}

/** One line per file (`  créé        mvc/entities/contact/contact.sql`) and a summary line; ends with a newline. */
export function formatPlan(plan: WritePlan, options: FormatOptions): string {
  const width = Math.max(...Object.values(FATE_LABELS).map((label) => label.length));
  const lines = options.dryRun ? ["Simulation (--dry-run) : aucun fichier n'est écrit."] : [];
  for (const entry of plan.entries) {
    lines.push(`  ${FATE_LABELS[entry.fate].padEnd(width)}  ${entry.path}${entry.reason ? ` (${entry.reason})` : ''}`);
  }
  const counts = FATE_ORDER.map((fate) => [fate, plan.entries.filter((e) => e.fate === fate).length] as const).filter(([, n]) => n > 0);
  const summary = counts.length === 0 ? 'aucun fichier' : counts.map(([fate, n]) => `${n} ${n === 1 ? FATE_LABELS[fate] : FATE_PLURALS[fate]}`).join(', ');
  lines.push(`${options.dryRun ? 'Résumé (simulation)' : 'Résumé'} : ${summary}.`);
  return lines.join('\n') + '\n';
}
