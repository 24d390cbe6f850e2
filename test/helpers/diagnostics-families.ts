/**
 * What the diagnostics corpus tests share: a copy of a real `fw new` project given one defect, the checks of some
 * families run over it in the file's command runner (test/helpers/diagnostics-runner.ts: the project's env file is
 * loaded into that process only), and the state of the whole tree (contents, sizes, mtimes, folders included) to prove
 * that the checks changed nothing.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as assert from 'uvu/assert';
import type { CheckResult } from '../../cli/checks/check.js';
import { inRunner } from './cli.js';

const RUNNER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'diagnostics-runner.js');

export interface Diagnosis {
  readonly status: number | null;
  readonly ok: boolean;
  readonly summary: Record<'ok' | 'warn' | 'fail' | 'skip' | 'info', number>;
  readonly checks: CheckResult[];
  readonly stderr: string;
  readonly ms: number;
}

/** Runs the checks of `families` for `command` in `root` (a child process without DB_* or APP_ENV of its own). */
export function diagnose(root: string, families: readonly string[], command = 'project:check', env: Record<string, string> = {}): Diagnosis {
  const childEnv: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('DB_') && key !== 'APP_ENV' && key !== 'FW_DEBUG') childEnv[key] = value;
  const started = Date.now();
  const run = inRunner(root, RUNNER, [command, ...families], { ...childEnv, ...env } as Record<string, string>);
  let parsed: Omit<Diagnosis, 'status' | 'stderr' | 'ms'>;
  try {
    parsed = JSON.parse(run.stdout);
  } catch {
    throw new Error(`sortie illisible (${run.status}) : ${run.stdout}${run.stderr}`);
  }
  return { ...parsed, status: run.status, stderr: run.stderr, ms: Date.now() - started };
}

/** The results of one id. */
export function byId(diagnosis: Diagnosis, id: string): CheckResult[] {
  return diagnosis.checks.filter((check) => check.id === id);
}

/** `ID STATUS` of every WARN and FAIL, sorted: what a broken project must show, and nothing else. */
export function problems(diagnosis: Diagnosis): string[] {
  return diagnosis.checks
    .filter((check) => check.status === 'WARN' || check.status === 'FAIL')
    .map((check) => `${check.id} ${check.status}`)
    .sort();
}

/** Asserts the WARN and FAIL results and the exit code (1 with a FAIL, else 0), with the report in the message. */
export function assertProblems(diagnosis: Diagnosis, expected: readonly string[]): void {
  const report = diagnosis.checks.map((c) => `${c.status} ${c.id} ${c.detail ?? ''}`).join('\n');
  assert.equal(problems(diagnosis), [...expected].sort(), report);
  assert.is(diagnosis.status, expected.some((e) => e.endsWith(' FAIL')) ? 1 : 0, `${report}\n${diagnosis.stderr}`);
  assert.is(diagnosis.stderr, '');
}

/** Every entry under `root` (not following links): type, size, mtime and a hash of the content of files. */
export function treeState(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (relative: string): void => {
    const absolute = path.join(root, relative);
    const stat = fs.lstatSync(absolute);
    const key = relative || '.';
    if (stat.isSymbolicLink()) out[key] = `link ${fs.readlinkSync(absolute)} ${stat.mtimeMs}`;
    else if (stat.isDirectory()) {
      out[key] = `dir ${stat.mtimeMs}`;
      for (const name of fs.readdirSync(absolute)) walk(relative ? `${relative}/${name}` : name);
    } else {
      out[key] = `file ${stat.size} ${stat.mtimeMs} ${createHash('sha256').update(fs.readFileSync(absolute)).digest('hex')}`;
    }
  };
  walk('');
  return out;
}

/** Copies of a project made for the cases of one test file, removed by `cleanup()`. */
export class Copies {
  private readonly parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-diag-')));
  private count = 0;

  constructor(private readonly source: string) {}

  /** A copy of the project with `defect` applied (given the copy's root). */
  make(defect: (root: string) => void = () => {}): string {
    const root = path.join(this.parent, `case-${++this.count}`);
    fs.cpSync(this.source, root, { recursive: true, verbatimSymlinks: true });
    defect(root);
    return root;
  }

  cleanup(): void {
    fs.rmSync(this.parent, { recursive: true, force: true });
  }
}

/** Runs the checks and asserts that the project's tree is exactly as before (nothing written, created or deleted). */
export function diagnoseInert(root: string, families: readonly string[], command = 'project:check', env: Record<string, string> = {}): Diagnosis {
  const before = treeState(root);
  const diagnosis = diagnose(root, families, command, env);
  assert.equal(treeState(root), before, 'les contrôles ont modifié le projet');
  return diagnosis;
}

/** Writes a project file (posix path). */
export function write(root: string, relative: string, content: string | Buffer): void {
  const file = path.join(root, ...relative.split('/'));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

/** Edits a project file's text. */
export function edit(root: string, relative: string, change: (text: string) => string): void {
  const file = path.join(root, ...relative.split('/'));
  fs.writeFileSync(file, change(fs.readFileSync(file, 'utf8')));
}
