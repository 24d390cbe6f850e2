/**
 * What `fw make:crud` (and `fw starter:build`, which runs it) says about the routes already in `mvc/routes.ts`: the
 * mismatches found by the routes edit (emitters/codemods/routes-edit.ts), the line as written and as it should read.
 */
import type { RouteMismatch } from '../codemods/routes-public.js';

/** The lines without the indentation they all share. */
function dedent(lines: readonly string[]): string[] {
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0);
  const common = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(common));
}

/**
 * What `fw make:crud` says about the routes already in `file`: their number and, when some have another public flag
 * than the one asked (`wantedPublic`), each of them, the line as written and as it should read, and what to do.
 */
export function existingRoutesReport(file: string, existing: number, mismatched: readonly RouteMismatch[], wantedPublic: boolean): string {
  if (mismatched.length === 0) return `Routes déjà présentes dans ${file} : ${existing}.\n`;
  const state = wantedPublic ? 'protégées alors que --public est demandé' : "publiques alors que --public n'est pas demandé";
  const out = [`Routes déjà présentes dans ${file} : ${existing}, dont ${mismatched.length} ${state} :`];
  for (const m of mismatched) {
    const before = m.before.split(/\r?\n/);
    const shown = dedent([...before, ...m.after.split(/\r?\n/)]);
    out.push(`  ligne ${m.line} :`, ...shown.slice(0, before.length).map((l) => `    - ${l}`), ...shown.slice(before.length).map((l) => `    + ${l}`));
  }
  const fix = wantedPublic
    ? `remplacez ces lignes par les lignes « + » pour rendre ces routes publiques (sans connexion), ou relancez sans --public pour les garder protégées`
    : `remplacez ces lignes par les lignes « + » pour que ces routes exigent une connexion, ou relancez avec --public pour les garder publiques`;
  out.push(`Conseil : fw make:crud ne modifie pas les routes existantes (c'est votre code) : dans ${file}, ${fix}.`);
  return `${out.join('\n')}\n`;
}
