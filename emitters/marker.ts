/**
 * The first line of every regenerable file (docs/decisions.md#regenerable-and-manual-files:
 * base class and SQL are regenerable). The writer updates a file only while this line is still there; a user who removes it takes the
 * file over, and the writer then leaves it alone unless forced.
 */

import { createHash } from 'node:crypto';

/** The text the writer looks for on the first line, whatever the comment syntax. */
export const GENERATED_MARKER = 'fw-mvc: generated file, do not edit';

/** The command that regenerates an entity's files. */
export function syncEntityCommand(entityName: string): string {
  return `fw sync:entity ${entityName}`;
}

/** The command that regenerates the relation files. */
export const SYNC_RELATIONS_COMMAND = 'fw sync:relations';

/** `-- fw-mvc: generated file, do not edit (regenerate with: <command>)` */
export function sqlMarkerLine(command: string): string {
  return `-- ${GENERATED_MARKER} (regenerate with: ${command})`;
}

/** `// fw-mvc: generated file, do not edit (regenerate with: <command>)` */
export function tsMarkerLine(command: string): string {
  return `// ${GENERATED_MARKER} (regenerate with: ${command})`;
}

/** `{#- fw-mvc: generated file, do not edit (regenerate with: <command>) -#}` (a template, nunjucks comment). */
export function templateMarkerLine(command: string): string {
  return `{#- ${GENERATED_MARKER} (regenerate with: ${command}) -#}`;
}

const MARKER_LINE = new RegExp(`^\\s*(?:--|//|#|\\{#-?)\\s*${GENERATED_MARKER.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

/** True when the first line of `content` (a UTF-8 BOM allowed) is a generated-file marker. */
export function hasGeneratedMarker(content: string): boolean {
  const text = content.startsWith('\uFEFF') ? content.slice(1) : content;
  const end = text.search(/\r?\n/);
  return MARKER_LINE.test(end === -1 ? text : text.slice(0, end));
}

/**
 * The first line of a manual file a generator wrote (`// fw-mvc make:crud Contact sha256:… (…)`): the command, and
 * the SHA-256 (16 hex digits) of the rest of the file as it was written, so that `fw make:crud <Entity> --upgrade`
 * knows whether the user changed it and what to merge from (docs/decisions.md "Upgrading an entity's files"). It is
 * not the generated marker: the file stays the user's.
 */
export function withManualMarker(command: string, body: string, syntax: 'ts' | 'template'): string {
  const note = `fw-mvc ${command} sha256:${manualHash(body)} (your file: fw ${command} --upgrade merges a newer version into it)`;
  return `${syntax === 'ts' ? `// ${note}` : `{#- ${note} -#}`}\n${body}`;
}

/** The hash a manual marker records: the first 16 hex digits of the SHA-256 of the text below the marker. */
export function manualHash(body: string): string {
  return createHash('sha256').update(body, 'utf8').digest('hex').slice(0, 16);
}

const MANUAL_MARKER = /^(?:\/\/|\{#-?)\s*fw-mvc (\S+(?: \S+)*?) sha256:([0-9a-f]{16})\b/;

/** The manual marker of `content` (its first line), with the text below it; null when the file has none. */
export function readManualMarker(content: string): { readonly command: string; readonly hash: string; readonly body: string } | null {
  const end = content.indexOf('\n');
  const match = MANUAL_MARKER.exec(end === -1 ? content : content.slice(0, end));
  if (!match) return null;
  return { command: match[1]!, hash: match[2]!, body: end === -1 ? '' : content.slice(end + 1) };
}
