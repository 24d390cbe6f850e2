// Form of the entity Contact. This file is yours: `fw make:crud Contact` created it once and never
// overwrites it. Add rules in clean(); the entity's own checks (contact_base.ts) run after these.
import { BooleanField, DateField, DecimalField, EmailField, Form, IntegerField, RelationField, StringField } from 'fw-mvc';

/**
 * The fields of the create and edit pages, from mvc/entities/contact/contact.json.
 *
 * The choices of ville_id come from the model (`ContactModel.villeIdChoices()`), passed by the controller.
 */
export class ContactForm extends Form {
  static fields = {
    nom: new StringField({ label: 'Nom', maxLength: 100 }),
    prenom: new StringField({ label: 'Prenom', maxLength: 100 }),
    email: new EmailField({ label: 'Email', maxLength: 190 }),
    telephone: new StringField({ label: 'Telephone', required: false, inputType: 'tel', maxLength: 20 }),
    date_naissance: new DateField({ label: 'Date naissance', required: false }),
    solde: new DecimalField({ label: 'Solde', required: false, maxDigits: 10, decimalPlaces: 2 }),
    nb_visites: new IntegerField({ label: 'Nb visites', min: 0, max: 4294967295 }),
    actif: new BooleanField({ label: 'Actif' }),
    ville_id: new RelationField({ label: 'Ville', required: false }),
  };
}
