/**
 * A line diff in the unified format without context (`git diff -U0`), to show what an edit of `mvc/routes.ts`
 * would change (`fw make:crud --dry-run`): every line inserted, imports included, with where it goes. A pure
 * function: two texts in, the hunks out.
 */

/** Above this many cells, the middle of the two texts is shown as one replaced block (a routes file never gets there). */
const MAX_CELLS = 4_000_000;

type Op = { readonly kind: '=' | '-' | '+'; readonly line: string };

/** The longest common subsequence of two line lists, as a list of kept, removed and added lines. */
function lcsOps(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if (n * m > MAX_CELLS) return [...a.map((line) => ({ kind: '-' as const, line })), ...b.map((line) => ({ kind: '+' as const, line }))];
  // lengths[i][j]: the LCS of a[i..] and b[j..], flattened.
  const lengths = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number): number => i * (m + 1) + j;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[at(i, j)] = a[i] === b[j] ? lengths[at(i + 1, j + 1)]! + 1 : Math.max(lengths[at(i + 1, j)]!, lengths[at(i, j + 1)]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ kind: '=', line: a[i++]! });
      j++;
    } else if (j < m && (i === n || lengths[at(i, j + 1)]! >= lengths[at(i + 1, j)]!)) {
      ops.push({ kind: '+', line: b[j++]! });
    } else {
      ops.push({ kind: '-', line: a[i++]! });
    }
  }
  return ops;
}

/** `start,count` of a hunk side as git writes it: the count left out when 1; the line before when 0. */
function range(start: number, count: number): string {
  if (count === 0) return `${start - 1},0`;
  return count === 1 ? String(start) : `${start},${count}`;
}

/** The hunks turning `before` into `after` (`@@ -a,b +c,d @@` then `-` and `+` lines), '' when they are equal. */
export function unifiedDiff(before: string, after: string): string {
  const a = before.split(/\r?\n/);
  const b = after.split(/\r?\n/);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const ops = lcsOps(a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix));
  const out: string[] = [];
  let lineA = prefix + 1;
  let lineB = prefix + 1;
  for (let k = 0; k < ops.length;) {
    if (ops[k]!.kind === '=') {
      lineA++;
      lineB++;
      k++;
      continue;
    }
    const removed: string[] = [];
    const added: string[] = [];
    while (k < ops.length && ops[k]!.kind !== '=') {
      const op = ops[k++]!;
      (op.kind === '-' ? removed : added).push(op.line);
    }
    out.push(`@@ -${range(lineA, removed.length)} +${range(lineB, added.length)} @@`, ...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`));
    lineA += removed.length;
    lineB += added.length;
  }
  return out.length ? `${out.join('\n')}\n` : '';
}
