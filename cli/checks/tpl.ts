/**
 * Family `tpl` (FW-TPL-001, FW-TPL-002): the `.html` templates under `mvc/views/`, each parsed by nunjucks (the
 * engine the runtime renders with, runtime/templates/nunjucks.ts) without being rendered: a syntax error is a FAIL
 * with the file and line, an unreadable file a FAIL naming it; no template at all is a WARN. Read-only.
 */
import { result, type CheckDefinition, type CheckFunction, type CheckResult } from './check.js';
import { readSource, walkFiles } from './files.js';

function tpl(id: number, label: string): CheckDefinition {
  return { id: `FW-TPL-${String(id).padStart(3, '0')}`, family: 'tpl', label };
}

const D = {
  present: tpl(1, 'Gabarits .html'),
  syntax: tpl(2, 'Syntaxe des gabarits'),
} as const;

export const TPL_DEFINITIONS: readonly CheckDefinition[] = Object.values(D);

/** FW-TPL-001 and 002: templates present, and each one parsed. */
export const templatesCheck: CheckFunction = async ({ root }) => {
  const templates = walkFiles(root, 'mvc/views').files.filter((file) => file.endsWith('.html'));
  if (templates.length === 0) {
    return [
      result(D.present, 'WARN', 'aucun fichier .html sous mvc/views/', 'les pages du projet sont des gabarits nunjucks .html dans mvc/views/'),
      result(D.syntax, 'SKIP', 'aucun gabarit'),
    ];
  }
  const failures: CheckResult[] = [];
  for (const file of templates) {
    const failure = await templateSyntax(root, file, D.syntax);
    if (failure) failures.push(failure);
  }
  return [
    result(D.present, 'OK', `${templates.length} gabarit(s) sous mvc/views/`),
    ...(failures.length > 0 ? failures : [result(D.syntax, 'OK', `${templates.length} gabarit(s) analysé(s)`)]),
  ];
};

export const TPL_CHECKS: readonly CheckFunction[] = [templatesCheck];

/**
 * The syntax of one nunjucks template of the project: null when it parses, else a FAIL of `definition` naming the
 * file, and the line and column of the error. The parser alone (no environment, no loader, no render): the runtime
 * registers no custom tag, so its syntax is this. Shared by the `tpl` and `mail` families.
 */
export async function templateSyntax(root: string, file: string, definition: CheckDefinition): Promise<CheckResult | null> {
  const read = readSource(root, file);
  if (!read.ok) return { ...result(definition, 'FAIL', `${file} : ${read.reason}`), file };
  const { parser } = (await import('nunjucks')).default as unknown as { parser: { parse(src: string, extensions: unknown[], options: object): unknown } };
  try {
    parser.parse(read.text, [], {});
    return null;
  } catch (error) {
    const { lineno, colno } = error as { lineno?: number; colno?: number };
    const message = String((error as Error).message ?? error)
      .replace(/^\(unknown path\)\s*/, '')
      .split('\n')[0]!;
    const at = lineno ? `:${lineno}${colno ? `:${colno}` : ''}` : '';
    return {
      ...result(definition, 'FAIL', `${file}${at} : ${message}`, 'corrigez la balise nunjucks'),
      file,
      ...(lineno ? { line: lineno } : {}),
      ...(lineno && colno ? { column: colno } : {}),
    };
  }
}
