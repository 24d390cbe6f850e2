// Form of the entity Ville. This file is yours: `fw make:crud Ville` created it once and never
// overwrites it. Add rules in clean(); the entity's own checks (ville_base.ts) run after these.
import { Form, StringField } from 'fw-mvc';

/**
 * The fields of the create and edit pages, from mvc/entities/ville/ville.json.
 */
export class VilleForm extends Form {
  static fields = {
    nom: new StringField({ label: 'Nom', maxLength: 100 }),
    code_postal: new StringField({ label: 'Code postal', maxLength: 5 }),
  };
}
