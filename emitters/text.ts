/** The last step of every emitter: lines to file text. */

/** Joins lines with LF and ends the text with exactly one newline (generated files never end blank). */
export function fileText(lines: readonly string[]): string {
  return lines.join('\n').replace(/\n+$/, '') + '\n';
}

/** A single-quoted TypeScript string literal. */
export function tsString(value: string): string {
  return `'${value
    .replace(/\\/g, '\\\\')
    .replace(/'/g, "\\'")
    .replace(/\r/g, '\\r')
    .replace(/\n/g, '\\n')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')}'`;
}

/** Text safe on one comment line (names come from user files; a newline would end the comment). */
export function commentText(value: string): string {
  return value.replace(/[\r\n\u2028\u2029]+/g, ' ');
}

/** Code-unit order: deterministic whatever the machine's locale (unlike localeCompare). */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
