// fw-mvc make:crud Ville sha256:d294cb6f369eb666 (your file: fw make:crud Ville --upgrade merges a newer version into it)
// Form of the Ville pages (fw make:crud Ville): its fields are VILLE_FIELDS (ville_fields.ts, which
// `fw sync:entity Ville` keeps in step with the entity). This file is yours: fw make:crud Ville never overwrites
// it. Add rules in clean(); the entity's own checks (ville_base.ts) run after these. To add a field of your
// own: `static fields = { ...VILLE_FIELDS, extra: new StringField() }` and `Form<typeof VilleForm.fields>`.
import { Form } from 'fw-mvc';
import { VILLE_FIELDS } from './ville_fields.js';

export class VilleForm extends Form<typeof VILLE_FIELDS> {
  static fields = VILLE_FIELDS;
}
