// fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Contact)
// The fields of the Contact form as mvc/entities/contact/contact.json describes them; contact_form.ts (yours) uses
// them. `fw sync:entity Contact` and `fw build:model` rewrite this file when the entity changes.
import { BooleanField, DateField, DateTimeField, DecimalField, EmailField, IntegerField, LinkRowsField, RelationField, StringField } from 'fw-mvc';

/**
 * The fields of the create and edit pages, in the entity's order.
 *
 * The choices of ville_id, tag_ids come from contact_crud.ts (`formChoices()`), passed by the controller.
 */
export const CONTACT_FIELDS = {
  nom: new StringField({ label: 'Nom', maxLength: 100 }),
  prenom: new StringField({ label: 'Prenom', maxLength: 100 }),
  email: new EmailField({ label: 'Email', maxLength: 190 }),
  telephone: new StringField({ label: 'Telephone', required: false, inputType: 'tel', maxLength: 20 }),
  date_naissance: new DateField({ label: 'Date naissance', required: false }),
  solde: new DecimalField({ label: 'Solde', required: false, maxDigits: 10, decimalPlaces: 2 }),
  nb_visites: new IntegerField({ label: 'Nb visites', min: 0, max: 4294967295 }),
  actif: new BooleanField({ label: 'Actif' }),
  ville_id: new RelationField({ label: 'Ville', required: false, integer: true }),
  tag_ids: new LinkRowsField({ name: 'tag_ids', label: 'Tags', rowLabel: 'Tag', required: false, fields: { ajoute_le: new DateTimeField({ label: 'Ajoute le' }) } }),
};
