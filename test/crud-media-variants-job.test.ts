// The pages of `fw make:crud Produit --media --public` whose images have `"variants": "job"`, served for real on
// SQLite and on MariaDB with a real jobs worker (docs/uploads.md "Variants made by a job"): make:crud registers the
// job (the media module and the jobs index) and writes the jobs tables' SQL; the upload answers while no variant
// exists, the detail page and the list show the original; a failed save leaves no job; a separate `fw jobs:work`
// process makes the variants, which the pages then show; an original damaged on disk fails its job (retried, then
// dead), the original still linked and served; with the worker of `serve()` the variants come without another process.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Database, DialectName } from '../runtime/db/index.js';
import { openDatabase } from '../runtime/db/index.js';
import { FW, childEnv, newProject, type CliProject } from './helpers/cli.js';
import { HttpClient, linkFramework, serveProject } from './helpers/crud-app.js';
import { tags } from './helpers/crud-html.js';
import { PRODUIT, filesUnder, jpeg, produitWith } from './helpers/crud-media.js';
import { ok, writeEntity } from './helpers/crud-cli-project.js';
import { waitFor } from './helpers/cluster.js';
import { DIALECTS } from './helpers/dialects.js';

const ENTITY = produitWith([
  { name: 'photo', field: 'image', role: 'cover', label: 'Photo', variants: 'job' },
  { name: 'galerie', field: 'image', role: 'gallery', label: 'Galerie', variants: 'job', multiple: true },
  PRODUIT.media[2]!,
]);

interface MediaRow {
  id: number;
  entity_id: string;
  path: string;
  role: string;
}
interface JobRow {
  id: number;
  payload: string;
  status: string;
  attempts: number;
  last_error: string | null;
}

async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function variantsSuite(dialect: DialectName): void {
  const t = suite(`crud-media-variants-job: ${dialect}`);
  let project: CliProject;
  let served: Awaited<ReturnType<typeof serveProject>>;
  let client: HttpClient;
  let db: Database;
  let worker: ChildProcess | undefined;
  let workerOutput = '';
  let makeCrudOutput = '';
  const ids: Record<string, number> = {};

  const query = <T extends object>(sql: string, params: unknown[] = []): Promise<T[]> => db.fetchAll<T>(sql, params);
  const mediaOf = async (record: number): Promise<MediaRow[]> =>
    (await query<MediaRow>('SELECT id, entity_id, path, role FROM media WHERE entity_id = ? ORDER BY role, position, id', [String(record)])).map((r) => ({
      ...r,
      id: Number(r.id),
    }));
  const jobs = async (): Promise<JobRow[]> =>
    (await query<JobRow>("SELECT id, payload, status, attempts, last_error FROM fw_jobs WHERE name = 'media_variants' ORDER BY id")).map((r) => ({
      ...r,
      id: Number(r.id),
      attempts: Number(r.attempts),
    }));
  const jobOf = async (mediaId: number): Promise<JobRow> => (await jobs()).find((job) => JSON.parse(job.payload).mediaId === mediaId)!;
  const uploads = (): string[] => filesUnder(project.path('storage/uploads'));
  const produitId = async (reference: string): Promise<number> =>
    Number((await query<{ id: unknown }>('SELECT Id AS id FROM produits WHERE Reference = ?', [reference]))[0]!.id);
  const page = async (url: string): Promise<string> => {
    const res = await client.get(url);
    assert.is(res.status, 200, `${url} : ${res.text.slice(0, 300)}`);
    return res.text;
  };
  const images = (html: string): string[] => tags(html, 'img').map((img) => img.attrs['src']!);
  const url = (path: string, variant?: 'medium' | 'thumbnail'): string => `/media/${variant ? path.replace('images/', `images/${variant}/`) : path}`;
  const fetchImage = async (src: string): Promise<{ status: number; type: string | null; width: number | undefined }> => {
    const res = await fetch(served.url + src);
    const data = Buffer.from(await res.arrayBuffer());
    const { default: sharp } = await import('sharp');
    const width =
      res.status === 200
        ? await sharp(data)
            .metadata()
            .then(
              (m) => m.width,
              () => undefined,
            )
        : undefined;
    return { status: res.status, type: res.headers.get('content-type'), width };
  };
  const create = async (reference: string, files: Array<readonly [string, string, Buffer, string]>): Promise<number> => {
    const res = await client.postMultipart(
      '/produits',
      [
        ['nom', `Produit ${reference}`],
        ['reference', reference],
      ],
      files,
      '/produits/new',
    );
    assert.is(res.status, 302, res.text.slice(0, 500));
    return produitId(reference);
  };
  const startWorker = (): void => {
    worker = spawn(process.execPath, [FW, 'jobs:work', '--queue', 'media'], { cwd: project.root, env: childEnv() });
    worker.stdout!.on('data', (chunk: Buffer) => (workerOutput += chunk.toString()));
    worker.stderr!.on('data', (chunk: Buffer) => (workerOutput += chunk.toString()));
  };

  t.before(async () => {
    project = newProject('Boutique');
    project.useDialect(dialect);
    writeEntity(project, ENTITY);
    makeCrudOutput = ok(project, ['make:crud', 'Produit', '--media', '--public']);
    for (const args of [['upload:init'], ['media:init'], ['db:init'], ['db:apply']]) ok(project, args);
    linkFramework(project);
    // A separate worker process (`fw jobs:work`), so the server's own is off while JOBS_IN_SERVE says so.
    const config = project.read('config.ts');
    project.write(
      'config.ts',
      config.replace("  mail_dir: process.env.MAIL_DIR || 'storage/mail',\n", "$&  jobs_in_serve: process.env.JOBS_IN_SERVE !== 'false',\n"),
    );
    assert.match(project.read('config.ts'), 'jobs_in_serve');
    served = await serveProject(project, { JOBS_IN_SERVE: 'false' });
    client = new HttpClient(served.url);
    db = dialect === 'sqlite' ? openDatabase({ driver: 'sqlite', file: project.path('storage/database.sqlite') }) : project.open();
  });

  t.after(async () => {
    await stopChild(worker);
    if (served) await stopChild(served.child);
    await db?.close();
    await project?.cleanup();
  });

  t('make:crud registers the job: the media module passes it, the jobs index imports it, db:apply made the jobs tables', async () => {
    const module = project.read('mvc/models/produit_media.ts');
    assert.match(module, "import { MEDIA_VARIANTS_JOB } from 'fw-mvc/media/jobs';");
    assert.match(module, "{ name: 'photo', label: 'Photo', kind: 'image', role: 'cover', multiple: false, variants: 'job' },");
    assert.match(module, 'variantsJob: MEDIA_VARIANTS_JOB,');
    assert.match(project.read('mvc/jobs/index.ts'), /^import 'fw-mvc\/media\/jobs';$/m);
    assert.ok(fs.existsSync(project.path(`mvc/models/sql/jobs/fw_jobs${dialect === 'sqlite' ? '.sqlite' : ''}.sql`)));
    assert.match(makeCrudOutput, 'Variantes faites par une tâche');
    assert.equal(await jobs(), []);
  });

  t('the upload answers before any variant exists: the detail page and the list show the original, which is served', async () => {
    ids['A'] = await create('A-1', [
      ['photo', 'bleu.jpg', await jpeg(2400, 1600, { r: 40, g: 90, b: 160 }), 'image/jpeg'],
      ['galerie', 'orange.jpg', await jpeg(900, 1200, { r: 200, g: 120, b: 30 }), 'image/jpeg'],
      ['galerie', 'vert.jpg', await jpeg(800, 800, { r: 30, g: 140, b: 90 }), 'image/jpeg'],
    ]);
    const media = await mediaOf(ids['A']);
    assert.is(media.length, 3);
    // The originals only, and one queued job per image, written with the rows.
    assert.equal(uploads(), media.map((m) => m.path).sort());
    assert.equal(
      (await jobs()).map((job) => [JSON.parse(job.payload).mediaId, job.status, job.attempts]),
      media.map((m) => [m.id, 'queued', 0]).sort((a, b) => Number(a[0]) - Number(b[0])),
    );
    const [cover, ...gallery] = [...media.filter((m) => m.role === 'cover'), ...media.filter((m) => m.role === 'gallery')];
    const shown = images(await page(`/produits/${ids['A']}`));
    assert.equal(shown, [url(cover!.path), ...gallery.map((m) => url(m.path))]);
    for (const src of shown) {
      const image = await fetchImage(src);
      assert.is(image.status, 200, src);
      assert.is(image.type, 'image/jpeg');
    }
    assert.is((await fetchImage(shown[0]!)).width, 2400);
    assert.ok(images(await page('/produits')).includes(url(cover!.path)), 'the list shows the original as its thumbnail');
  });

  t('a save that fails (a reference already taken) leaves no job, no row and no file', async () => {
    const before = { jobs: await jobs(), files: uploads() };
    const res = await client.postMultipart(
      '/produits',
      [
        ['nom', 'Doublon'],
        ['reference', 'A-1'],
      ],
      [['photo', 'bleu.jpg', await jpeg(1200, 800, { r: 40, g: 90, b: 160 }), 'image/jpeg']],
      '/produits/new',
    );
    assert.is(res.status, 422, res.text.slice(0, 300));
    assert.equal({ jobs: await jobs(), files: uploads() }, before);
  });

  t('an image damaged on disk before its job ran: its job will fail (the other record is untouched)', async () => {
    ids['B'] = await create('B-1', [['photo', 'rouge.jpg', await jpeg(1600, 1200, { r: 180, g: 40, b: 40 }), 'image/jpeg']]);
    const [damaged] = await mediaOf(ids['B']);
    fs.writeFileSync(project.path(`storage/uploads/${damaged!.path}`), Buffer.from('plus une image JPEG'));
    assert.is((await jobOf(damaged!.id)).status, 'queued');
  });

  t('fw jobs:work makes the variants: the detail page shows the medium and the thumbnails, the list its thumbnail', async () => {
    startWorker();
    const media = await mediaOf(ids['A']!);
    await waitFor(
      'the variants of A',
      async () => (await Promise.all(media.map((m) => jobOf(m.id)))).every((job) => job.status === 'done') || worker!.exitCode !== null,
      60_000,
    );
    assert.ok(
      (await Promise.all(media.map((m) => jobOf(m.id)))).every((job) => job.status === 'done' && job.attempts === 1),
      workerOutput,
    );
    assert.match(workerOutput, 'Travailleur prêt : media');
    const [cover, ...gallery] = [...media.filter((m) => m.role === 'cover'), ...media.filter((m) => m.role === 'gallery')];
    const shown = images(await page(`/produits/${ids['A']}`));
    assert.equal(shown, [url(cover!.path, 'medium'), ...gallery.map((m) => url(m.path, 'thumbnail'))]);
    assert.equal(await Promise.all(shown.map(async (src) => (await fetchImage(src)).width)), [1280, 225, 300]);
    assert.ok(images(await page('/produits')).includes(url(cover!.path, 'thumbnail')), 'the list shows the thumbnail');
    assert.equal(
      uploads().filter((name) => name.includes('.upload-')),
      [],
      'no temporary file left',
    );
  });

  t('the damaged image: its job is retried, then dead with its error; the page still links the original, no variant is written', async () => {
    const [damaged] = await mediaOf(ids['B']!);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const job = await waitFor(
        `attempt ${attempt}`,
        async () => {
          const row = await jobOf(damaged!.id);
          return row.attempts >= attempt && row.status !== 'running' ? row : null;
        },
        60_000,
      );
      assert.is(job.attempts, attempt, workerOutput);
      assert.match(job.last_error ?? '', "n'est pas une image lisible");
      assert.is(job.status, attempt < 3 ? 'queued' : 'dead');
      // Due now rather than after its backoff, so that the worker takes it at its next look.
      if (attempt < 3) await db.execute("UPDATE fw_jobs SET run_at = '2000-01-01 00:00:00' WHERE id = ?", [job.id]);
    }
    assert.equal(images(await page(`/produits/${ids['B']}`)), [url(damaged!.path)]);
    assert.is((await fetchImage(url(damaged!.path))).status, 200);
    assert.equal(
      uploads().filter((name) => name.endsWith(damaged!.path.slice('images/'.length))),
      [damaged!.path],
    );
  });

  t('with the worker of serve() (jobs_in_serve): the variants come without another process', async () => {
    await stopChild(worker);
    worker = undefined;
    await stopChild(served.child);
    served = await serveProject(project);
    client = new HttpClient(served.url);
    ids['C'] = await create('C-1', [['photo', 'gris.jpg', await jpeg(1400, 1400, { r: 120, g: 120, b: 120 }), 'image/jpeg']]);
    const [photo] = await mediaOf(ids['C']);
    await waitFor('the job of C', async () => (await jobOf(photo!.id)).status === 'done' || served.child.exitCode !== null, 60_000);
    assert.is((await jobOf(photo!.id)).status, 'done', served.output());
    assert.equal(images(await page(`/produits/${ids['C']}`)), [url(photo!.path, 'medium')]);
  });

  t.run();
}

for (const dialect of DIALECTS) variantsSuite(dialect);
