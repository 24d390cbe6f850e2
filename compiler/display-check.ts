/**
 * `display`, how a record of the entity is named (docs/entities.md "How a record is named"): a list of fields
 * joined by a space (`["nom"]`, `["prenom", "nom"]`), or a pattern whose `{field}`s are replaced by their values
 * (`"{prenom} {nom}"`, `"{nom} ({ville})"`). Each field must exist and hold a value worth reading: not a boolean,
 * a binary value or a float. The parts go to the IR; the emitters write the label's SQL and the runtime's pattern.
 */
import { pointerTo, type DiagnosticList } from './diagnostics.js';
import type { FieldDraft } from './field-check.js';
import type { DisplayPart } from './ir.js';
import { closest } from './naming.js';

/** Fields named in one `display`, at most. */
const MAX_DISPLAY_FIELDS = 5;

/** The parts of a pattern, or the text of what is wrong with it. */
function parsePattern(pattern: string): DisplayPart[] | string {
  const parts: DisplayPart[] = [];
  let rest = pattern;
  while (rest.length > 0) {
    const open = rest.indexOf('{');
    const close = rest.indexOf('}');
    if (close !== -1 && (open === -1 || close < open)) return `une accolade fermante « } » sans « { » avant elle`;
    if (open === -1) {
      parts.push({ text: rest });
      break;
    }
    if (open > 0) parts.push({ text: rest.slice(0, open) });
    const end = rest.indexOf('}', open);
    if (end === -1) return `une accolade « { » sans « } » après elle`;
    const name = rest.slice(open + 1, end).trim();
    if (!/^[a-z][a-z0-9_]*$/.test(name)) return `« {${rest.slice(open + 1, end)}} » ne nomme pas un champ (un nom en snake_case entre accolades)`;
    parts.push({ field: name });
    rest = rest.slice(end + 1);
  }
  return parts;
}

/** Checks `display`; its parts, or undefined when absent or refused. */
export function checkDisplay(value: unknown, fields: readonly FieldDraft[], file: string, diags: DiagnosticList): DisplayPart[] | undefined {
  if (value === undefined) return undefined;
  let parts: DisplayPart[];
  if (Array.isArray(value)) {
    if (!value.every((item) => typeof item === 'string') || value.length === 0) return undefined; // the schema said so
    parts = value.flatMap((name, i) => (i === 0 ? [{ field: name }] : [{ text: ' ' }, { field: name }]));
  } else if (typeof value === 'string') {
    const parsed = parsePattern(value);
    if (typeof parsed === 'string') {
      diags.add(file, '#/display', 'display', `display « ${value} » : ${parsed} ; écrivez les champs entre accolades, par exemple « {prenom} {nom} »`);
      return undefined;
    }
    parts = parsed;
  } else return undefined;
  const named = parts.flatMap((part) => ('field' in part ? [part.field] : []));
  if (named.length === 0) {
    diags.add(
      file,
      '#/display',
      'display',
      `display « ${String(value)} » ne nomme aucun champ ; écrivez-les entre accolades (« {nom} ») ou donnez une liste (["nom"])`,
    );
    return undefined;
  }
  if (new Set(named).size > MAX_DISPLAY_FIELDS) {
    diags.add(file, '#/display', 'display', `display nomme ${new Set(named).size} champs, ${MAX_DISPLAY_FIELDS} au plus ; gardez les plus parlants`);
    return undefined;
  }
  const byName = new Map(fields.map((f) => [f.name, f]));
  let ok = true;
  named.forEach((name, i) => {
    const pointer = Array.isArray(value) ? pointerTo('#/display', i) : '#/display';
    const field = byName.get(name);
    if (!field) {
      const near = closest(name, byName.keys());
      diags.add(
        file,
        pointer,
        'display',
        `display : aucun champ « ${name} » dans l'entité${near ? ` ; vouliez-vous dire « ${near} » ?` : ` ; champs : ${[...byName.keys()].join(', ')}`}`,
      );
      ok = false;
      return;
    }
    const type = field.node?.logicalType;
    if (type === 'bool' || type === 'bytes' || type === 'float') {
      const what = type === 'bool' ? 'un booléen (Oui / Non ne nomme personne)' : type === 'bytes' ? 'des octets' : 'un nombre à virgule flottante';
      diags.add(
        file,
        pointer,
        'display',
        `display : le champ « ${name} » est ${what} (${field.sqlType?.text ?? ''}) ; nommez l'enregistrement par un texte, un entier, un DECIMAL ou une date`,
      );
      ok = false;
    }
  });
  return ok ? parts : undefined;
}
