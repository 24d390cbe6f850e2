// fw-mvc make:crud Contact sha256:8b3126f95ffedec3 (your file: fw make:crud Contact --upgrade merges a newer version into it)
// Form of the Contact pages (fw make:crud Contact): its fields are CONTACT_FIELDS (contact_fields.ts, which
// `fw sync:entity Contact` keeps in step with the entity). This file is yours: fw make:crud Contact never overwrites
// it. Add rules in clean(); the entity's own checks (contact_base.ts) run after these. To add a field of your
// own: `static fields = { ...CONTACT_FIELDS, extra: new StringField() }` and `Form<typeof ContactForm.fields>`.
import { Form } from 'fw-mvc';
import { CONTACT_FIELDS } from './contact_fields.js';

export class ContactForm extends Form<typeof CONTACT_FIELDS> {
  static fields = CONTACT_FIELDS;
}
