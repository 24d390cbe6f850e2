// fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Ville)
// The fields of the Ville form as mvc/entities/ville/ville.json describes them; ville_form.ts (yours) uses
// them. `fw sync:entity Ville` and `fw build:model` rewrite this file when the entity changes.
import { StringField } from 'fw-mvc';

/**
 * The fields of the create and edit pages, in the entity's order.
 */
export const VILLE_FIELDS = {
  nom: new StringField({ label: 'Nom', maxLength: 100 }),
  code_postal: new StringField({ label: 'Code postal', maxLength: 5 }),
};
