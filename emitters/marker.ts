/**
 * The first line of every regenerable file (docs/decisions.md#regenerable-and-manual-files:
 * base class and SQL are regenerable). The writer updates a file only while this line is still there; a user who removes it takes the
 * file over, and the writer then leaves it alone unless forced.
 */

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
