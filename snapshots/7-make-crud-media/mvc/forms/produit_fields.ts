// fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Produit)
// The fields of the Produit form as mvc/entities/produit/produit.json describes them; produit_form.ts (yours) uses
// them. `fw sync:entity Produit` and `fw build:model` rewrite this file when the entity changes.
import { StringField } from 'fw-mvc';

/**
 * The fields of the create and edit pages, in the entity's order.
 */
export const PRODUIT_FIELDS = {
  nom: new StringField({ label: 'Nom', maxLength: 100 }),
  reference: new StringField({ label: 'Reference', maxLength: 30 }),
};
