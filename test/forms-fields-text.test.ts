/** Text fields, table-driven: accepted inputs with their cleaned value, refused inputs with their message (docs/api-mapping.md "Fields"). */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  EmailField,
  FormDefinitionError,
  FormValidationError,
  PhoneField,
  SlugField,
  StringField,
  TextAreaField,
  UrlField,
  formMessages as M,
  type Field,
} from '../runtime/index.js';

type Accepted = ReadonlyArray<readonly [input: string | undefined, cleaned: unknown]>;
type Refused = ReadonlyArray<readonly [input: string | undefined, message: string]>;

const clean = (field: Field, input: string | undefined, label: string): unknown =>
  field.clean({ value: input, values: input === undefined ? [] : [input], file: undefined }, label);

/** Runs both tables against one field. */
function table(field: Field, label: string, accepted: Accepted, refused: Refused): void {
  for (const [input, want] of accepted) {
    let got: unknown;
    try {
      got = clean(field, input, label);
    } catch (err) {
      assert.unreachable(`${JSON.stringify(input)} refusé : ${(err as Error).message}`);
    }
    assert.equal(got, want, `${JSON.stringify(input)} → ${JSON.stringify(want)}`);
  }
  for (const [input, message] of refused) {
    try {
      const got = clean(field, input, label);
      assert.unreachable(`${JSON.stringify(input)} accepté (${JSON.stringify(got)})`);
    } catch (err) {
      assert.instance(err, FormValidationError, `${JSON.stringify(input)}: ${(err as Error).message}`);
      assert.is((err as Error).message, message, JSON.stringify(input));
    }
  }
}

test('StringField: trimmed, lengths in characters, regex with its own message', () => {
  table(
    new StringField({ label: 'Nom', minLength: 2, maxLength: 5, regex: /^[A-Za-zÀ-ÿ' -]+$/g, regexMessage: 'Lettres seulement.' }),
    'Nom',
    [
      ['  Léa  ', 'Léa'],
      ['Al', 'Al'],
      ['Émile', 'Émile'],
      ["D'Or", "D'Or"],
    ],
    [
      [undefined, 'Le champ « Nom » est obligatoire.'],
      ['   ', 'Le champ « Nom » est obligatoire.'],
      ['A', 'Le champ « Nom » doit contenir au moins 2 caractères.'],
      ['Abcdef', 'Le champ « Nom » doit contenir au plus 5 caractères.'],
      ['Abc1', 'Lettres seulement.'],
      // A global regex must not alternate between calls (lastIndex): refused twice in a row.
      ['Abc2', 'Lettres seulement.'],
      ['a\nb', 'Le champ « Nom » contient un caractère non autorisé.'],
      ['a\u0000b', 'Le champ « Nom » contient un caractère non autorisé.'],
    ],
  );
  // Characters, not UTF-16 units: five emoji fit a maxLength of 5.
  table(new StringField({ maxLength: 5 }), 'Emoji', [['😀😀😀😀😀', '😀😀😀😀😀']], [['😀😀😀😀😀😀', M.maxLength('Emoji', 5)]]);
  table(
    new StringField({ required: false }),
    'Option',
    [
      [undefined, null],
      ['  ', null],
      [' x ', 'x'],
    ],
    [],
  );
  table(new StringField({ regex: /^\d+$/ }), 'Code', [['123', '123']], [['12a', 'Le champ « Code » n’a pas le format attendu.']]);
  assert.throws(
    () => new StringField({ minLength: 5, maxLength: 2 }),
    (e: unknown) => e instanceof FormDefinitionError,
  );
  assert.throws(
    () => new StringField({ maxLength: -1 }),
    (e: unknown) => e instanceof FormDefinitionError,
  );
  assert.equal(new StringField({ minLength: 1, maxLength: 9 }).attrs(), { minlength: 1, maxlength: 9 });
});

test('TextAreaField: ends trimmed, inner whitespace and lines kept, CRLF → LF', () => {
  table(
    new TextAreaField({ label: 'Remarque', maxLength: 20 }),
    'Remarque',
    [
      ['  ligne 1\r\n\r\n  ligne  2 \n', 'ligne 1\n\n  ligne  2'],
      ['a\tb', 'a\tb'],
      ['<script>x</script>', '<script>x</script>'],
    ],
    [
      ['\n \r\n', 'Le champ « Remarque » est obligatoire.'],
      ['123456789012345678901', 'Le champ « Remarque » doit contenir au plus 20 caractères.'],
      ['a\u0000b', 'Le champ « Remarque » contient un caractère non autorisé.'],
    ],
  );
  // Twelve characters once CRLF is counted as one line break, as the browser's maxlength counts it.
  table(new TextAreaField({ maxLength: 12 }), 'T', [['12345\r\n12345', '12345\n12345']], []);
  table(new TextAreaField({ minLength: 3, required: false }), 'T', [['', null]], [['ab', M.minLength('T', 3)]]);
});

test('maxBytes: UTF-8 bytes, as MariaDB bounds a TEXT column (an accented letter counts 2, an emoji 4)', () => {
  const tooLong = 'Le champ « Note » est trop long : 10 octets au plus (une lettre accentuée en compte 2, un emoji 4).';
  assert.is(M.maxBytes('Note', 10), tooLong);
  for (const field of [new TextAreaField({ label: 'Note', maxBytes: 10 }), new StringField({ label: 'Note', maxBytes: 10 })]) {
    table(
      field,
      'Note',
      [
        ['éééée', 'éééée'],
        ['xxxxxxxxxx', 'xxxxxxxxxx'],
        ['😀😀a', '😀😀a'],
      ],
      [
        ['éééééa', tooLong],
        ['xxxxxxxxxxx', tooLong],
        ['😀😀😀', tooLong],
      ],
    );
  }
  assert.match(M.maxBytes('T', 65_535), '65\u202f535 octets');
  assert.throws(
    () => new TextAreaField({ maxBytes: -1 }),
    (err: unknown) => err instanceof FormDefinitionError,
  );
});

test('EmailField: one @, pragmatic syntax, 254 characters, domain lower-cased', () => {
  const local64 = 'a'.repeat(64);
  const longest = `${local64}@${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.abcdef`; // 254 characters
  table(
    new EmailField({ label: 'Email' }),
    'Email',
    [
      ['  Jean.Dupont@Exemple.FR ', 'Jean.Dupont@exemple.fr'],
      ['a+tag@sub.domaine.co.uk', 'a+tag@sub.domaine.co.uk'],
      ["o'neil@xn--bcher-kva.de", "o'neil@xn--bcher-kva.de"],
      [`${local64}@ex.com`, `${local64}@ex.com`],
      [longest, longest],
    ],
    [
      ['', 'Le champ « Email » est obligatoire.'],
      ['jean', 'Le champ « Email » doit être une adresse e-mail valide.'],
      ['a@b@c.fr', M.email('Email')],
      ['a@localhost', M.email('Email')],
      ['a@exemple.f', M.email('Email')],
      ['a b@exemple.fr', M.email('Email')],
      ['.a@exemple.fr', M.email('Email')],
      ['a..b@exemple.fr', M.email('Email')],
      ['a@-exemple.fr', M.email('Email')],
      ['a@exemple..fr', M.email('Email')],
      ['jean@exémple.fr', M.email('Email')],
      [`${local64}a@ex.com`, M.email('Email')],
      [`${longest}g`, 'Le champ « Email » doit contenir au plus 254 caractères.'],
    ],
  );
});

test('PhoneField: French local or +33 numbers, normalised to 0X XX XX XX XX (or E.164)', () => {
  const national = new PhoneField({ label: 'Téléphone' });
  table(
    national,
    'Téléphone',
    [
      ['06 12 34 56 78', '06 12 34 56 78'],
      ['0612345678', '06 12 34 56 78'],
      ['06.12.34.56.78', '06 12 34 56 78'],
      ['01-23-45-67-89', '01 23 45 67 89'],
      ['+33 6 12 34 56 78', '06 12 34 56 78'],
      ['+33612345678', '06 12 34 56 78'],
      ['+33 1.23.45.67.89', '01 23 45 67 89'],
      [' 09 87 65 43 21 ', '09 87 65 43 21'],
    ],
    [
      ['', 'Le champ « Téléphone » est obligatoire.'],
      ['06 12 34 56 7', 'Le champ « Téléphone » doit être un numéro de téléphone français valide (par exemple 06 12 34 56 78 ou +33 6 12 34 56 78).'],
      ['00 12 34 56 78', M.phone('Téléphone')],
      ['6 12 34 56 78', M.phone('Téléphone')],
      ['06 12 34 56 78 90', M.phone('Téléphone')],
      ['+33 06 12 34 56 78', M.phone('Téléphone')],
      ['+44 20 7946 0958', M.phone('Téléphone')],
      ['06  12 34 56 78', M.phone('Téléphone')],
      ['06_12_34_56_78', M.phone('Téléphone')],
      ['０６１２３４５６７８', M.phone('Téléphone')],
    ],
  );
  table(
    new PhoneField({ format: 'e164' }),
    'Tel',
    [
      ['06 12 34 56 78', '+33612345678'],
      ['+33 1 23 45 67 89', '+33123456789'],
    ],
    [],
  );
  assert.throws(
    () => new PhoneField({ format: 'us' as 'e164' }),
    (e: unknown) => e instanceof FormDefinitionError,
  );
});

test('UrlField: http or https only, 2048 characters, parsed by new URL; cleaned as typed', () => {
  const path = `https://exemple.fr/${'p'.repeat(2048 - 'https://exemple.fr/'.length)}`;
  table(
    new UrlField({ label: 'Site' }),
    'Site',
    [
      [' https://exemple.fr ', 'https://exemple.fr'],
      ['http://localhost:8000/a?b=1#c', 'http://localhost:8000/a?b=1#c'],
      ['HTTPS://Exemple.fr/Chemin', 'HTTPS://Exemple.fr/Chemin'],
      [path, path],
    ],
    [
      ['', 'Le champ « Site » est obligatoire.'],
      ['javascript:alert(1)', 'Le champ « Site » doit être une adresse web valide commençant par http:// ou https://.'],
      ['ftp://exemple.fr', M.url('Site')],
      ['exemple.fr', M.url('Site')],
      ['//exemple.fr', M.url('Site')],
      ['https://', M.url('Site')],
      ['http://exa mple.fr', M.url('Site')],
      ['https://exemple.fr/a b', M.url('Site')],
      ['http://[::1', M.url('Site')],
      [`${path}x`, 'Le champ « Site » doit contenir au plus 2048 caractères.'],
    ],
  );
});

test('SlugField: lowercase letters, digits, hyphens; 120 by default; never slugified', () => {
  const max = 'a'.repeat(120);
  table(
    new SlugField({ label: 'Slug' }),
    'Slug',
    [
      ['mon-article-2024', 'mon-article-2024'],
      [' abc ', 'abc'],
      ['42', '42'],
      [max, max],
    ],
    [
      ['', 'Le champ « Slug » est obligatoire.'],
      ['Mon-article', 'Le champ « Slug » ne peut contenir que des lettres minuscules sans accent, des chiffres et des tirets.'],
      ['été', M.slug('Slug')],
      ['mon_article', M.slug('Slug')],
      ['mon article', M.slug('Slug')],
      ['-debut', 'Le champ « Slug » ne peut ni commencer ni finir par un tiret, ni contenir deux tirets de suite.'],
      ['fin-', M.slugHyphens('Slug')],
      ['a--b', M.slugHyphens('Slug')],
      [`${max}a`, 'Le champ « Slug » doit contenir au plus 120 caractères.'],
    ],
  );
  table(new SlugField({ maxLength: 3 }), 'S', [['abc', 'abc']], [['abcd', M.maxLength('S', 3)]]);
});

test.run();
