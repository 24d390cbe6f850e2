// CSV export of the generated CRUD pages (docs/crud.md "CSV export"): cells quoted, formulas
// neutralised, plain numbers kept, the byte-order mark and the locale's separator, and the download's headers on the wire.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { csvCell, csvResponse, toCsv } from '../runtime/crud/index.js';
import { writeResponse } from '../runtime/app/serve.js';
import { configure, resetConfig } from '../runtime/config.js';
import { clearTranslations } from '../runtime/translations.js';

// --- CSV ---

const C = suite('crud-runtime: CSV');

C('every cell is quoted and " is doubled', () => {
  assert.is(csvCell('Dupont'), '"Dupont"');
  assert.is(csvCell('dit "Jo"'), '"dit ""Jo"""');
  assert.is(csvCell('a,b\nc'), '"a,b\nc"');
  assert.is(csvCell(''), '""');
});

C('null and undefined are empty, booleans are 1 and 0, numbers their text', () => {
  assert.is(csvCell(null), '""');
  assert.is(csvCell(undefined), '""');
  assert.is(csvCell(true), '"1"');
  assert.is(csvCell(false), '"0"');
  assert.is(csvCell(42), '"42"');
  assert.is(csvCell(-1.5), '"-1.5"');
  assert.is(csvCell(new Date(Date.UTC(2024, 0, 2, 3, 4, 5))), '"2024-01-02T03:04:05.000Z"');
});

C('a cell starting with = + - @ tab or CR gets the formula prefix, before the quotes are doubled', () => {
  assert.is(csvCell('=SUM(A1:A9)'), `"'=SUM(A1:A9)"`);
  assert.is(csvCell('+33 6 12 34 56 78'), `"'+33 6 12 34 56 78"`);
  assert.is(csvCell('-2+3'), `"'-2+3"`);
  assert.is(csvCell('-'), `"'-"`);
  assert.is(csvCell('@SUM(1)'), `"'@SUM(1)"`);
  assert.is(csvCell('\t=1'), `"'\t=1"`);
  assert.is(csvCell('\r=1'), `"'\r=1"`);
  assert.is(csvCell('=HYPERLINK("http://x")'), `"'=HYPERLINK(""http://x"")"`);
  assert.is(csvCell('-1\n=cmd'), `"'-1\n=cmd"`);
  // Not at the start: no prefix.
  assert.is(csvCell('a=b'), '"a=b"');
  assert.is(csvCell(' =1'), '" =1"');
});

C('a plain number keeps its sign and gets no prefix', () => {
  // A decimal comma too: the French file writes `-1,5`.
  for (const text of ['-1.5', '+3', '42', '-0', '3.', '.5', '-.5', '+12.75', '-1,5', '+12,75']) assert.is(csvCell(text), `"${text}"`, text);
  // Not plain numbers: an exponent, a thousands separator, a second sign.
  assert.is(csvCell('-1e5'), `"'-1e5"`);
  assert.is(csvCell('-1 000,5'), `"'-1 000,5"`);
  assert.is(csvCell('-1.000,5'), `"'-1.000,5"`);
  assert.is(csvCell('+-3'), `"'+-3"`);
});

C('toCsv: header then rows, CRLF after every line', () => {
  const text = toCsv(
    ['nom', 'actif', 'solde'],
    [
      ['Dupont', true, -1.5],
      ['=cmd', false, null],
    ],
  );
  assert.is(text, '"nom","actif","solde"\r\n"Dupont","1","-1.5"\r\n"\'=cmd","0",""\r\n');
  assert.is(toCsv(['a'], []), '"a"\r\n');
  assert.is(toCsv(['a', 'b'], [['x;y', '1,5']], ';'), '"a";"b"\r\n"x;y";"1,5"\r\n');
});

C('csvResponse: status 200 and exactly the three headers of docs/crud.md "CSV export"', () => {
  const response = csvResponse('contacts.csv', ['nom'], [['Dupont']]);
  assert.is(response.status, 200);
  assert.is(response.contentType, 'text/csv; charset=utf-8');
  assert.equal(response.headers, { 'Content-Disposition': 'attachment; filename="contacts.csv"', 'Cache-Control': 'no-store' });
  assert.is(response.body, '\uFEFF"nom"\r\n"Dupont"\r\n');
  // A name cannot break out of its quotes.
  assert.is(csvResponse('a"b\r\n.csv', [], []).headers['Content-Disposition'], 'attachment; filename="a_b__.csv"');
});

C('csvResponse: the separator follows the locale, `;` where decimals take a comma, `,` where they take a point', () => {
  try {
    configure({ locale: 'en' });
    clearTranslations();
    assert.is(csvResponse('a.csv', ['nom', 'prenom'], [['Dupont', 'Léa']]).body, '\uFEFF"nom","prenom"\r\n"Dupont","Léa"\r\n');
  } finally {
    resetConfig();
    clearTranslations();
  }
  assert.is(csvResponse('a.csv', ['nom', 'prenom'], [['Dupont', 'Léa']]).body, '\uFEFF"nom";"prenom"\r\n"Dupont";"Léa"\r\n');
});

C('csvResponse on the wire: the headers as a browser receives them', async () => {
  const server = http.createServer((_req, res) =>
    writeResponse(
      res,
      undefined,
      csvResponse(
        'contacts.csv',
        ['nom', 'ville_id_label'],
        [
          ['Dupont', 'Lyon'],
          ['@x', null],
        ],
      ),
    ),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/contacts/export.csv`);
    assert.is(response.status, 200);
    assert.is(response.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.is(response.headers.get('content-disposition'), 'attachment; filename="contacts.csv"');
    assert.is(response.headers.get('cache-control'), 'no-store');
    // The bytes: the UTF-8 byte-order mark, then cells split by `;` (the French catalogue writes decimals with a comma).
    const bytes = Buffer.from(await response.arrayBuffer());
    assert.equal([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    assert.is(bytes.subarray(3).toString('utf8'), '"nom";"ville_id_label"\r\n"Dupont";"Lyon"\r\n"\'@x";""\r\n');
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

C.run();
