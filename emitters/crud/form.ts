/** `mvc/forms/<snake>_form.ts`: the form of the create and edit pages (manual file). */
import type { FieldNode } from '../../compiler/ir.js';
import type { CrudField, CrudPlan } from './plan.js';

/** Bounds of the integer types (signed, unsigned); BIGINT is bounded by the form's safe-integer check. */
const INT_BOUNDS: Readonly<Record<string, readonly [bigint, bigint]>> = {
  TINYINT: [-128n, 127n],
  SMALLINT: [-32768n, 32767n],
  MEDIUMINT: [-8388608n, 8388607n],
  INT: [-2147483648n, 2147483647n],
  INTEGER: [-2147483648n, 2147483647n],
};

function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function intBounds(field: FieldNode): string[] {
  const bounds = INT_BOUNDS[field.sqlType.base];
  if (field.sqlType.unsigned) return bounds ? ['min: 0', `max: ${(bounds[1] - bounds[0]).toString()}`] : ['min: 0'];
  return bounds ? [`min: ${bounds[0].toString()}`, `max: ${bounds[1].toString()}`] : [];
}

/** The field's declaration: `new StringField({ label: 'Nom', maxLength: 100 })`. */
function declaration(f: CrudField): { className: string; code: string } {
  const field = f.field;
  const options = [`label: ${quote(f.label)}`];
  // A checkbox is never required: unchecked means false.
  if (field.nullable && f.input !== 'bool') options.push('required: false');
  const maxLength = field.maxLength !== null ? [`maxLength: ${field.maxLength}`] : [];
  let className: string;
  switch (f.input) {
    case 'relation':
      className = 'RelationField';
      break;
    case 'bool':
      className = 'BooleanField';
      break;
    case 'int':
      className = 'IntegerField';
      options.push(...intBounds(field));
      break;
    case 'decimal':
      className = 'DecimalField';
      if (field.sqlType.base === 'DECIMAL' && field.sqlType.args.length > 0) {
        options.push(`maxDigits: ${field.sqlType.args[0]}`, `decimalPlaces: ${field.sqlType.args[1] ?? 0}`);
      }
      if (field.sqlType.unsigned) options.push("min: '0'");
      break;
    case 'date':
      className = 'DateField';
      break;
    case 'datetime':
      className = 'DateTimeField';
      break;
    case 'time':
      className = 'StringField';
      options.push("inputType: 'time'", 'regex: /^([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d)?$/');
      break;
    case 'textarea':
      className = 'TextAreaField';
      options.push(...maxLength);
      break;
    case 'email':
      className = 'EmailField';
      options.push(...maxLength);
      break;
    case 'url':
      className = 'UrlField';
      options.push(...maxLength);
      break;
    case 'tel':
      className = 'StringField';
      options.push("inputType: 'tel'", ...maxLength);
      break;
    default:
      className = 'StringField';
      options.push(...maxLength);
  }
  return { className, code: `new ${className}({ ${options.join(', ')} })` };
}

export function emitCrudForm(plan: CrudPlan): string {
  const declarations = plan.formFields.map((f) => ({ name: f.field.name, ...declaration(f) }));
  const classes = [...new Set(['Form', ...declarations.map((d) => d.className)])].sort();
  const relationNote = plan.relations.length
    ? `\n *\n * The choices of ${plan.relations.map((r) => r.field.name).join(', ')} come from the model (${plan.relations.map((r) => `\`${plan.modelClass}.${r.choicesMethod}()\``).join(', ')}), passed by the controller.`
    : '';
  return `// Form of the entity ${plan.entityClass}. This file is yours: \`fw make:crud ${plan.entityClass}\` created it once and never
// overwrites it. Add rules in clean(); the entity's own checks (${plan.entity.snake}_base.ts) run after these.
import { ${classes.join(', ')} } from 'fw-mvc';

/**
 * The fields of the create and edit pages, from mvc/entities/${plan.entity.snake}/${plan.entity.snake}.json.${relationNote}
 */
export class ${plan.formClass} extends Form {
  static fields = {
${declarations.map((d) => `    ${d.name}: ${d.code},`).join('\n')}
  };
}
`;
}
