/** Diagnostics of definition files: JSON pointers, a collector, and the `[ERREUR] <file><pointer> : <message>` lines. */
import type { Diagnostic } from './ir.js';

/** `#/fields/2` + `sql_type` → `#/fields/2/sql_type` (RFC 6901 escaping of `~` and `/`). */
export function pointerTo(base: string, ...segments: Array<string | number>): string {
  return segments.reduce<string>((pointer, segment) => `${pointer}/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`, base);
}

/** Ajv's `instancePath` (`/fields/2`) → `#/fields/2`. */
export function fromInstancePath(instancePath: string): string {
  return `#${instancePath}`;
}

/** Collects the diagnostics of one compilation. */
export class DiagnosticList {
  readonly items: Diagnostic[] = [];

  add(file: string, pointer: string, code: string, message: string): void {
    this.items.push(Object.freeze({ file, pointer, message, code }));
  }

  /** How many diagnostics name this file so far. */
  countFor(file: string): number {
    return this.items.filter((d) => d.file === file).length;
  }

  sorted(): Diagnostic[] {
    return sortDiagnostics(this.items);
  }
}

/** Sorted by file, then pointer segment by segment (`#/fields/2` before `#/fields/10`), then message. */
export function sortDiagnostics(diags: readonly Diagnostic[]): Diagnostic[] {
  return [...diags].sort((a, b) => compareText(a.file, b.file) || comparePointers(a.pointer, b.pointer) || compareText(a.message, b.message));
}

/** One line per diagnostic, `[ERREUR] <file><pointer> : <message>`, sorted; empty text when there is none. */
export function formatDiagnostics(diags: readonly Diagnostic[]): string {
  return sortDiagnostics(diags)
    .map((d) => `[ERREUR] ${d.file}${d.pointer} : ${d.message}\n`)
    .join('');
}

function comparePointers(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const x = left[i] ?? '';
    const y = right[i] ?? '';
    if (x === y) continue;
    if (/^\d+$/.test(x) && /^\d+$/.test(y)) return Number(x) - Number(y);
    return compareText(x, y);
  }
  return left.length - right.length;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
