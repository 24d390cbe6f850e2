/** "Did you mean …?" for unknown command names. */

/** Edit distance counting insertions, deletions, substitutions and swaps of two neighbours (`nwe` → `new` is 1). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      row.push(value);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

/**
 * The candidate closest to `input` when it looks like a typo (at most a third of its length, 3 edits at most),
 * or else the only candidate that starts with `input` (`make:ent` → `make:entity`).
 */
export function nearest(input: string, candidates: readonly string[]): string | undefined {
  const needle = input.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(needle, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const limit = Math.min(3, Math.max(1, Math.floor(needle.length / 3)));
  if (best !== undefined && bestDistance <= limit) return best;
  const prefixed = candidates.filter((candidate) => candidate.startsWith(needle));
  return needle.length >= 3 && prefixed.length === 1 ? prefixed[0] : undefined;
}
