// The pages of `fw make:crud Produit --media --public` served for real and driven over HTTP like a browser without
// script, on SQLite and on MariaDB, with real images made by sharp and a PDF (docs/decisions.md#uploads-and-media, docs/crud.md "Media"):
// create with every kind of media, the detail page and the list's thumbnail, 422 pages that store nothing, the edit
// page (alt text, order, removal, new files, a replaced image), media ids of another record refused with nothing
// changed, single and bulk delete removing rows and files, and the upload limit (429).
import net from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DialectName } from '../runtime/db/index.js';
import type { HttpClient, HttpResult } from './helpers/crud-app.js';
import { decode, forms, inputValue, tags } from './helpers/crud-html.js';
import { PDF, jpeg, png, type FilePart } from './helpers/crud-media.js';
import { startMediaApp, type MediaApp } from './helpers/crud-media-app.js';
import { DIALECTS } from './helpers/dialects.js';

interface MediaRow {
  id: number;
  entity_id: string;
  path: string;
  original_name: string | null;
  role: string;
  position: number;
  alt_text: string | null;
}

const BLUE = { r: 40, g: 90, b: 160 };
const ORANGE = { r: 200, g: 120, b: 30 };
const GREEN = { r: 30, g: 140, b: 90 };

/** Sends a request head (no body) on a plain socket and returns all that the server answers before it closes. */
function rawExchange(url: string, head: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(head));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function mediaSuite(dialect: DialectName): void {
  const t = suite(`crud-media-http: ${dialect}`);
  let app: MediaApp;
  let client: HttpClient;
  const ids: Record<string, number> = {};
  const images: Record<string, Buffer> = {};

  const rows = async (): Promise<MediaRow[]> =>
    (await app.query<MediaRow>('SELECT id, entity_id, path, original_name, role, position, alt_text FROM media ORDER BY id')).map((r) => ({
      ...r,
      id: Number(r.id),
      position: Number(r.position),
      entity_id: String(r.entity_id),
    }));
  /** The media of a record in creation order; of one role, in display order. */
  const mediaOf = async (record: number, role?: string): Promise<MediaRow[]> => {
    const mine = (await rows()).filter((r) => r.entity_id === String(record));
    return role === undefined ? mine : mine.filter((r) => r.role === role).sort((a, b) => a.position - b.position || a.id - b.id);
  };
  const produitId = async (reference: string): Promise<number> => {
    const found = await app.query<{ id: unknown }>('SELECT Id AS id FROM produits WHERE Reference = ?', [reference]);
    assert.is(found.length, 1, `produit ${reference}`);
    return Number(found[0]!.id);
  };
  /** The original and, for an image stored with variants, its medium and thumbnail. */
  const filesOf = (row: MediaRow): string[] =>
    row.path.startsWith('images/') ? [row.path, row.path.replace('images/', 'images/medium/'), row.path.replace('images/', 'images/thumbnail/')] : [row.path];
  /** Rows, records and files: what "nothing changed" compares. */
  const state = async () => ({
    media: await rows(),
    produits: await app.query('SELECT Id AS id, Nom AS nom, Reference AS reference FROM produits ORDER BY Id'),
    files: app.uploads(),
  });
  const post = (url: string, fields: Array<[string, string]>, files: FilePart[] = []): Promise<HttpResult> =>
    client.postMultipart(url, fields, files, '/produits/new');
  const page = async (url: string): Promise<string> => {
    const res = await client.get(url);
    assert.is(res.status, 200, `${url} : ${res.text.slice(0, 300)}`);
    return res.text;
  };
  const mediaErrors = (html: string, name: string): string[] => {
    const m = new RegExp(`<div id="media-${name}-error"[^>]*>([\\s\\S]*?)</div>`).exec(html);
    return m ? [...m[1]!.matchAll(/<p>([\s\S]*?)<\/p>/g)].map((p) => decode(p[1]!)) : [];
  };

  /** The "choose again" line of an entry on a page sent back. */
  const again = (html: string, name: string): string | undefined => {
    const m = new RegExp(`<p id="media-${name}-again"[^>]*>([^<]*)</p>`).exec(html);
    return m ? decode(m[1]!) : undefined;
  };

  t.before(async () => {
    app = await startMediaApp(dialect);
    client = app.client();
    images['bleu.jpg'] = await jpeg(1600, 1000, BLUE);
    images['orange.jpg'] = await jpeg(900, 1200, ORANGE);
    images['vert.png'] = await png(400, 400, GREEN);
  });

  t.after(async () => {
    await app?.stop();
  });

  t('the create form is multipart, with a file input per entry (multiple for the gallery and the file list) and its accept list', async () => {
    const html = await page('/produits/new');
    const form = forms(html).find((f) => f.attrs['action'] === '/produits')!;
    assert.is(form.attrs['enctype'], 'multipart/form-data');
    const inputs = tags(form.body, 'input').filter((i) => i.attrs['type'] === 'file');
    assert.equal(
      inputs.map((i) => [i.attrs['name'], 'multiple' in i.attrs, i.attrs['accept']]),
      [
        ['photo', false, '.jpg,.jpeg,.png,.webp'],
        ['galerie', true, '.jpg,.jpeg,.png,.webp'],
        ['notice', false, '.jpg,.jpeg,.png,.webp,.pdf'],
        ['pieces_jointes', true, '.jpg,.jpeg,.png,.webp,.pdf'],
      ],
    );
  });

  t('create with a photo, two gallery images sent by one multiple input, a PDF notice and two attachments: 302, rows and files', async () => {
    const res = await post(
      '/produits',
      [
        ['nom', 'Fauteuil club'],
        ['reference', 'A-1'],
        ['photo.alt', 'Fauteuil bleu'],
      ],
      [
        ['photo', 'bleu.jpg', images['bleu.jpg']!, 'image/jpeg'],
        ['galerie', 'orange.jpg', images['orange.jpg']!, 'image/jpeg'],
        ['galerie', 'vert.png', images['vert.png']!, 'image/png'],
        ['notice', 'notice.pdf', PDF, 'application/pdf'],
        ['pieces_jointes', 'garantie.pdf', PDF, 'application/pdf'],
        ['pieces_jointes', 'facture.pdf', PDF, 'application/pdf'],
      ],
    );
    assert.is(res.status, 302, res.text.slice(0, 500));
    assert.is(res.headers.get('location'), '/produits');
    ids['A'] = await produitId('A-1');
    const media = await mediaOf(ids['A']);
    assert.equal(
      media.map((m) => [m.role, m.position, m.original_name, m.alt_text, m.path.split('/')[0]]),
      [
        ['cover', 0, 'bleu.jpg', 'Fauteuil bleu', 'images'],
        ['gallery', 0, 'orange.jpg', null, 'images'],
        ['gallery', 1, 'vert.png', null, 'images'],
        ['notice', 0, 'notice.pdf', null, 'documents'],
        ['pieces_jointes', 0, 'garantie.pdf', null, 'documents'],
        ['pieces_jointes', 1, 'facture.pdf', null, 'documents'],
      ],
    );
    // Three images with their medium and thumbnail, three documents: nothing else.
    assert.equal(app.uploads(), media.flatMap(filesOf).sort());
  });

  t('the detail page: the photo as its medium with its alt text, the gallery as thumbnails in order, the documents as links', async () => {
    const html = await page(`/produits/${ids['A']}`);
    const [cover, orange, vert] = [...(await mediaOf(ids['A']!, 'cover')), ...(await mediaOf(ids['A']!, 'gallery'))];
    const imgs = tags(html, 'img').map((i) => [i.attrs['src'], i.attrs['alt']]);
    assert.equal(imgs, [
      [`/media/${cover!.path.replace('images/', 'images/medium/')}`, 'Fauteuil bleu'],
      [`/media/${orange!.path.replace('images/', 'images/thumbnail/')}`, 'Galerie 1'],
      [`/media/${vert!.path.replace('images/', 'images/thumbnail/')}`, 'Galerie 2'],
    ]);
    const links = [...html.matchAll(/<a href="(\/media\/documents\/[^"]+)"[^>]*>([^<]*)<\/a>/g)].map((m) => decode(m[2]!));
    assert.equal(links, ['notice.pdf', 'garantie.pdf', 'facture.pdf']);
    // The images are public; the thumbnail was made by sharp (at most 300 px wide), the medium kept the original's 1600 → 1280.
    const medium = await fetch(app.url + imgs[0]![0]);
    assert.is(medium.status, 200);
    assert.is(medium.headers.get('content-type'), 'image/jpeg');
    const { default: sharp } = await import('sharp');
    assert.is((await sharp(Buffer.from(await medium.arrayBuffer())).metadata()).width, 1280);
    const thumb = await fetch(app.url + imgs[1]![0]);
    assert.is(thumb.status, 200);
    assert.ok(((await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).width ?? 999) <= 300);
    // A document needs a signed-in session (docs/decisions.md#uploads-and-media): this public app sends the visitor to the login page.
    const href = /<a href="(\/media\/documents\/[^"]+)"/.exec(html)![1]!;
    const doc = await client.get(href);
    assert.is(doc.status, 302);
    assert.match(doc.headers.get('location') ?? '', /^\/login\?next=/);
  });

  t('the list: a thumbnail column, the photo of each record that has one, read in one query for the page', async () => {
    const res = await post(
      '/produits',
      [
        ['nom', 'Table basse'],
        ['reference', 'B-1'],
      ],
      [
        ['photo', 'orange.jpg', images['orange.jpg']!, 'image/jpeg'],
        ['galerie', 'vert.png', images['vert.png']!, 'image/png'],
      ],
    );
    assert.is(res.status, 302, res.text.slice(0, 500));
    ids['B'] = await produitId('B-1');
    assert.is(
      (
        await post('/produits', [
          ['nom', 'Lampe'],
          ['reference', 'C-1'],
        ])
      ).status,
      302,
    );
    ids['C'] = await produitId('C-1');
    const html = await page('/produits');
    assert.ok(html.includes('>Photo</th>'));
    const cover = async (record: string) => `/media/${(await mediaOf(ids[record]!, 'cover'))[0]!.path.replace('images/', 'images/thumbnail/')}`;
    assert.equal(
      tags(html, 'img').map((i) => [i.attrs['src'], i.attrs['alt']]),
      [
        [await cover('B'), 'Photo'],
        [await cover('A'), 'Fauteuil bleu'],
      ],
    );
  });

  t('422: a forbidden extension and a file over upload_max_size, each with its message on its entry; nothing stored, the values kept', async () => {
    const before = await state();
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 0xff);
    const res = await post(
      '/produits',
      [
        ['nom', 'Refusé'],
        ['reference', 'R-1'],
      ],
      [
        ['photo', 'gros.jpg', big, 'image/jpeg'],
        ['notice', 'note.txt', Buffer.from('bonjour'), 'text/plain'],
      ],
    );
    assert.is(res.status, 422);
    assert.equal(mediaErrors(res.text, 'photo'), ['Le fichier « gros.jpg » du champ « Photo » dépasse la taille maximale autorisée (5 Mo).']);
    assert.equal(mediaErrors(res.text, 'notice'), [
      'Le fichier « note.txt » du champ « Notice » n’a pas une extension autorisée (autorisées : jpg, jpeg, png, webp, pdf).',
    ]);
    assert.is(inputValue(res.text, 'nom'), 'Refusé');
    assert.is(again(res.text, 'photo'), undefined, 'no file of the photo to choose again: it was refused');
    // The summary at the top links each message to its entry's file input (docs/crud.md "Required fields and the error summary").
    const summary = /<div id="error-summary"[^>]*>([\s\S]*?)<\/div>/.exec(res.text)?.[1] ?? '';
    const links = [...summary.matchAll(/<a href="#([^"]+)"[^>]*>([\s\S]*?)<\/a>/g)].map((m) => [m[1]!, decode(m[2]!.trim())]);
    assert.equal(links, [
      ['media-photo-file', mediaErrors(res.text, 'photo')[0]!],
      ['media-notice-file', mediaErrors(res.text, 'notice')[0]!],
    ]);
    for (const [id] of links) assert.match(res.text, new RegExp(`<input type="file" id="${id}"`), id);
    assert.equal(await state(), before);
  });

  t(
    '422, not 413: a phone photo of 8 MiB (past upload_max_size and the old body limit) sent before other fields: its message under the photo, every other value kept, nothing stored',
    async () => {
      const before = await state();
      const photo = Buffer.alloc(8 * 1024 * 1024, 0xd8);
      // As a browser sends it: the inputs in the order of the form, so fields come after the file part too.
      const data = new FormData();
      data.append('csrf_token', await client.csrfToken('/produits/new'));
      data.append('nom', 'Commode');
      data.append('photo', new Blob([photo], { type: 'image/jpeg' }), 'IMG_2041.jpg');
      data.append('photo.alt', 'Commode en chêne');
      data.append('reference', 'P-8');
      data.append('notice', new Blob([PDF], { type: 'application/pdf' }), 'notice.pdf');
      const res = await client.request('POST', '/produits', { multipart: data });
      assert.is(res.status, 422, res.text.slice(0, 300));
      assert.equal(mediaErrors(res.text, 'photo'), ['Le fichier « IMG_2041.jpg » du champ « Photo » dépasse la taille maximale autorisée (5 Mo).']);
      assert.equal(mediaErrors(res.text, 'notice'), []);
      assert.is(inputValue(res.text, 'nom'), 'Commode');
      assert.is(inputValue(res.text, 'reference'), 'P-8');
      assert.is(inputValue(res.text, 'photo.alt'), 'Commode en chêne');
      assert.is(again(res.text, 'notice'), 'À choisir de nouveau : notice.pdf');
      assert.equal(await state(), before);
    },
  );

  t(
    '413 stays for a body far past any limit: more than body_max_size + 4 × upload_max_size (21 MiB), refused whole before it is read, nothing stored',
    async () => {
      const before = await state();
      const declared = 22 * 1024 * 1024;
      const head = `POST /produits HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${declared}\r\nConnection: close\r\n\r\n`;
      const answer = await rawExchange(app.url, head);
      assert.match(answer, /^HTTP\/1\.1 413 /);
      assert.ok(answer.includes('22020096 octets'), answer.slice(0, 2000));
      assert.equal(await state(), before);
    },
  );

  t('422: a .jpg that is not an image (sharp cannot read it): its message, nothing left on disk', async () => {
    const before = await state();
    const res = await post(
      '/produits',
      [
        ['nom', 'Faux'],
        ['reference', 'F-1'],
      ],
      [
        ['galerie', 'vert.png', images['vert.png']!, 'image/png'],
        ['galerie', 'faux.jpg', PDF, 'image/jpeg'],
      ],
    );
    assert.is(res.status, 422);
    assert.match(mediaErrors(res.text, 'galerie').join(' '), /« faux\.jpg » n'est pas une image lisible/);
    assert.is(again(res.text, 'galerie'), 'À choisir de nouveau : vert.png');
    assert.equal(await state(), before);
  });

  t('a record that cannot be inserted (a duplicate reference): 422 on the field, and the files already stored are removed', async () => {
    const before = await state();
    const res = await post(
      '/produits',
      [
        ['nom', 'Doublon'],
        ['reference', 'A-1'],
      ],
      [
        ['photo', 'bleu.jpg', images['bleu.jpg']!, 'image/jpeg'],
        ['notice', 'notice.pdf', PDF, 'application/pdf'],
      ],
    );
    assert.is(res.status, 422);
    assert.match(res.text, /<p id="field-reference-error"[^>]*>Cette valeur est déjà utilisée\.<\/p>/);
    assert.is(again(res.text, 'photo'), 'À choisir de nouveau : bleu.jpg');
    assert.is(again(res.text, 'notice'), 'À choisir de nouveau : notice.pdf');
    assert.equal(await state(), before);
  });

  t(
    'the edit page: current files with a thumbnail or a link, alt text inputs, order inputs for the gallery and the file list, a removal checkbox each',
    async () => {
      const html = await page(`/produits/${ids['A']}/edit`);
      const media = await mediaOf(ids['A']!);
      const byRole = (role: string) => media.filter((m) => m.role === role);
      const form = forms(html).find((f) => f.attrs['action'] === `/produits/${ids['A']}`)!;
      assert.is(form.attrs['enctype'], 'multipart/form-data');
      const named = tags(form.body, 'input').filter((i) => /\.(alt|position|remove)/.test(i.attrs['name'] ?? ''));
      const [cover] = byRole('cover');
      const [g1, g2] = byRole('gallery');
      const [notice] = byRole('notice');
      const [p1, p2] = byRole('pieces_jointes');
      assert.equal(
        named.map((i) => [i.attrs['name'], i.attrs['value']]),
        [
          [`photo.alt.${cover!.id}`, 'Fauteuil bleu'],
          ['photo.remove', String(cover!.id)],
          ['photo.alt', ''],
          [`galerie.alt.${g1!.id}`, ''],
          [`galerie.position.${g1!.id}`, '1'],
          ['galerie.remove', String(g1!.id)],
          [`galerie.alt.${g2!.id}`, ''],
          [`galerie.position.${g2!.id}`, '2'],
          ['galerie.remove', String(g2!.id)],
          ['notice.remove', String(notice!.id)],
          [`pieces_jointes.position.${p1!.id}`, '1'],
          ['pieces_jointes.remove', String(p1!.id)],
          [`pieces_jointes.position.${p2!.id}`, '2'],
          ['pieces_jointes.remove', String(p2!.id)],
        ],
      );
      assert.equal(
        tags(form.body, 'img').map((i) => i.attrs['src']),
        [cover!, g1!, g2!].map((m) => `/media/${m.path.replace('images/', 'images/thumbnail/')}`),
      );
      assert.equal(
        [...form.body.matchAll(/<a href="\/media\/documents\/[^"]+"[^>]*>([^<]*)<\/a>/g)].map((m) => m[1]),
        ['notice.pdf', 'garantie.pdf', 'facture.pdf'],
      );
    },
  );

  t('edit the alt texts and the order: the rows follow, the detail page shows the new order; no file touched', async () => {
    const files = app.uploads();
    const [g1, g2] = await mediaOf(ids['A']!, 'gallery');
    const [p1, p2] = await mediaOf(ids['A']!, 'pieces_jointes');
    const res = await post(`/produits/${ids['A']}`, [
      ['nom', 'Fauteuil club (cuir)'],
      ['reference', 'A-1'],
      [`galerie.alt.${g1!.id}`, 'Vue de face'],
      [`galerie.position.${g1!.id}`, '2'],
      [`galerie.alt.${g2!.id}`, 'Vue de côté'],
      [`galerie.position.${g2!.id}`, '1'],
      [`pieces_jointes.position.${p1!.id}`, '5'],
      [`pieces_jointes.position.${p2!.id}`, '-1'],
    ]);
    assert.is(res.status, 302, res.text.slice(0, 500));
    assert.equal(
      (await mediaOf(ids['A']!, 'gallery')).map((m) => [m.id, m.position, m.alt_text]),
      [
        [g2!.id, 0, 'Vue de côté'],
        [g1!.id, 1, 'Vue de face'],
      ],
    );
    assert.equal(
      (await mediaOf(ids['A']!, 'pieces_jointes')).map((m) => [m.id, m.position]),
      [
        [p2!.id, 0],
        [p1!.id, 1],
      ],
    );
    const html = await page(`/produits/${ids['A']}`);
    assert.equal(
      tags(html, 'img')
        .slice(1)
        .map((i) => i.attrs['alt']),
      ['Vue de côté', 'Vue de face'],
    );
    assert.equal(app.uploads(), files);
  });

  t('remove a gallery image and add one in the same submission: its row and its three files gone, the new one after the others', async () => {
    const [first, removed] = await mediaOf(ids['A']!, 'gallery');
    const res = await post(
      `/produits/${ids['A']}`,
      [
        ['nom', 'Fauteuil club (cuir)'],
        ['reference', 'A-1'],
        ['galerie.remove', String(removed!.id)],
      ],
      [['galerie', 'orange.jpg', images['orange.jpg']!, 'image/jpeg']],
    );
    assert.is(res.status, 302, res.text.slice(0, 500));
    const gallery = await mediaOf(ids['A']!, 'gallery');
    assert.equal(
      gallery.map((m) => [m.id, m.position]),
      [
        [first!.id, 0],
        [gallery[1]!.id, 1],
      ],
    );
    assert.ok(gallery[1]!.id > removed!.id);
    for (const file of filesOf(removed!)) assert.not.ok(app.uploads().includes(file), file);
    for (const file of filesOf(gallery[1]!)) assert.ok(app.uploads().includes(file), file);
  });

  t('a new photo replaces the current one (a single entry): the old row and files go, the new alt text is kept', async () => {
    const [old] = await mediaOf(ids['A']!, 'cover');
    const res = await post(
      `/produits/${ids['A']}`,
      [
        ['nom', 'Fauteuil club (cuir)'],
        ['reference', 'A-1'],
        ['photo.alt', 'Fauteuil vert'],
      ],
      [['photo', 'vert.png', images['vert.png']!, 'image/png']],
    );
    assert.is(res.status, 302, res.text.slice(0, 500));
    const cover = await mediaOf(ids['A']!, 'cover');
    assert.equal(
      cover.map((m) => [m.original_name, m.alt_text]),
      [['vert.png', 'Fauteuil vert']],
    );
    for (const file of filesOf(old!)) assert.not.ok(app.uploads().includes(file), file);
  });

  t('media ids of another record, of another entry, or not ids: 403 / 400, and nothing changes (neither the record, nor a row, nor a file)', async () => {
    const [foreignPhoto] = await mediaOf(ids['B']!, 'cover');
    const [foreignGallery] = await mediaOf(ids['B']!, 'gallery');
    const [ownGallery] = await mediaOf(ids['A']!, 'gallery');
    const fields = (extra: Array<[string, string]>): Array<[string, string]> => [['nom', 'Piraté'], ['reference', 'A-1'], ...extra];
    const cases: Array<[string, Array<[string, string]>, FilePart[], number]> = [
      [
        "remove B's gallery image from A's form",
        [['galerie.remove', String(foreignGallery!.id)]],
        [['galerie', 'vert.png', images['vert.png']!, 'image/png']],
        403,
      ],
      ["set the alt text of B's photo", [[`photo.alt.${foreignPhoto!.id}`, 'pirate']], [], 403],
      ["reorder B's gallery image", [[`galerie.position.${foreignGallery!.id}`, '1']], [], 403],
      ["A's own gallery image sent as its photo", [['photo.remove', String(ownGallery!.id)]], [], 403],
      ['an id that does not exist', [['notice.remove', '999999']], [], 403],
      ['an id that is not a number', [['galerie.remove', '1 OR 1=1']], [], 400],
      ['an id that is not a number, in a name', [[`galerie.alt.x${ownGallery!.id}`, 'x']], [], 400],
    ];
    for (const [what, extra, files, status] of cases) {
      const before = await state();
      const res = await post(`/produits/${ids['A']}`, fields(extra), files);
      assert.is(res.status, status, `${what} : ${res.text.slice(0, 300)}`);
      assert.equal(await state(), before, what);
    }
  });

  t("delete a record: its media rows and files go, another record's stay", async () => {
    const mine = await mediaOf(ids['A']!);
    const others = (await rows()).filter((r) => r.entity_id !== String(ids['A']));
    const res = await client.post(`/produits/${ids['A']}/delete`, [], {});
    assert.is(res.status, 302);
    assert.equal(await mediaOf(ids['A']!), []);
    assert.equal(await rows(), others);
    for (const file of mine.flatMap(filesOf)) assert.not.ok(app.uploads().includes(file), file);
    assert.equal(app.uploads(), others.flatMap(filesOf).sort());
  });

  t('bulk delete: every record confirmed loses its media rows and files', async () => {
    const res = await post(
      '/produits',
      [
        ['nom', 'Étagère'],
        ['reference', 'D-1'],
      ],
      [['notice', 'notice.pdf', PDF, 'application/pdf']],
    );
    assert.is(res.status, 302);
    ids['D'] = await produitId('D-1');
    assert.is((await rows()).length, 3, 'B: photo and gallery image; D: notice');
    const confirm = await client.post('/produits/bulk-delete/confirm', [
      ['ids', String(ids['B'])],
      ['ids', String(ids['C'])],
      ['ids', String(ids['D'])],
    ]);
    assert.is(confirm.status, 302);
    assert.equal(await app.query('SELECT Id FROM produits'), []);
    assert.equal(await rows(), []);
    assert.equal(app.uploads(), []);
  });

  t('the upload limit: 10 requests carrying a file per address and minute, then 429 with nothing stored; a request without a file is not counted', async () => {
    await app.restart();
    client = app.client();
    for (let i = 1; i <= 10; i++) {
      const res = await post(
        '/produits',
        [
          ['nom', `Limite ${i}`],
          ['reference', `L-${i}`],
        ],
        [['notice', 'note.txt', Buffer.from('x'), 'text/plain']],
      );
      assert.is(res.status, 422, `requête ${i}`);
    }
    const before = await state();
    const limited = await post(
      '/produits',
      [
        ['nom', 'Limite 11'],
        ['reference', 'L-11'],
      ],
      [['photo', 'bleu.jpg', images['bleu.jpg']!, 'image/jpeg']],
    );
    assert.is(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.equal(await state(), before);
    const plain = await post('/produits', [
      ['nom', 'Sans fichier'],
      ['reference', 'L-12'],
    ]);
    assert.is(plain.status, 302);
  });

  t.run();
}

for (const dialect of DIALECTS) mediaSuite(dialect);
