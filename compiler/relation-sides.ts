/**
 * The two sides of a many-to-many from an entity to itself (docs/entities.md "Relations (`mvc/entities/relations.json`)"): `from_name` and
 * `to_name` say what each side's record is (a mentor and a student, a page and the page it points to), and give
 * the pivot's columns and the form's fields; `from_label` / `to_label` what users read. Required on such a relation,
 * refused on the others (their sides are named after their entities).
 */
import { pointerTo, type DiagnosticList } from './diagnostics.js';
import { stringAt, type Json } from './field-check.js';
import type { RelationNode, RelationSides } from './ir.js';
import { humanLabel, pascalCase } from './naming.js';
import { isReservedWord } from './reserved-words.js';

const SIDE_KEYS = ['from_name', 'to_name', 'from_label', 'to_label'] as const;

/** The sides of a self many-to-many, undefined on another relation or when they are wrong (reported). */
export function checkSides(raw: Json, pointer: string, self: boolean, entity: string, file: string, diags: DiagnosticList): RelationSides | undefined {
  const at = (key: string): string => pointerTo(pointer, key);
  if (!self) {
    for (const key of SIDE_KEYS) {
      if (raw[key] !== undefined) {
        diags.add(
          file,
          at(key),
          'pivot',
          `« ${key} » ne s'applique qu'à une relation many_to_many d'une entité vers elle-même : retirez-le (les côtés portent le nom de leur entité)`,
        );
      }
    }
    return undefined;
  }
  const fromName = stringAt(raw, 'from_name');
  const toName = stringAt(raw, 'to_name');
  let ok = true;
  const missing = [fromName === undefined ? '« from_name »' : null, toName === undefined ? '« to_name »' : null].filter((k) => k !== null);
  if (missing.length > 0) {
    diags.add(
      file,
      pointer,
      'pivot',
      `relation many_to_many de « ${entity} » vers elle-même : nommez ses deux côtés avec « from_name » et « to_name » (par exemple « mentor » et « eleve ») : ils donnent les colonnes de la table pivot et les champs du formulaire ; ${missing.join(' et ')} ${missing.length > 1 ? 'manquent' : 'manque'}`,
    );
    ok = false;
  }
  for (const [key, value] of [
    ['from_name', fromName],
    ['to_name', toName],
  ] as const) {
    if (value !== undefined && isReservedWord(pascalCase(value))) {
      diags.add(file, at(key), 'reserved_word', `${key} « ${value} » : mot réservé SQL (MariaDB ou MySQL 8) ; choisissez un autre nom`);
      ok = false;
    }
  }
  if (fromName !== undefined && toName !== undefined && fromName === toName) {
    diags.add(
      file,
      at('to_name'),
      'pivot',
      `« from_name » et « to_name » valent tous deux « ${toName} » : les deux côtés ont besoin de noms différents (leurs colonnes dans la table pivot)`,
    );
    ok = false;
  }
  if (!ok || fromName === undefined || toName === undefined) return undefined;
  return {
    from: { name: fromName, label: stringAt(raw, 'from_label')?.trim() || humanLabel(fromName) },
    to: { name: toName, label: stringAt(raw, 'to_label')?.trim() || humanLabel(toName) },
  };
}

/** The pivot's column for one side: `<EntityName><KeyColumn>`, or `<SideName><KeyColumn>` on a self relation. */
export function pivotSideColumn(relation: Pick<RelationNode, 'sides'>, side: 'from' | 'to', entityName: string, keyColumn: string): string {
  return `${relation.sides ? pascalCase(relation.sides[side].name) : entityName}${keyColumn}`;
}

/** What the side's foreign key is suffixed with: the side's table, or on a self relation the side's name. */
export function pivotSideSuffix(relation: Pick<RelationNode, 'sides'>, side: 'from' | 'to', table: string): string {
  return relation.sides ? relation.sides[side].name : table;
}
