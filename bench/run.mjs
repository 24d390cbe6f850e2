/**
 * `npm run bench`: the HTTP section (fw-mvc against raw node:http and fastify), the CLI section (wall time of
 * `fw` commands), the CRUD section (`fw make:crud` wall time and the generated list page over 100,000 MariaDB
 * rows), the auth section (the login POST and a signed-in page per session store), the reset section (the answer
 * time of the forgotten-password form for a known and an unknown address, medians side by side), the scale section (the
 * signed-in generated list page with WEB_CONCURRENCY=1 and 2, Redis sessions, wrk as load generator), then the uploads section (a 5 MiB
 * JPEG stored with its variants: time per upload, server peak RSS; ten 100-megapixel PNGs at once: peak RSS and RSS
 * after 30 s idle), then the diagnostics section (`fw project:check` and `fw doctor` on 100 entities, doctor with
 * MariaDB and with SQLite answering), then the mail section (messages per second through the outbox to a local
 * SMTP server; the added time of a page that queues a message), then the semispace section (`--max-semi-space-size`
 * at 8, 16, 32 and Node's default on /page and the signed-in page with WEB_CONCURRENCY=1 and 2: req/s and RSS), then the jobs
 * section (jobs per second through fw-mvc/jobs on SQLite and MariaDB beside BullMQ on Redis, one and two worker
 * processes, empty and 5 ms handlers; the added time of a page that enqueues a job); prints each table and the targets (PASS / MISS),
 * and writes bench/results/latest.json.
 *
 * Sections: `BENCH_ONLY=http`, `BENCH_ONLY=cli`, `BENCH_ONLY=crud`, `BENCH_ONLY=auth`, `BENCH_ONLY=reset`, `BENCH_ONLY=scale`, `BENCH_ONLY=cluster` (bench/cluster.mjs), `BENCH_ONLY=uploads`, `BENCH_ONLY=diag`, `BENCH_ONLY=mail`, `BENCH_ONLY=semispace`, `BENCH_ONLY=jobs` (or
 * `--only=...`, comma-separated); default all. Uploads: BENCH_UPLOAD_RUNS (20 timed uploads; 8 in short mode),
 * BENCH_UPLOAD_IDLE_S (30 s idle after the ten 100-megapixel uploads).
 * Short mode: `BENCH_SHORT=1` (or `--short`): 3 rounds × 2 s, 1 s warm-up, 3 CLI runs: a quick check, noisier.
 * HTTP: BENCH_DURATION (s per run, 3), BENCH_ROUNDS (7), BENCH_WARMUP (s, 2), BENCH_MAX_NOISE (cores of other work
 * tolerated during a sample, 0.15; a noisier sample is taken again, up to 3 times), BENCH_PIN=0 (no CPU pinning).
 * CLI: BENCH_CLI_RUNS (5). CRUD: BENCH_CRUD_ROWS (100000), BENCH_CRUD_REQUESTS (200 per URL; 50 in short mode),
 * BENCH_CRUD_RUNS (5 make:crud runs; 3 in short mode), BENCH_CRUD_ROUNDS (3 load rounds of the list page; 1 in short
 * mode), BENCH_CRUD_DURATION (5 s per load run; 3 in short mode), BENCH_CRUD_WARMUP (3 s per page; 1 in short mode); needs MariaDB on 127.0.0.1:3306. Diag:
 * BENCH_CLI_RUNS too; needs MariaDB on 127.0.0.1:3306. Reset: BENCH_RESET_ROUNDS (200 requests of each kind; 40 in
 * short mode), after 10 warm-up rounds. Mail: BENCH_MAIL_MESSAGES (1000 messages through the outbox;
 * 200 in short mode). Scale: BENCH_SCALE_ROWS (10000 contacts on SQLite), BENCH_ROUNDS (4; 2 in short mode),
 * BENCH_DURATION (5 s; 2 in short mode), BENCH_LOADGEN (wrk or autocannon; default wrk when /usr/bin/wrk exists); needs
 * Redis on 127.0.0.1:6379. Cluster: BENCH_ROUNDS (4; 2 in short mode), BENCH_DURATION (6 s; 3 in short mode),
 * BENCH_CLUSTER_WARMUP (else BENCH_WARMUP; 8 s per serving process, 3 in short mode: two workers warm 16 s); needs
 * Redis on 127.0.0.1:6379. Jobs: BENCH_JOBS (5000 empty jobs per run; 1000 in short mode), BENCH_JOBS_SLOW (2000
 * jobs of 5 ms; 500 in short mode), BENCH_JOBS_CONCURRENCY (5 jobs at once per worker process, the default of
 * `jobs_concurrency`) and BENCH_JOBS_WIDE (25, the wider setting measured beside it), BENCH_ROUNDS / BENCH_DURATION / BENCH_WARMUP for the page (5 × 3 s; 3 × 2 s in short mode);
 * needs MariaDB on 127.0.0.1:3306 and Redis on 127.0.0.1:6379.
 * Exit code: 0 when every measured target passes, 1 otherwise (and on any error).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_DIR } from './shared.mjs';

const SECTIONS = ['http', 'cli', 'crud', 'auth', 'reset', 'scale', 'cluster', 'uploads', 'diag', 'mail', 'semispace', 'jobs'];

function options() {
  const { values } = parseArgs({ options: { only: { type: 'string' }, short: { type: 'boolean' } }, strict: true });
  const onlyText = values.only ?? process.env.BENCH_ONLY ?? '';
  const only = onlyText ? onlyText.split(/[,|\s]+/).filter(Boolean) : SECTIONS;
  const unknown = only.filter((s) => !SECTIONS.includes(s));
  if (unknown.length) throw new Error(`unknown bench section(s) ${unknown.join(', ')}: choose among ${SECTIONS.join(', ')}`);
  const short = values.short ?? ['1', 'true', 'yes', 'on'].includes((process.env.BENCH_SHORT ?? '').toLowerCase());
  return { only, short };
}

function positive(name, fallback) {
  const value = Number(process.env[name] ?? fallback);
  if (!(value > 0)) throw new Error(`${name} must be a positive number (got ${process.env[name]})`);
  return value;
}

async function main() {
  const { only, short } = options();
  const machine = {
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model,
    memory_gb: Number((os.totalmem() / 2 ** 30).toFixed(1)),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
  console.log(`bench: ${only.join(' + ')}${short ? ' (short mode)' : ''}; ${machine.nproc} cores, ${machine.cpu}, node ${machine.node}`);
  const report = { date: new Date().toISOString(), machine, short, sections: {} };

  if (only.includes('http')) {
    console.log('\n== HTTP: fw-mvc against node:http and fastify\n');
    const { runHttp } = await import('./http.mjs');
    report.sections.http = await runHttp({
      rounds: positive('BENCH_ROUNDS', short ? 3 : 7),
      duration: positive('BENCH_DURATION', short ? 2 : 3),
      warmup: positive('BENCH_WARMUP', short ? 1 : 2),
      maxNoise: positive('BENCH_MAX_NOISE', 0.15),
    });
  }
  if (only.includes('cli')) {
    console.log('\n== CLI: wall time of fw commands\n');
    const { runCli } = await import('./cli.mjs');
    report.sections.cli = await runCli({ runs: positive('BENCH_CLI_RUNS', short ? 3 : 5) });
  }
  if (only.includes('crud')) {
    console.log('\n== CRUD: fw make:crud and the generated list page\n');
    if (short) {
      process.env.BENCH_CRUD_REQUESTS ??= '50';
      process.env.BENCH_CRUD_RUNS ??= '3';
      process.env.BENCH_CRUD_ROUNDS ??= '1';
      process.env.BENCH_CRUD_DURATION ??= '3';
      process.env.BENCH_CRUD_WARMUP ??= '1';
    }
    const { runCrudBench } = await import('./crud.mjs');
    report.sections.crud = await runCrudBench();
  }

  if (only.includes('auth')) {
    console.log('\n== Auth: the login POST and a signed-in page, per session store\n');
    const { runAuthBench } = await import('./auth.mjs');
    report.sections.auth = await runAuthBench({
      rounds: positive('BENCH_ROUNDS', short ? 3 : 5),
      duration: positive('BENCH_DURATION', short ? 2 : 3),
      warmup: positive('BENCH_WARMUP', short ? 1 : 2),
    });
  }

  if (only.includes('reset')) {
    console.log('\n== Reset: POST /password/forgot, a known against an unknown address\n');
    const { runResetBench } = await import('./reset.mjs');
    report.sections.reset = await runResetBench({ rounds: positive('BENCH_RESET_ROUNDS', short ? 40 : 200), warmup: 10 });
  }

  if (only.includes('scale')) {
    console.log('\n== Scale: the signed-in generated list page with WEB_CONCURRENCY=1 and 2 (Redis sessions)\n');
    const { runScaleBench } = await import('./scale.mjs');
    report.sections.scale = await runScaleBench({
      rounds: positive('BENCH_ROUNDS', short ? 2 : 4),
      duration: positive('BENCH_DURATION', short ? 2 : 5),
      warmup: positive('BENCH_WARMUP', short ? 1 : 2),
    });
  }

  if (only.includes('cluster')) {
    console.log('\n== Cluster: CPU per request and memory per process, one process against two, beside a bare node:cluster server\n');
    const { runClusterBench } = await import('./cluster.mjs');
    report.sections.cluster = await runClusterBench({
      rounds: positive('BENCH_ROUNDS', short ? 2 : 4),
      duration: positive('BENCH_DURATION', short ? 3 : 6),
      // Seconds per serving process: a worker reaches its steady CPU per request after its own JIT warm-up.
      warmup: positive('BENCH_CLUSTER_WARMUP', process.env.BENCH_WARMUP ?? (short ? 3 : 8)),
    });
  }

  if (only.includes('uploads')) {
    console.log('\n== Uploads: a 5 MiB JPEG with its variants; ten 100-megapixel PNGs at once\n');
    const { runUploadsBench } = await import('./uploads.mjs');
    report.sections.uploads = await runUploadsBench({
      runs: positive('BENCH_UPLOAD_RUNS', short ? 8 : 20),
      warmup: short ? 1 : 2,
      idleMs: positive('BENCH_UPLOAD_IDLE_S', 30) * 1000,
    });
  }

  if (only.includes('diag')) {
    console.log('\n== Diagnostics: fw project:check and fw doctor on 100 entities\n');
    const { runDiagBench } = await import('./diag.mjs');
    report.sections.diag = await runDiagBench({ runs: positive('BENCH_CLI_RUNS', short ? 3 : 5) });
  }
  if (only.includes('mail')) {
    console.log('\n== Mail: messages per second through the outbox; the added time of a page that queues one\n');
    const { runMailBench } = await import('./mail.mjs');
    report.sections.mail = await runMailBench({
      rounds: positive('BENCH_ROUNDS', short ? 3 : 5),
      duration: positive('BENCH_DURATION', short ? 2 : 3),
      warmup: positive('BENCH_WARMUP', short ? 1 : 2),
      messages: positive('BENCH_MAIL_MESSAGES', short ? 200 : 1000),
    });
  }

  if (only.includes('semispace')) {
    console.log('\n== Semispace: --max-semi-space-size at 8, 16, 32 and the default, req/s and RSS after the load\n');
    const { runSemispaceBench } = await import('./semispace.mjs');
    report.sections.semispace = await runSemispaceBench({
      rounds: positive('BENCH_ROUNDS', short ? 2 : 4),
      duration: positive('BENCH_DURATION', short ? 2 : 5),
      warmup: positive('BENCH_WARMUP', short ? 1 : 3),
    });
  }

  if (only.includes('jobs')) {
    console.log('\n== Jobs: jobs per second through the queue (SQLite, MariaDB) beside BullMQ (Redis); the added time of a page that enqueues one\n');
    const { runJobsBench } = await import('./jobs.mjs');
    report.sections.jobs = await runJobsBench({
      rounds: positive('BENCH_ROUNDS', short ? 3 : 5),
      duration: positive('BENCH_DURATION', short ? 2 : 3),
      warmup: positive('BENCH_WARMUP', short ? 1 : 2),
      jobs: positive('BENCH_JOBS', short ? 1000 : 5000),
      slowJobs: positive('BENCH_JOBS_SLOW', short ? 500 : 2000),
      concurrency: positive('BENCH_JOBS_CONCURRENCY', 5),
      wideConcurrency: positive('BENCH_JOBS_WIDE', 25),
    });
  }

  console.log('\ntargets:');
  let missed = 0;
  for (const [section, { targets }] of Object.entries(report.sections)) {
    for (const t of targets) {
      if (!t.pass) missed++;
      console.log(`  ${t.pass ? 'PASS' : 'MISS'}  ${section.padEnd(4)}  ${t.target}  (${t.value}${t.note ? `; ${t.note}` : ''})`);
    }
  }

  const file = path.join(BENCH_DIR, 'results', 'latest.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwritten: ${path.relative(process.cwd(), file)}`);
  if (missed) process.exitCode = 1;
}

await main();
