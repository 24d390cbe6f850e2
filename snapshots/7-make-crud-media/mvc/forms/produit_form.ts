// fw-mvc make:crud Produit sha256:83d5500ba6dc90b5 (your file: fw make:crud Produit --upgrade merges a newer version into it)
// Form of the Produit pages (fw make:crud Produit): its fields are PRODUIT_FIELDS (produit_fields.ts, which
// `fw sync:entity Produit` keeps in step with the entity). This file is yours: fw make:crud Produit never overwrites
// it. Add rules in clean(); the entity's own checks (produit_base.ts) run after these. To add a field of your
// own: `static fields = { ...PRODUIT_FIELDS, extra: new StringField() }` and `Form<typeof ProduitForm.fields>`.
import { Form } from 'fw-mvc';
import { PRODUIT_FIELDS } from './produit_fields.js';

export class ProduitForm extends Form<typeof PRODUIT_FIELDS> {
  static fields = PRODUIT_FIELDS;
}
