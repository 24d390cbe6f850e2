/**
 * Adds entries to the application's menu in `mvc/routes.ts` (`router.menu('/path', 'Label')`, docs/crud.md "The
 * menu") for the generators whose routes come from a module call (the `mfa` starter's `/account/mfa`): an entry is
 * recognised by its path, so a second run changes no byte; the user's code stays as it was. A pure function.
 */
import { keepingBom, parse, parseErrors, RoutesEditError, spliceMenu } from './routes-edit.js';
import { declaredMenuPaths, type MenuToAdd } from './routes-lines.js';

export interface MenuEdit {
  readonly text: string;
  readonly added: readonly MenuToAdd[];
}

/** The menu entries of `entries` the file lacks, added at the end of `registerRoutes` after `// comment`. */
export function addMenu(text: string, file: string, entries: readonly MenuToAdd[], comment: string): MenuEdit {
  return keepingBom(text, (bare) => {
    const source = parse(bare);
    const errors = parseErrors(source);
    if (errors.length) throw new RoutesEditError(`${file} ne se lit pas (${errors.join(' ; ')}) : corrigez-le, puis relancez la commande.`, '');
    const declared = declaredMenuPaths(source);
    const missing = entries.filter((entry) => !declared.has(entry.path));
    return { text: missing.length === 0 ? bare : spliceMenu(bare, source, file, missing, comment), added: missing };
  });
}
