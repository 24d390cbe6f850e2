/** The fields of the create and edit pages (regenerable); the form class is the user's (stubs/form.ts.stub). */
import { syncEntityCommand, tsMarkerLine } from '../marker.js';
import { tsString } from '../text.js';
import { declaration } from './field-declaration.js';
import { hasPivotInputs, linkRowsDeclaration } from './pivot.js';
import type { CrudPlan } from './plan.js';

/** `mvc/forms/<snake>_fields.ts` (regenerable): the form's fields as the entity file describes them. */
export function emitCrudFormFields(plan: CrudPlan): string {
  const declarations = [
    ...plan.formFields.map((f) => ({ name: f.field.name, ...declaration(f) })),
    ...plan.links.map((l) =>
      hasPivotInputs(l)
        ? { name: l.name, ...linkRowsDeclaration(l) }
        : { name: l.name, className: 'RelatedIdsField', code: `new RelatedIdsField({ label: ${tsString(l.label)}, required: false })` },
    ),
  ];
  const classes = [...new Set(declarations.flatMap((d) => ['classes' in d ? d.classes : [], d.className].flat()))].sort();
  const choiceFields = [...plan.relations.map((r) => r.field.name), ...plan.links.map((l) => l.name)];
  const choicesNote = choiceFields.length
    ? `\n *\n * The choices of ${choiceFields.join(', ')} come from ${plan.crudModule}.ts (\`formChoices()\`), passed by the controller.`
    : '';
  const command = syncEntityCommand(plan.entityClass);
  return `${tsMarkerLine(command)}
// The fields of the ${plan.entityClass} form as ${plan.entity.file} describes them; ${plan.entity.snake}_form.ts (yours) uses
// them. \`${command}\` and \`fw build:model\` rewrite this file when the entity changes.
import { ${classes.join(', ')} } from 'fw-mvc';

/**
 * The fields of the create and edit pages, in the entity's order.${choicesNote}
 */
export const ${plan.fieldsConst} = {
${declarations.map((d) => `  ${d.name}: ${d.code},`).join('\n')}
};
`;
}
