/**
 * `fw make:crud <Entity> --upgrade`: the user's files of the entity brought to what make:crud writes now, edits kept
 * (docs/decisions.md "Upgrading an entity's files", docs/upgrading.md "Upgrading an entity's files"). For each file:
 * its base (what the generator wrote: recorded by the hash of its first line, or written again by the previous
 * release's emitters, emitters/crud/legacy/), then replaced when untouched, merged three ways when edited.
 */
import fs from 'node:fs';
import path from 'node:path';
import { manualHash, readManualMarker } from '../../emitters/marker.js';
import { legacyManualFiles } from '../../emitters/crud/legacy/index.js';
import type { CrudPlan } from '../../emitters/crud/plan.js';
import type { PlannedFile } from '../../emitters/planned-file.js';
import { unifiedDiff } from '../../emitters/codemods/line-diff.js';
import { mergeThreeWays, type MergeConflict } from '../../emitters/codemods/three-way-merge.js';

export type UpgradeFate = 'created' | 'replaced' | 'merged' | 'unchanged' | 'removed' | 'kept';

export interface UpgradeEntry {
  readonly path: string;
  readonly fate: UpgradeFate;
  /** What the file holds now (null: absent). */
  readonly before: string | null;
  /** What it will hold (null: deleted). */
  readonly after: string | null;
}

export interface UpgradePlan {
  readonly entries: readonly UpgradeEntry[];
  readonly conflicts: ReadonlyArray<{ readonly path: string; readonly lines: readonly MergeConflict[] }>;
  /** The files that could not be merged for want of a base. */
  readonly unknown: readonly string[];
}

/**
 * The upgrade of the manual files `manual` (what make:crud writes now, each with its marker line) of `plan`'s
 * entity in the project at `root`; `variants`, what the stubs give with other values (emitters/crud/manual.ts
 * `manualCrudVariants`), may be the base of a file. Reads the disk, writes nothing.
 */
export function planUpgrade(root: string, plan: CrudPlan, manual: readonly PlannedFile[], variants: readonly PlannedFile[] = []): UpgradePlan {
  const legacy = legacyManualFiles(plan);
  const entries: UpgradeEntry[] = [];
  const conflicts: Array<{ path: string; lines: readonly MergeConflict[] }> = [];
  const unknown: string[] = [];
  const read = (file: string): string | null => {
    const full = path.join(root, file);
    return fs.existsSync(full) ? fs.readFileSync(full, 'utf8') : null;
  };
  for (const file of manual) {
    const current = read(file.path);
    const next = readManualMarker(file.content)!;
    if (current === null) {
      entries.push({ path: file.path, fate: 'created', before: null, after: file.content });
      continue;
    }
    if (current === file.content) {
      entries.push({ path: file.path, fate: 'unchanged', before: current, after: current });
      continue;
    }
    const marker = readManualMarker(current);
    // The base: the file as the generator wrote it, without its marker line.
    let base: string | null;
    let user: string;
    if (marker) {
      user = marker.body;
      if (manualHash(user) === marker.hash) {
        entries.push({ path: file.path, fate: 'replaced', before: current, after: file.content });
        continue;
      }
      // What the stubs write now, or wrote for the entity as it was then (another example field, media or not).
      base =
        [next.body, ...variants.filter((v) => v.path === file.path).map((v) => readManualMarker(v.content)!.body)].find(
          (body) => manualHash(body) === marker.hash,
        ) ?? null;
    } else {
      user = current;
      base = legacy.get(file.path) ?? null;
      if (base === current) {
        entries.push({ path: file.path, fate: 'replaced', before: current, after: file.content });
        continue;
      }
    }
    if (base === null) {
      unknown.push(file.path);
      continue;
    }
    const merged = mergeThreeWays(file.path, base, user, next.body);
    if (merged.conflicts) {
      conflicts.push({ path: file.path, lines: merged.conflicts });
      continue;
    }
    // The merged file records the new text as its base: the next upgrade merges from it.
    const firstLine = file.content.slice(0, file.content.indexOf('\n') + 1);
    const after = firstLine + merged.text;
    entries.push({ path: file.path, fate: after === current ? 'unchanged' : 'merged', before: current, after });
  }
  // The previous release's files that make:crud writes no more (bulk_delete.html): removed if untouched, kept if edited.
  for (const [file, text] of legacy) {
    if (manual.some((m) => m.path === file)) continue;
    const current = read(file);
    if (current === null) continue;
    entries.push({ path: file, fate: current === text ? 'removed' : 'kept', before: current, after: current === text ? null : current });
  }
  return { entries, conflicts, unknown };
}

const LABELS: Readonly<Record<UpgradeFate, string>> = {
  created: 'créé',
  replaced: 'remplacé',
  merged: 'fusionné',
  unchanged: 'inchangé',
  removed: 'supprimé',
  kept: 'gardé',
};

/** Each file's fate, then the unified diff of every file that changes. */
export function formatUpgrade(upgrade: UpgradePlan): string {
  // The width of the writer's labels, so that both lists line up.
  const width = 10;
  const out = [`Mise à niveau des fichiers de l'entité (${upgrade.entries.length}) :\n`];
  for (const entry of upgrade.entries) {
    const note = entry.fate === 'kept' ? ' (modifié par vous : il remplace le crud/bulk_delete.html du framework ; supprimez-le pour prendre celui-ci)' : '';
    out.push(`  ${LABELS[entry.fate].padEnd(width)}  ${entry.path}${note}\n`);
  }
  for (const entry of upgrade.entries) {
    if (entry.before === entry.after) continue;
    out.push(`--- a/${entry.path}\n+++ b/${entry.path}\n${unifiedDiff(entry.before ?? '', entry.after ?? '')}`);
  }
  return out.join('');
}

/** The conflicts, file by file, each with the lines of the user's file. */
export function formatConflicts(upgrade: UpgradePlan): string {
  const parts = upgrade.conflicts.map(
    ({ path: file, lines }) => `${file} : ${lines.map((c) => (c.from === c.to ? `ligne ${c.from}` : `lignes ${c.from}-${c.to}`) + ` (${c.why})`).join(', ')}`,
  );
  return parts.join(' ; ');
}

/** The files the upgrade writes, for the writer (canonical: written whenever they differ), with the rest of the run. */
export function upgradeWrites(upgrade: UpgradePlan): PlannedFile[] {
  return upgrade.entries.flatMap((e) => (e.after !== null && e.after !== e.before ? [{ path: e.path, content: e.after, kind: 'canonical' as const }] : []));
}

/** Deletes the previous release's files the upgrade drops (an untouched `bulk_delete.html`), once the rest is written. */
export function removeDropped(root: string, upgrade: UpgradePlan): void {
  for (const entry of upgrade.entries) if (entry.fate === 'removed') fs.rmSync(path.join(root, entry.path));
}
