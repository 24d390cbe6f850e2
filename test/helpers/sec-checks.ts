/**
 * The security checks (cli/checks/sec.ts) run as a command would run them (test/helpers/sec-runner.ts, in the
 * file's command runner), in the project's folder, the environment of this process stripped of every variable the checks read, `APP_ENV` set when asked;
 * it gathers the context, runs SEC_CHECKS and prints the report as `--json` prints it
 * (`{ command, env, ok, summary, checks }`), exit 1 on a FAIL; and the same checks through the command itself,
 * `fw doctor --env <env> [--json]`. Also: copies of one `fw new` project given a defect each, certificates made by
 * openssl, and a digest of a whole tree (mtimes included) to prove nothing was written.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as assert from 'uvu/assert';
import type { CheckResult } from '../../cli/checks/check.js';
import { fwWithEnvironment, inRunner } from './cli.js';

export interface SecReport {
  readonly command: string;
  readonly env: string;
  readonly ok: boolean;
  readonly summary: Record<'ok' | 'warn' | 'fail' | 'skip' | 'info', number>;
  readonly checks: CheckResult[];
}

export interface SecRun {
  readonly status: number | null;
  readonly report: SecReport;
  readonly stderr: string;
}

const RUNNER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sec-runner.js');

/** Variables the checks read (or that point git elsewhere): the child gets only the project's env file's. */
const READ = /^(DB_|GIT_)|^(APP_ENV|FW_DEBUG|SESSION_STORE|RATE_LIMIT_STORE|TRUSTED_PROXIES|SSL_CERTFILE|SSL_KEYFILE|API_TOKEN|APP_SECRET|HOST|PORT)$|PROXY/i;

/** Runs the security checks in `root` for `appEnv` (`dev` when not given), with `extra` variables in the process. */
export function secChecks(root: string, appEnv?: string, extra: Readonly<Record<string, string>> = {}): SecRun {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!READ.test(key)) env[key] = value;
  if (appEnv) env.APP_ENV = appEnv;
  const run = inRunner(root, RUNNER, [root], { ...env, ...extra } as Record<string, string>);
  let report: SecReport;
  try {
    report = JSON.parse(run.stdout) as SecReport;
  } catch {
    throw new Error(`pas de rapport JSON (code ${run.status}) : ${run.stdout}\n${run.stderr}`);
  }
  return { status: run.status, report, stderr: run.stderr };
}

/** `fw doctor --env <appEnv>` (with `--json` when asked) in `root`, with the environment `secChecks` gives its runner. */
export function doctor(
  root: string,
  appEnv: string,
  extra: Readonly<Record<string, string>> = {},
  json = true,
): { status: number | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!READ.test(key)) env[key] = value;
  return fwWithEnvironment(root, ['doctor', '--env', appEnv, ...(json ? ['--json'] : [])], { ...env, ...extra } as Record<string, string>);
}

/** `fw doctor --env <appEnv> --json` in `root`: its exit code and its report (every family, sec included). */
export function doctorJson(root: string, appEnv: string, extra: Readonly<Record<string, string>> = {}): SecRun {
  const run = doctor(root, appEnv, extra);
  let report: SecReport;
  try {
    report = JSON.parse(run.stdout) as SecReport;
  } catch {
    throw new Error(`fw doctor --json n'a pas écrit de JSON (code ${run.status}) : ${run.stdout}\n${run.stderr}`);
  }
  return { status: run.status, report, stderr: run.stderr };
}

/** The fields of a result both reports carry. */
function shown(check: CheckResult): Record<string, unknown> {
  const { id, family, label, status, detail, hint, file, line, column } = check;
  return JSON.parse(JSON.stringify({ id, family, label, status, detail, hint, file, line, column }));
}

/** `fw doctor --env <appEnv> --json` agrees with the runner: the same sec results, exit 1 exactly on a FAIL. */
export function expectDoctorAgrees(run: SecRun, doctorRun: SecRun, appEnv: string): void {
  assert.is(doctorRun.stderr, '');
  assert.is(doctorRun.report.command, 'doctor');
  assert.is(doctorRun.report.env, appEnv);
  assert.equal(doctorRun.report.checks.filter((check) => check.family === 'sec').map(shown), run.report.checks.map(shown));
  const failing = doctorRun.report.checks.some((check) => check.status === 'FAIL');
  assert.is(doctorRun.status, failing ? 1 : 0, JSON.stringify(doctorRun.report.checks.filter((check) => check.status === 'FAIL')));
  assert.is(doctorRun.report.ok, !failing);
  if (run.status === 1) assert.is(doctorRun.status, 1, 'a sec FAIL fails fw doctor');
}

/** A result as the text report prints it: `  [FAIL] FW-SEC-008 Label — detail : hint`. */
export function textLine(check: CheckResult): string {
  const detail = check.hint ? (check.detail ? `${check.detail} : ${check.hint}` : check.hint) : (check.detail ?? '');
  return `  ${`[${check.status}]`.padEnd(7)}${check.id} ${check.label}${detail ? ` — ${detail}` : ''}`;
}

/** The result of `id` in a report; throws when absent. */
export function byId(report: SecReport, id: string): CheckResult {
  const found = report.checks.find((check) => check.id === id);
  if (!found) throw new Error(`${id} absent du rapport : ${report.checks.map((check) => check.id).join(', ')}`);
  return found;
}

/** A copy of `source` in a fresh temporary folder (its root is returned). */
export function copyProject(source: string): string {
  const parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-sec-')));
  const root = path.join(parent, path.basename(source));
  fs.cpSync(source, root, { recursive: true, verbatimSymlinks: true });
  return root;
}

/** Removes a copy made by copyProject (its temporary parent too). */
export function removeCopy(root: string): void {
  fs.rmSync(path.dirname(root), { recursive: true, force: true });
}

/** `git <args>` in `cwd` (an author given, hooks and global configuration ignored). */
export function git(cwd: string, args: readonly string[]): string {
  return execFileSync('git', ['-c', 'user.name=fw', '-c', 'user.email=fw@example.invalid', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });
}

/** Sets `KEY=value` lines in an env file (replacing the same keys, appending the others). */
export function setEnv(file: string, values: Readonly<Record<string, string>>): void {
  const kept = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => !Object.keys(values).some((key) => line.startsWith(`${key}=`)));
  const added = Object.entries(values).map(([key, value]) => `${key}=${value}`);
  fs.writeFileSync(file, `${kept.join('\n').trimEnd()}\n${added.join('\n')}\n`);
}

export interface Certificates {
  readonly dir: string;
  /** Valid for a year: `valid.crt`, `valid.key`. */
  readonly valid: { cert: string; key: string };
  /** Expires in 5 days. */
  readonly expiring: { cert: string; key: string };
  /** Expired in 2020. */
  readonly expired: { cert: string; key: string };
  /** A key that belongs to no certificate here. */
  readonly otherKey: string;
  /** `valid.key` encrypted with a passphrase. */
  readonly encryptedKey: string;
}

function openssl(cwd: string, args: readonly string[]): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Certificates and keys (EC P-256) made by openssl in a temporary folder. */
export function makeCertificates(): Certificates {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-sec-tls-')));
  const at = (name: string): string => path.join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(dir, ['req', '-x509', ...ec, '-keyout', 'valid.key', '-out', 'valid.crt', '-days', '365', '-subj', '/CN=localhost']);
  openssl(dir, ['req', '-x509', ...ec, '-keyout', 'expiring.key', '-out', 'expiring.crt', '-days', '5', '-subj', '/CN=localhost']);
  openssl(dir, ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', 'other.key']);
  openssl(dir, ['pkey', '-in', 'valid.key', '-out', 'encrypted.key', '-aes256', '-passout', 'pass:phrase-secrete']);
  // An expired certificate: `openssl ca` takes explicit dates (`req -days` refuses a past one).
  openssl(dir, ['req', ...ec, '-keyout', 'expired.key', '-out', 'expired.csr', '-subj', '/CN=localhost']);
  fs.writeFileSync(
    at('ca.cnf'),
    '[ca]\ndefault_ca=d\n[d]\ndatabase=index.txt\nnew_certs_dir=.\nserial=serial\ndefault_md=sha256\npolicy=p\n[p]\ncommonName=supplied\n',
  );
  fs.writeFileSync(at('index.txt'), '');
  fs.writeFileSync(at('serial'), '01\n');
  openssl(dir, [
    'ca',
    '-batch',
    '-config',
    'ca.cnf',
    '-selfsign',
    '-keyfile',
    'expired.key',
    '-in',
    'expired.csr',
    '-out',
    'expired.crt',
    '-startdate',
    '20200101000000Z',
    '-enddate',
    '20200201000000Z',
    '-notext',
  ]);
  return {
    dir,
    valid: { cert: at('valid.crt'), key: at('valid.key') },
    expiring: { cert: at('expiring.crt'), key: at('expiring.key') },
    expired: { cert: at('expired.crt'), key: at('expired.key') },
    otherKey: at('other.key'),
    encryptedKey: at('encrypted.key'),
  };
}

/** A digest of every entry under `dir`: path, type, size, mode, mtime and content (symbolic links not followed). */
export function treeDigest(dir: string): string {
  const hash = createHash('sha256');
  const walk = (relative: string): void => {
    const entries = fs.readdirSync(path.join(dir, relative), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      const absolute = path.join(dir, child);
      const stat = fs.lstatSync(absolute);
      hash.update(`${child}\0${stat.mode}\0${stat.size}\0${stat.mtimeMs}\0`);
      if (entry.isSymbolicLink()) hash.update(fs.readlinkSync(absolute));
      else if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) hash.update(fs.readFileSync(absolute));
    }
  };
  walk('');
  return hash.digest('hex');
}
