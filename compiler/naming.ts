/**
 * Naming rules of entity files (docs/entities.md "Entity files"; docs/decisions.md#entity-names-and-columns):
 * PascalCase entities and columns, snake_case folders, tables, fields, plurals and relation names.
 */

/** MariaDB's limit for table, column and constraint names. */
export const MAX_IDENTIFIER_LENGTH = 64;

export const PASCAL_CASE = /^[A-Z][A-Za-z0-9]*$/;
export const SNAKE_CASE = /^[a-z][a-z0-9_]*$/;

/** `ContactClient` → `contact_client`, `HTTPServer` → `http_server`, `dateNaissance` → `date_naissance`. */
export function snakeCase(name: string): string {
  return name
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .replace(/[\s-]+/g, '_')
    .replace(/_+/g, '_')
    .toLowerCase();
}

/** `date_naissance` → `DateNaissance`, `id` → `Id`, `contact client` → `ContactClient`. */
export function pascalCase(name: string): string {
  return name
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/**
 * The label shown for a field without `label` (docs/entities.md "Labels"): the name with a capital and spaces, a
 * trailing `_id` dropped: `date_naissance` → `Date naissance`, `ville_id` → `Ville`, `id` → `Id`.
 */
export function humanLabel(name: string): string {
  const spaced = name.replace(/_id$/, '').replace(/_+/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/**
 * Letters with accents as their base letter, and the French ligatures spelt out: `prénom` → `prenom`,
 * `Écrou` → `Ecrou`, `cœur` → `coeur`, `Straße` → `Strasse`. Anything else is left as it is.
 */
export function transliterate(text: string): string {
  return text.replace(/œ/g, 'oe').replace(/Œ/g, 'Oe').replace(/æ/g, 'ae').replace(/Æ/g, 'Ae').replace(/ß/g, 'ss').normalize('NFD').replace(/\p{M}/gu, '');
}

/**
 * The valid entity name (PascalCase) for what a user typed, accents and punctuation dropped: `produit` → `Produit`,
 * `ligne_commande` → `LigneCommande`, `ligne-commande` → `LigneCommande`, `Écrou` → `Ecrou`, `LigneCommande`
 * unchanged. Null when nothing usable is left (`123`, `_`).
 */
export function entityNameFrom(typed: string): string | null {
  // An entity name starts with a letter: whatever comes before the first one is dropped (`2fa_code` → `FaCode`).
  const ascii = transliterate(typed).replace(/^[^A-Za-z]+/, '');
  const words = ascii.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
  return PASCAL_CASE.test(name) ? name : null;
}

/** Project-relative path of an entity's canonical file: `ContactClient` → `mvc/entities/contact_client/contact_client.json`. */
export function toEntityFileName(name: string): string {
  const snake = snakeCase(name);
  return `mvc/entities/${snake}/${snake}.json`;
}

/** Route plural: the snake name plus `s`, unless it already ends in s, x or z (docs/decisions.md#entity-names-and-columns). */
export function defaultPlural(snake: string): string {
  return /[sxz]$/.test(snake) ? snake : `${snake}s`;
}

/** The closest candidate to a misspelt name (edit distance), or undefined when none is close enough. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(2, Math.floor(word.length / 3));
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const other = candidate.toLowerCase();
    // A prefix counts as close: `integer` → `int`, `ville` → `ville_id`.
    const prefix = Math.min(lower.length, other.length) >= 3 && (lower.startsWith(other) || other.startsWith(lower));
    const d = prefix ? 1 : distance(lower, other);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** Edit distance where swapping two neighbouring letters counts as one edit (`tabel` → `table`: 1, like `label`). */
function distance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (before[j - 2] ?? 0) + 1);
      current[j] = d;
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}
