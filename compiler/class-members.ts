/**
 * Names a field cannot take because the generated base class (emitters/base-class.ts) already uses them: its
 * field values are instance properties named after the fields (`this.<name>`), beside the class's own methods
 * and what every object inherits. A field named `validate` would replace the method with a string; one named
 * `constructor` cannot be declared at all. Static members (`entity`, `table`, `columns`, `fromRow`…) live on
 * the class, not on instances, and do not collide.
 */

/** Instance members of `<Entity>Base`. */
const GENERATED_MEMBERS = ['constructor', 'validate', 'isValid', 'toRow'] as const;

/** What every object inherits from Object.prototype: a property of that name would hide it. */
const INHERITED_MEMBERS = [
  '__proto__',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  'toString',
  'valueOf',
] as const;

/**
 * What already holds `name` in the generated class of `baseFile` (a French phrase: « le constructeur de la
 * classe générée … »), or undefined when a field may take that name.
 */
export function classMemberConflict(name: string, baseFile = '<entité>_base.ts'): string | undefined {
  if (name === 'constructor') return `le constructeur de la classe générée (${baseFile})`;
  if ((GENERATED_MEMBERS as readonly string[]).includes(name)) return `la méthode ${name}() de la classe générée (${baseFile})`;
  if ((INHERITED_MEMBERS as readonly string[]).includes(name)) return `la méthode ${name}() que tout objet JavaScript hérite`;
  return undefined;
}

/**
 * Names a form field cannot take (docs/entities.md "Limits and reserved names"): the keys a form gives its template
 * beside its fields (the runtime refuses such a form: `FormDefinitionError`), and the CSRF input every generated
 * form carries, whose value would be taken for the field's. test/compiler-framework-names.test.ts compares it
 * with the runtime's lists.
 */
export const FORM_RESERVED_NAMES: readonly string[] = ['fields', 'errors', 'non_field_errors', 'is_bound', 'csrf_token'];

/** What already holds `name` in a generated form (a French phrase), or undefined when a field may take it. */
export function formNameConflict(name: string): string | undefined {
  if (name === 'csrf_token') return 'le champ caché du jeton CSRF que porte chaque formulaire';
  if (FORM_RESERVED_NAMES.includes(name)) return `la clé « ${name} » que le formulaire donne à son gabarit`;
  return undefined;
}
