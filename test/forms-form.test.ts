/** The Form lifecycle (docs/api-mapping.md "Form"): binding, fromRequest, errors, clean(), context(), re-display. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  BooleanField,
  DateTimeField,
  DecimalField,
  DuplicateError,
  EmailField,
  FileField,
  Form,
  FormDefinitionError,
  FormValidationError,
  IntegerField,
  NunjucksRenderer,
  RelatedIdsField,
  RelationField,
  Request,
  StringField,
  TextAreaField,
  UnknownFieldError,
  UploadedFile,
  type CleanedData,
  type FieldContext,
} from '../runtime/index.js';
import { FRAMEWORK_VIEWS } from '../runtime/paths.js';

class ContactForm extends Form {
  static fields = {
    nom: new StringField({ label: 'Nom', maxLength: 20 }),
    email: new EmailField({ label: 'Email' }),
    age: new IntegerField({ label: 'Âge', required: false, min: 0, helpText: 'En années' }),
    ville_id: new RelationField({ label: 'Ville' }),
    tags: new RelatedIdsField({ label: 'Étiquettes', required: false }),
    actif: new BooleanField({ label: 'Actif', initial: true }),
    remarque: new TextAreaField({ required: false }),
    piece: new FileField({ label: 'Pièce', required: false, extensions: ['pdf'] }),
  };
}

const villes = [
  [1, 'Paris'],
  [2, 'Lyon'],
] as const;
const pdf = new UploadedFile('cv.pdf', 'application/pdf', Buffer.from('%PDF-1.4'), 'piece');

function postRequest(body: Record<string, string[]>, files: Record<string, UploadedFile> = {}): Request {
  return new Request({ method: 'POST', path: '/contacts', body, files });
}

test('an unbound form is not valid, has no errors and shows initial values', () => {
  const form = new ContactForm(null, { initial: { nom: 'Durand', age: 42, tags: [3, 4], actif: false }, choices: { ville_id: villes } });
  assert.is(form.isBound, false);
  assert.is(form.isValid(), false);
  assert.equal(form.errors, {});
  assert.equal(form.nonFieldErrors, []);
  assert.equal(form.cleanedData, {});
  assert.equal(form.fieldNames, ['nom', 'email', 'age', 'ville_id', 'tags', 'actif', 'remarque', 'piece']);
  assert.is(form.value('nom'), 'Durand');
  assert.is(form.value('age'), '42');
  assert.is(form.value('tags'), '3,4');
  assert.equal(form.values('tags'), ['3', '4']);
  assert.is(form.value('actif'), '', 'the form initial wins over the field initial');
  assert.is(new ContactForm().value('actif'), '1', 'the field initial');
  assert.is(form.value('email'), '');
  assert.is(form.value('email', 'x@y.fr'), 'x@y.fr', 'the default when there is no value');
  assert.is(form.label('ville_id'), 'Ville');
  assert.is(form.label('remarque'), 'Remarque', 'the default label comes from the name');
});

test('fromRequest over a real Request: first values, lists for multi-value fields, files; valid data cleaned', () => {
  const request = postRequest(
    { nom: ['  Léa Durand ', 'ignoré'], email: ['Lea@Exemple.FR'], age: [''], ville_id: ['2'], tags: ['3', '1,3'], actif: ['on'], remarque: [' a\r\nb '] },
    { piece: pdf },
  );
  const form = ContactForm.fromRequest(request, { choices: { ville_id: villes } });
  assert.instance(form, ContactForm);
  assert.is(form.isBound, true);
  assert.is(form.isValid(), true, JSON.stringify(form.errors));
  assert.equal(form.cleanedData, {
    nom: 'Léa Durand',
    email: 'Lea@exemple.fr',
    age: null,
    ville_id: 2,
    tags: [3, 1],
    actif: true,
    remarque: 'a\nb',
    piece: pdf,
  });
  const data = form.cleanedData as CleanedData<typeof ContactForm.fields>;
  const nom: string | null = data.nom;
  const tags: number[] | null = data.tags;
  assert.is(nom, 'Léa Durand');
  assert.equal(tags, [3, 1]);
  // The declared field keeps no choices: they belong to this instance only.
  assert.equal((ContactForm.fields.ville_id as RelationField).choices, []);
  assert.is(new ContactForm({ ville_id: '2' }).error('ville_id'), 'Le champ « Ville » doit être l’une des valeurs proposées.');
});

test('an invalid form keeps the entered values for re-display and reports its errors', () => {
  const form = ContactForm.fromRequest(postRequest({ nom: ['  '], email: ['pas-un-email'], age: ['1.5'], ville_id: ['9'], tags: ['2', 'x'] }), {
    choices: { ville_id: villes },
  });
  assert.is(form.isValid(), false);
  assert.equal(form.errors, {
    nom: ['Le champ « Nom » est obligatoire.'],
    email: ['Le champ « Email » doit être une adresse e-mail valide.'],
    age: ['Le champ « Âge » doit être un nombre entier.'],
    ville_id: ['Le champ « Ville » doit être l’une des valeurs proposées.'],
    tags: ['Le champ « Étiquettes » doit contenir des identifiants entiers positifs.'],
  });
  assert.equal(form.cleanedData, { actif: false, remarque: null, piece: null }, 'only valid fields are cleaned');
  assert.is(form.value('email'), 'pas-un-email');
  assert.is(form.value('age'), '1.5');
  assert.is(form.value('nom'), '  ', 'the raw value, as typed');
  assert.is(form.value('actif'), '', 'an unchecked box');
  assert.is(form.value('actif', 'defaut'), 'defaut');
  assert.is(form.value('tags'), '2,x');
  assert.equal(form.values('tags'), ['2', 'x']);
  assert.is(form.value('piece'), '', 'a file input is never pre-filled');
  assert.is(form.error('email'), 'Le champ « Email » doit être une adresse e-mail valide.');
  assert.is(form.error('remarque'), '');
  assert.is(form.hasError('age'), true);
  assert.is(form.hasError('actif'), false);
  assert.equal(form.fieldErrors('actif'), []);
  assert.equal(form.fieldErrors('nom'), ['Le champ « Nom » est obligatoire.']);
});

class InscriptionForm extends Form {
  static fields = {
    email: new EmailField({ label: 'Email' }),
    mot_de_passe: new StringField({ label: 'Mot de passe', minLength: 8, inputType: 'password' }),
    confirmation: new StringField({ label: 'Confirmation' }),
    debut: new DateTimeField({ label: 'Début', required: false }),
    montant: new DecimalField({ label: 'Montant', decimalPlaces: 2, required: false }),
  };

  runs = 0;

  override clean(): void {
    this.runs++;
    const data = this.cleanedData;
    if (data.mot_de_passe !== undefined && data.confirmation !== undefined && data.mot_de_passe !== data.confirmation) {
      this.addError('confirmation', 'Les mots de passe diffèrent.');
      this.addError(null, 'Vérifiez le formulaire.');
    }
    if (data.email === 'bloque@exemple.fr') throw new FormValidationError('Cette adresse est bloquée.');
    if (data.montant === '0.00') data.montant = null;
  }
}

test('clean() runs once after the fields, adds field and non-field errors, may edit cleanedData', () => {
  const form = new InscriptionForm({ email: 'a@b.fr', mot_de_passe: 'secret123', confirmation: 'secret124' });
  assert.is(form.isValid(), false);
  assert.is(form.isValid(), false);
  assert.is(form.runs, 1, 'validation runs once');
  assert.equal(form.nonFieldErrors, ['Vérifiez le formulaire.']);
  assert.equal(form.errors, { confirmation: ['Les mots de passe diffèrent.'] });
  assert.not.ok('confirmation' in form.cleanedData, 'a field with an error leaves cleanedData');

  const blocked = new InscriptionForm({ email: 'bloque@exemple.fr', mot_de_passe: 'secret123', confirmation: 'secret123', montant: '0' });
  assert.is(blocked.isValid(), false);
  assert.equal(blocked.nonFieldErrors, ['Cette adresse est bloquée.']);
  assert.equal(blocked.errors, {});

  const ok = new InscriptionForm({ email: 'a@b.fr', mot_de_passe: 'secret123', confirmation: 'secret123', montant: '0', debut: '2024-05-01T08:30' });
  assert.is(ok.isValid(), true);
  assert.equal(ok.cleanedData, { email: 'a@b.fr', mot_de_passe: 'secret123', confirmation: 'secret123', debut: '2024-05-01 06:30:00', montant: null });

  // Validation also runs lazily when errors are read first.
  const lazy = new InscriptionForm({});
  assert.equal(Object.keys(lazy.errors), ['email', 'mot_de_passe', 'confirmation']);
  assert.is(lazy.runs, 1);

  class Broken extends Form {
    static fields = { a: new StringField({ required: false }) };
    override clean(): void {
      throw new TypeError('bug');
    }
  }
  assert.throws(
    () => new Broken({}).isValid(),
    (e: unknown) => e instanceof TypeError,
    'a programming error is not swallowed',
  );
});

test('addError after isValid: a DuplicateError from the database becomes a field message', () => {
  const form = new InscriptionForm({ email: 'a@b.fr', mot_de_passe: 'secret123', confirmation: 'secret123' });
  assert.is(form.isValid(), true);
  try {
    throw new DuplicateError('email', ['email']);
  } catch (err) {
    if (!(err instanceof DuplicateError)) throw err;
    form.addError('email', 'Cette adresse est déjà utilisée.');
  }
  assert.is(form.isValid(), false);
  assert.is(form.error('email'), 'Cette adresse est déjà utilisée.');
  assert.not.ok('email' in form.cleanedData);
  assert.throws(
    () => form.addError('inconnu', 'x'),
    (e: unknown) => e instanceof UnknownFieldError && /« inconnu »/.test(e.message) && /mot_de_passe/.test(e.message),
  );
  assert.throws(
    () => form.field('inconnu'),
    (e: unknown) => e instanceof UnknownFieldError,
  );
  assert.instance(form.field('email'), EmailField);
  // Unbound forms accept addError too (an error shown on a fresh page).
  const fresh = new InscriptionForm();
  fresh.addError(null, 'Session expirée.');
  assert.equal(fresh.nonFieldErrors, ['Session expirée.']);
  assert.is(fresh.isValid(), false);
});

test('context(): one entry per field, the ordered list, errors and non_field_errors', () => {
  const form = ContactForm.fromRequest(postRequest({ nom: ['Léa'], email: ['x'], ville_id: ['2'], tags: ['1,2'], actif: ['on'], remarque: ['<b>'] }), {
    choices: {
      ville_id: villes,
      tags: [
        [1, 'Un'],
        [2, 'Deux'],
        [3, 'Trois'],
      ],
    },
  });
  form.isValid();
  form.addError(null, 'Erreur globale.');
  const ctx = form.context();
  assert.equal(ctx.errors, { email: ['Le champ « Email » doit être une adresse e-mail valide.'] });
  assert.equal(ctx.non_field_errors, ['Erreur globale.']);
  assert.is(ctx.is_bound, true);
  assert.equal(
    ctx.fields.map((f) => f.name),
    form.fieldNames,
  );
  assert.equal(ctx.email as FieldContext, {
    name: 'email',
    id: 'field-email',
    label: 'Email',
    type: 'email',
    value: 'x',
    values: ['x'],
    error: 'Le champ « Email » doit être une adresse e-mail valide.',
    errors: ['Le champ « Email » doit être une adresse e-mail valide.'],
    has_error: true,
    required: true,
    help_text: '',
    multiple: false,
    choices: [],
    attrs: { maxlength: 254 },
  });
  const ville = ctx.ville_id as FieldContext;
  assert.is(ville.type, 'select');
  assert.equal(ville.choices, [
    { value: '1', label: 'Paris', selected: false },
    { value: '2', label: 'Lyon', selected: true },
  ]);
  const tags = ctx.tags as FieldContext;
  assert.is(tags.multiple, true);
  assert.equal(
    tags.choices.map((c) => c.selected),
    [true, true, false],
  );
  const age = ctx.age as FieldContext;
  assert.equal([age.type, age.required, age.help_text, age.value, age.attrs], ['number', false, 'En années', '', { step: 1, min: 0 }]);
  assert.equal([(ctx.actif as FieldContext).type, (ctx.actif as FieldContext).value, (ctx.actif as FieldContext).required], ['checkbox', 'on', false]);
  assert.equal([(ctx.piece as FieldContext).type, (ctx.piece as FieldContext).attrs], ['file', { accept: '.pdf' }]);
  assert.is((ctx.remarque as FieldContext).value, '<b>', 'raw in the context; templates escape it');
});

test('context() of an unbound form formats stored values for the inputs', () => {
  const form = new InscriptionForm(null, { initial: { debut: '2024-05-01 08:30:00', montant: '12.50' } });
  const ctx = form.context();
  assert.is((ctx.debut as FieldContext).value, '2024-05-01T10:30:00', 'the stored UTC moment in Europe/Paris (summer: +2)');
  assert.is((ctx.debut as FieldContext).type, 'datetime-local');
  assert.is((ctx.mot_de_passe as FieldContext).type, 'password');
  assert.is(ctx.is_bound, false);
  assert.equal(ctx.errors, {});
});

test('a textarea value is rendered escaped by components/form_field.html', () => {
  const form = new ContactForm({ remarque: '</textarea><script>alert("x")</script>' });
  const html = new NunjucksRenderer({ searchPaths: [FRAMEWORK_VIEWS] }).render('components/form_field.html', form.context().remarque as FieldContext);
  assert.ok(html.includes('&lt;/textarea&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</textarea>'), html);
  assert.not.ok(html.includes('<script>'));
});

test('declaration mistakes are reported by name', () => {
  class Reserved extends Form {
    static fields = { errors: new StringField() };
  }
  assert.throws(
    () => new Reserved(),
    (e: unknown) => e instanceof FormDefinitionError && /« errors » est réservé/.test(e.message),
  );
  class NotAField extends Form {
    static fields = { nom: 'texte' } as never;
  }
  assert.throws(
    () => new NotAField(),
    (e: unknown) => e instanceof FormDefinitionError && /NotAField\.fields\.nom/.test(e.message),
  );
  assert.throws(
    () => new ContactForm(null, { choices: { nom: [] } }),
    (e: unknown) => e instanceof FormDefinitionError,
  );
  assert.throws(
    () => new ContactForm(null, { choices: { absent: [] } }),
    (e: unknown) => e instanceof UnknownFieldError,
  );
  // A form without fields is usable (a confirmation form with only clean()).
  const empty = new Form({});
  assert.is(empty.isValid(), true);
  assert.equal(empty.fieldNames, []);
});

test.run();
