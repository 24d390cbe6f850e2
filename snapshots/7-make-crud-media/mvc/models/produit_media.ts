// fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Produit)
// The media of the Produit pages as mvc/entities/produit/produit.json describes them (its "media" entries):
// produit_controller.ts and produit_model.ts (yours) use it; `fw sync:entity Produit` and `fw build:model` rewrite it
// when the entity changes. The rows of the `media` table name the entity 'Produit'.
import { MediaPages } from 'fw-mvc/media';
import { PRODUIT_CRUD } from './produit_crud.js';

export const MEDIA = new MediaPages('Produit', [
  { name: 'photo', label: 'Photo', kind: 'image', role: 'cover', multiple: false, variants: true },
  { name: 'galerie', label: 'Galerie', kind: 'image', role: 'gallery', multiple: true, variants: true },
  { name: 'notice', label: 'Notice', kind: 'file', role: 'notice', multiple: false, variants: false },
  { name: 'pieces_jointes', label: 'Pièces jointes', kind: 'file', role: 'pieces_jointes', multiple: true, variants: false },
], {
  // Who may open a record's detail page (the role block, produit_crud.ts): its files in private categories at
  // /media follow the same rule.
  mayShow: (request) => PRODUIT_CRUD.allowed(request, 'show'),
  table: PRODUIT_CRUD.table,
  keyColumn: PRODUIT_CRUD.key.column,
});
