/**
 * The three-way merge of one user file by `fw make:crud --upgrade` (docs/decisions.md "Upgrading an entity's
 * files"): what the generator wrote (base), the user's file, what the generator writes now (next), section by section
 * (file-sections.ts), a section both changed line by line (node-diff3). Pure: three texts in, the merged text or the
 * conflicting lines of the user's file out.
 */
import { diff3Merge } from 'node-diff3';
import { fileSections, importText, type Section } from './file-sections.js';

export interface MergeConflict {
  /** Lines of the user's file (1-based, inclusive). */
  readonly from: number;
  readonly to: number;
  readonly why: string;
}

export type MergeResult =
  { readonly text: string; readonly conflicts?: undefined } | { readonly text?: undefined; readonly conflicts: readonly MergeConflict[] };

interface Placed {
  readonly key: string;
  text: string;
  /** Taken from the user's file (their addition, or their change): the imports it uses are kept. */
  readonly user: boolean;
}

/** The lines of a section, its leading blank lines left out (the trivia before a statement). */
function sectionLines(section: Section): { from: number; to: number } {
  const lead = /^\s*/.exec(section.text)![0];
  const skipped = lead.slice(0, lead.lastIndexOf('\n') + 1).split('\n').length - 1;
  const lines = section.text.split('\n').length - 1;
  return { from: section.line + skipped, to: Math.max(section.line + skipped, section.line + lines) };
}

/** A section changed on both sides, merged line by line: the text, or the lines of the user's file in conflict. */
function lineMerge(base: string, user: Section, next: string): { text: string } | { conflicts: MergeConflict[] } {
  const regions = diff3Merge(user.text.split('\n'), base.split('\n'), next.split('\n'), { excludeFalseConflicts: true });
  const out: string[] = [];
  const conflicts: MergeConflict[] = [];
  for (const region of regions) {
    if (region.ok) out.push(...region.ok);
    else if (region.conflict) {
      const from = user.line + region.conflict.aIndex;
      conflicts.push({ from, to: from + Math.max(0, region.conflict.a.length - 1), why: 'modifiées par vous et par la nouvelle version' });
    }
  }
  return conflicts.length > 0 ? { conflicts } : { text: out.join('\n') };
}

/** Both sides changed the names of one import: the new names, plus those the user added, less those the user removed. */
function importMerge(base: Section, user: Section, next: Section): string | null {
  if (!base.names || !user.names || !next.names) return null;
  const added = user.names.filter((n) => !base.names!.includes(n));
  const removed = base.names.filter((n) => !user.names!.includes(n));
  return importText(next, [...next.names.filter((n) => !removed.includes(n)), ...added.filter((n) => !next.names!.includes(n))]);
}

/** The merge of the user's file `user` (base: what the generator wrote; next: what it writes now). */
export function mergeThreeWays(path: string, base: string, user: string, next: string): MergeResult {
  const [b, u, n] = [fileSections(path, base), fileSections(path, user), fileSections(path, next)];
  const byKey = (list: Section[]): Map<string, Section> => new Map(list.map((s) => [s.key, s]));
  const [B, U, N] = [byKey(b), byKey(u), byKey(n)];
  const conflicts: MergeConflict[] = [];
  const result: Placed[] = [];
  for (const section of n) {
    const was = B.get(section.key);
    const mine = U.get(section.key);
    if (mine === undefined) {
      // Deleted by the user: gone, unless the new version changed it.
      if (was === undefined) result.push({ key: section.key, text: section.text, user: false });
      else if (was.text !== section.text)
        conflicts.push({ ...sectionLines(was), why: 'supprimées par vous, changées par la nouvelle version (lignes du fichier écrit alors)' });
      continue;
    }
    if (mine.text === section.text || mine.text === (was?.text ?? null)) {
      result.push({ key: section.key, text: section.text, user: false });
    } else if (was !== undefined && was.text === section.text) {
      result.push({ key: section.key, text: mine.text, user: true });
    } else {
      const names = was && importMerge(was, mine, section);
      if (names) {
        result.push({ key: section.key, text: names, user: false });
        continue;
      }
      const merged = lineMerge(was?.text ?? '', mine, section.text);
      if ('conflicts' in merged) conflicts.push(...merged.conflicts);
      else result.push({ key: section.key, text: merged.text, user: true });
    }
  }
  // What the new version has no more: the user's additions stay, placed after what preceded them in their file.
  const order = u.map((s) => s.key);
  for (const [index, section] of u.entries()) {
    if (N.has(section.key)) continue;
    const was = B.get(section.key);
    if (was !== undefined && was.text === section.text) continue;
    if (was !== undefined && !section.keepWhenRemoved) {
      conflicts.push({ ...sectionLines(section), why: "modifiées par vous ; la nouvelle version n'a plus cette partie (elle est celle du framework)" });
      continue;
    }
    result.splice(placeAt(result, order, index, section), 0, { key: section.key, text: section.text, user: true });
  }
  if (conflicts.length > 0) return { conflicts: conflicts.sort((x, y) => x.from - y.from) };
  if (path.endsWith('.ts')) keepUsedDeclarations(result, u);
  const text = result.map((p) => p.text).join('');
  return { text: path.endsWith('.ts') ? keepUsedImports(text, result, u, N) : text };
}

/** Where a section of the user's file the result lacks goes: after the nearest section before it that the result has. */
function placeAt(result: readonly Placed[], order: readonly string[], index: number, section: Section): number {
  for (let i = index - 1; i >= 0; i--) {
    const at = result.findIndex((p) => p.key === order[i]);
    if (at === -1) continue;
    // A class member whose earlier members are all gone goes at the end of its class, after the new version's comments.
    if (section.container !== undefined && order[i] === section.container) break;
    // After the additions already placed there that came before it in the user's file.
    let after = at + 1;
    while (after < result.length && result[after]!.user && order.indexOf(result[after]!.key) > i && order.indexOf(result[after]!.key) < index) after++;
    return after;
  }
  if (section.container !== undefined) {
    const end = result.findIndex((p) => p.key === `${section.container}/end`);
    if (end !== -1) return end;
  }
  const lastImport = result.map((p) => p.key.startsWith('import ')).lastIndexOf(true);
  return lastImport + 1;
}

/** The names the user's kept code reads: comments and plain strings left out, and a property (`.name`) is not a name. */
function usedNames(result: readonly Placed[]): Set<string> {
  const code = result
    .filter((p) => p.user && !p.key.startsWith('import '))
    .map((p) => p.text)
    .join('\n')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/[^\n]*/g, '')
    .replace(/'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"/g, "''");
  return new Set(code.match(/(?<![.\w$])[A-Za-z_$][\w$]*/g) ?? []);
}

/**
 * A top-level declaration of the user's file that the new version drops (a helper, a constant of the older
 * controller) stays while the kept code uses it, and so do those it uses in turn.
 */
function keepUsedDeclarations(result: Placed[], user: readonly Section[]): void {
  const order = user.map((s) => s.key);
  for (let changed = true; changed;) {
    changed = false;
    const used = usedNames(result);
    for (const [index, section] of user.entries()) {
      if (!section.key.startsWith('declaration ') || result.some((p) => p.key === section.key)) continue;
      const names = section.key.slice('declaration '.length).split(/[^\w$]+/);
      if (!names.some((name) => used.has(name))) continue;
      result.splice(placeAt(result, order, index, section), 0, { key: section.key, text: section.text, user: true });
      changed = true;
    }
  }
}

/** A name the kept code of the user uses keeps its import: added to the new import of that module, or imported again. */
function keepUsedImports(text: string, result: readonly Placed[], user: readonly Section[], next: ReadonlyMap<string, Section>): string {
  const used = usedNames(result);
  if (used.size === 0) return text;
  const imported = new Set(fileSections('merged.ts', text).flatMap((s) => (s.key.startsWith('import ') ? localNames(s) : [])));
  const missing = new Map<Section, string[]>();
  for (const section of user) {
    if (!section.key.startsWith('import ')) continue;
    const lost = localNames(section).filter((name) => used.has(name) && !imported.has(name));
    if (lost.length > 0) missing.set(section, lost);
  }
  if (missing.size === 0) return text;
  let out = text;
  for (const [section, lost] of missing) {
    const ofModule = next.get(section.key);
    const written = section.names ? section.names.filter((n) => lost.includes(n.split(/\s+as\s+|\s+/).pop()!)) : null;
    if (ofModule?.names && written && out.includes(ofModule.text)) {
      out = out.replace(ofModule.text, importText(ofModule, [...ofModule.names, ...written]));
    } else {
      const line = written ? importText(section, written) : section.text;
      const imports = fileSections('merged.ts', out).filter((s) => s.key.startsWith('import '));
      const last = imports[imports.length - 1];
      const at = last ? out.indexOf(last.text) + last.text.length : 0;
      out = `${out.slice(0, at)}\n${line}${out.slice(at)}`;
    }
  }
  return out;
}

/** The local names an import binds. */
function localNames(section: Section): string[] {
  if (section.names) return section.names.map((n) => n.split(/\s+as\s+|\s+/).pop()!);
  const star = /\*\s+as\s+(\w+)/.exec(section.text);
  const single = /import\s+(?:type\s+)?(\w+)\s+from/.exec(section.text);
  return [star?.[1], single?.[1]].filter((n): n is string => n !== undefined);
}
