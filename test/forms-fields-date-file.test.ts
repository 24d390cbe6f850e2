/** Date and file fields, table-driven (docs/api-mapping.md "Fields", docs/uploads.md "The chain"): DateField, DateTimeField, FileField, ImageField. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  DateField,
  DateTimeField,
  FileField,
  FormDefinitionError,
  FormValidationError,
  ImageField,
  UploadedFile,
  configure,
  formMessages as M,
  resetConfig,
  type Field,
} from '../runtime/index.js';

type Accepted = ReadonlyArray<readonly [input: string | undefined, cleaned: unknown]>;
type Refused = ReadonlyArray<readonly [input: string | undefined, message: string]>;

function table(field: Field, label: string, accepted: Accepted, refused: Refused): void {
  const clean = (input: string | undefined): unknown => field.clean({ value: input, values: input === undefined ? [] : [input], file: undefined }, label);
  for (const [input, want] of accepted) {
    let got: unknown;
    try {
      got = clean(input);
    } catch (err) {
      assert.unreachable(`${JSON.stringify(input)} refusé : ${(err as Error).message}`);
    }
    assert.equal(got, want, `${JSON.stringify(input)} → ${JSON.stringify(want)}`);
  }
  for (const [input, message] of refused) {
    assert.throws(
      () => clean(input),
      (err: unknown) => err instanceof FormValidationError && err.message === message,
      `${JSON.stringify(input)} → ${message}`,
    );
  }
}

test('DateField: strict YYYY-MM-DD, a real calendar date, cleaned unchanged', () => {
  const invalid = 'Le champ « Naissance » doit être une date valide au format AAAA-MM-JJ.';
  table(
    new DateField({ label: 'Naissance' }),
    'Naissance',
    [
      ['2024-02-29', '2024-02-29'],
      ['2000-02-29', '2000-02-29'],
      [' 1999-12-31 ', '1999-12-31'],
      ['0001-01-01', '0001-01-01'],
    ],
    [
      ['', 'Le champ « Naissance » est obligatoire.'],
      ['2023-02-29', invalid],
      ['1900-02-29', invalid],
      ['2024-04-31', invalid],
      ['2024-13-01', invalid],
      ['2024-00-10', invalid],
      ['2024-01-00', invalid],
      ['0000-01-01', invalid],
      ['2024-1-5', invalid],
      ['05/01/2024', invalid],
      ['2024-01-05T10:00', invalid],
      ['20240105', invalid],
    ],
  );
  const field = new DateField();
  assert.is(field.format(new Date(Date.UTC(2024, 0, 5, 23, 30))), '2024-01-05');
  assert.is(field.format('2024-01-05 10:00:00'), '2024-01-05');
  assert.is(field.format(null), '');
});

test('DateTimeField: YYYY-MM-DDTHH:MM[:SS] with real values, typed in the application zone (Europe/Paris), cleaned to YYYY-MM-DD HH:MM:SS in UTC', () => {
  const invalid = 'Le champ « Début » doit être une date et une heure valides au format AAAA-MM-JJTHH:MM.';
  table(
    new DateTimeField({ label: 'Début' }),
    'Début',
    [
      ['2024-03-01T09:05', '2024-03-01 08:05:00'],
      ['2024-03-01T23:59:59', '2024-03-01 22:59:59'],
      ['2024-02-29T00:00', '2024-02-28 23:00:00'],
      ['2024-07-01T00:30', '2024-06-30 22:30:00'],
    ],
    [
      ['', 'Le champ « Début » est obligatoire.'],
      ['2024-03-01 09:05', invalid],
      ['2024-03-01', invalid],
      ['2024-03-01T24:00', invalid],
      ['2024-03-01T12:60', invalid],
      ['2024-03-01T12:00:60', invalid],
      ['2023-02-29T10:00', invalid],
      ['2024-03-01T9:05', invalid],
      ['2024-03-01T09:05:00.000', invalid],
      ['2024-03-01T09:05Z', invalid],
    ],
  );
  const field = new DateTimeField({ required: false });
  assert.is(field.format('2024-03-01 09:05:00'), '2024-03-01T10:05:00');
  assert.is(field.format(new Date(Date.UTC(2024, 2, 1, 9, 5, 7))), '2024-03-01T10:05:07');
});

const file = (filename: string, contentType: string, size = 10): UploadedFile => new UploadedFile(filename, contentType, Buffer.alloc(size, 1), 'doc');
type FileCase = readonly [file: UploadedFile | undefined, accepted: true | string];

function fileTable(field: FileField, label: string, cases: readonly FileCase[]): void {
  for (const [upload, want] of cases) {
    const clean = (): unknown => field.clean({ value: undefined, values: [], file: upload }, label);
    const name = upload ? `${upload.filename} (${upload.contentType}, ${upload.size} o)` : 'aucun fichier';
    if (want === true) assert.is(clean(), upload, name);
    else assert.throws(clean, (err: unknown) => err instanceof FormValidationError && err.message === want, `${name} → ${want}`);
  }
}

test('FileField: last extension whitelisted, size, optional MIME; metadata only', () => {
  resetConfig();
  const allowed = ['jpg', 'jpeg', 'png', 'webp', 'pdf'];
  fileTable(new FileField({ label: 'Pièce' }), 'Pièce', [
    [file('a.pdf', 'application/pdf'), true],
    [file('A.PDF', 'application/pdf'), true],
    [file('a.php.jpg', 'image/jpeg'), true],
    [file('vide.pdf', 'application/pdf', 0), true],
    [file('C:\\fakepath\\scan.png', 'image/png'), true],
    [file('exact.pdf', 'application/pdf', 5_242_880), true],
    // No MIME list declared: the client's type is not checked.
    [file('b.pdf', 'text/html'), true],
    [undefined, 'Le champ « Pièce » est obligatoire.'],
    [file('', 'application/octet-stream', 0), M.required('Pièce')],
    [file('a.jpg.php', 'image/jpeg'), 'Le fichier « a.jpg.php » du champ « Pièce » n’a pas une extension autorisée (autorisées : jpg, jpeg, png, webp, pdf).'],
    [file('README', 'text/plain'), M.fileExtension('Pièce', 'README', allowed)],
    [file('.pdf', 'application/pdf'), M.fileExtension('Pièce', '.pdf', allowed)],
    [file('a.exe', 'application/pdf'), M.fileExtension('Pièce', 'a.exe', allowed)],
    [file('gros.pdf', 'application/pdf', 5_242_881), 'Le fichier « gros.pdf » du champ « Pièce » dépasse la taille maximale autorisée (5 Mo).'],
  ]);
  assert.is(new FileField({ required: false }).clean({ value: undefined, values: [], file: undefined }, 'P'), null);
  fileTable(new FileField({ label: 'CSV', extensions: ['.CSV'], maxSize: 100, mimeTypes: ['Text/CSV'] }), 'CSV', [
    [file('liste.csv', 'text/csv; charset=UTF-8'), true],
    [file('liste.csv', 'TEXT/CSV'), true],
    [file('liste.csv', 'application/vnd.ms-excel'), 'Le fichier « liste.csv » du champ « CSV » n’est pas d’un type autorisé (application/vnd.ms-excel).'],
    [file('liste.csv', ''), M.fileType('CSV', 'liste.csv', '')],
    [file('liste.csv', 'text/csv', 101), 'Le fichier « liste.csv » du champ « CSV » dépasse la taille maximale autorisée (100 octets).'],
    [file('liste.pdf', 'text/csv'), M.fileExtension('CSV', 'liste.pdf', ['csv'])],
  ]);
});

test('FileField: defaults follow the configuration at cleaning time', () => {
  const field = new FileField({ label: 'Doc' });
  try {
    configure({ upload_allowed_extensions: ['txt'], upload_max_size: 1536 });
    fileTable(field, 'Doc', [
      [file('notes.txt', 'text/plain', 1536), true],
      [file('a.pdf', 'application/pdf'), M.fileExtension('Doc', 'a.pdf', ['txt'])],
      [file('notes.txt', 'text/plain', 1537), 'Le fichier « notes.txt » du champ « Doc » dépasse la taille maximale autorisée (1,5 Ko).'],
    ]);
    assert.equal(field.attrs(), { accept: '.txt' });
  } finally {
    resetConfig();
  }
});

test('ImageField: jpg, jpeg, png, webp and image MIME types only; can narrow, never widen', () => {
  fileTable(new ImageField({ label: 'Photo' }), 'Photo', [
    [file('p.jpg', 'image/jpeg'), true],
    [file('p.JPEG', 'image/jpeg'), true],
    [file('p.png', 'image/png; foo=bar'), true],
    [file('p.webp', 'IMAGE/WEBP'), true],
    [file('p.pdf', 'application/pdf'), 'Le fichier « p.pdf » du champ « Photo » n’a pas une extension autorisée (autorisées : jpg, jpeg, png, webp).'],
    [file('p.svg', 'image/svg+xml'), M.fileExtension('Photo', 'p.svg', ['jpg', 'jpeg', 'png', 'webp'])],
    [file('p.gif', 'image/gif'), M.fileExtension('Photo', 'p.gif', ['jpg', 'jpeg', 'png', 'webp'])],
    [file('p.png', 'text/html'), 'Le fichier « p.png » du champ « Photo » n’est pas d’un type autorisé (text/html).'],
    [file('p.jpg', 'application/pdf'), M.fileType('Photo', 'p.jpg', 'application/pdf')],
  ]);
  fileTable(new ImageField({ label: 'Logo', extensions: ['png'], mimeTypes: ['image/png'], maxSize: 1024 }), 'Logo', [
    [file('l.png', 'image/png', 1024), true],
    [file('l.jpg', 'image/jpeg'), M.fileExtension('Logo', 'l.jpg', ['png'])],
    [file('l.png', 'image/png', 2048), M.fileSize('Logo', 'l.png', 1024)],
  ]);
  assert.throws(
    () => new ImageField({ extensions: ['svg'] }),
    (e: unknown) => e instanceof FormDefinitionError && /svg/.test(e.message),
  );
  assert.throws(
    () => new ImageField({ mimeTypes: ['image/svg+xml'] }),
    (e: unknown) => e instanceof FormDefinitionError,
  );
  assert.throws(
    () => new FileField({ extensions: [] }),
    (e: unknown) => e instanceof FormDefinitionError,
  );
  assert.is(M.fileSize('X', 'a', 1024), 'Le fichier « a » du champ « X » dépasse la taille maximale autorisée (1 Ko).');
});

test.run();
