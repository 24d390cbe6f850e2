/**
 * The diagnostics corpus: one real `fw new` project made once, copied for each case and given ONE defect, then
 * `fw <command> --json` and `fw <command>` (text) run in the copy as real processes. `expectCase` asserts the id,
 * status and exit code of a case in both outputs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as assert from 'uvu/assert';
import { fw, newProject, type CliProject, type Run } from './cli.js';

export type DiagnosticCommand = 'doctor' | 'project:check' | 'project:audit';

export interface ReportCheck {
  readonly id: string;
  readonly family: string;
  readonly label: string;
  readonly status: string;
  readonly detail: string;
  readonly hint?: string;
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
}

export interface Report {
  readonly command: string;
  readonly env: string;
  readonly ok: boolean;
  readonly summary: Readonly<Record<'ok' | 'warn' | 'fail' | 'skip' | 'info', number>>;
  readonly checks: readonly ReportCheck[];
}

/** A copy of the base project: its root and helpers to give it a defect. */
export interface Copy {
  readonly root: string;
  path(relative: string): string;
  write(relative: string, content: string | Buffer): void;
  read(relative: string): string;
  remove(relative: string): void;
}

export function copyOf(root: string, into: string): Copy {
  fs.cpSync(root, into, { recursive: true, verbatimSymlinks: true });
  const abs = (relative: string): string => path.join(into, ...relative.split('/'));
  return {
    root: into,
    path: abs,
    write(relative, content) {
      fs.mkdirSync(path.dirname(abs(relative)), { recursive: true });
      fs.writeFileSync(abs(relative), content);
    },
    read: (relative) => fs.readFileSync(abs(relative), 'utf8'),
    remove: (relative) => fs.rmSync(abs(relative), { recursive: true, force: true }),
  };
}

export interface Diagnosis {
  readonly json: Run;
  readonly report: Report;
  readonly text: Run;
}

/** `fw <command> --json` and `fw <command>` in `root`; the JSON parsed. */
export function diagnose(root: string, command: DiagnosticCommand, args: readonly string[] = []): Diagnosis {
  const json = fw(root, [command, '--json', ...args]);
  let report: Report;
  try {
    report = JSON.parse(json.stdout) as Report;
  } catch {
    throw new Error(`${command} --json n'a pas écrit de JSON (${json.status}) : ${json.stdout}\n${json.stderr}`);
  }
  return { json, report, text: fw(root, [command, ...args]) };
}

/** The results of `id` in a report. */
export function resultsOf(report: Report, id: string): ReportCheck[] {
  return report.checks.filter((check) => check.id === id);
}

/** One case of the corpus: a defect, the command, the id and status it must produce, the exit code. */
export interface CorpusCase {
  readonly name: string;
  readonly command: DiagnosticCommand;
  readonly defect: (copy: Copy) => void;
  readonly id: string;
  readonly status: 'OK' | 'WARN' | 'FAIL' | 'SKIP' | 'INFO';
  readonly exit: 0 | 1;
  /** Text the result's detail holds (a file name…). */
  readonly detail?: string | RegExp;
  /** Extra assertions on the result. */
  readonly more?: (check: ReportCheck, diagnosis: Diagnosis) => void;
}

/** Runs a case in a fresh copy of `base` and asserts it in JSON and in text. */
export function expectCase(base: string, scratch: string, item: CorpusCase): Diagnosis {
  const copy = copyOf(base, fs.mkdtempSync(path.join(scratch, 'case-')));
  item.defect(copy);
  const diagnosis = diagnose(copy.root, item.command);
  const { json, report, text } = diagnosis;
  assert.is(json.stderr, '', `${item.name}: nothing on stderr`);
  assert.is(json.status, item.exit, `${item.name}: exit code (--json)`);
  assert.is(text.status, item.exit, `${item.name}: exit code (text)`);
  assert.is(report.command, item.command);
  const found = resultsOf(report, item.id).find((check) => check.status === item.status);
  assert.ok(found, `${item.name}: ${item.id} ${item.status} in ${JSON.stringify(report.checks.filter((c) => c.status !== 'OK'))}`);
  if (item.detail !== undefined) {
    if (typeof item.detail === 'string') assert.ok(found!.detail.includes(item.detail), `${item.name}: detail « ${found!.detail} » holds « ${item.detail} »`);
    else assert.match(found!.detail, item.detail);
  }
  const tag = `  ${`[${item.status}]`.padEnd(7)}${item.id} ${found!.label}`;
  assert.ok(
    text.stdout.split('\n').some((line) => line.startsWith(tag)),
    `${item.name}: text line « ${tag} »`,
  );
  assert.ok(!/\n\s+at /.test(text.stdout + text.stderr), `${item.name}: no stack trace`);
  item.more?.(found!, diagnosis);
  return diagnosis;
}

/** The base project of a corpus file and a scratch folder for the copies; `cleanup()` removes both. */
export function corpusBase(name = 'Corpus'): { project: CliProject; scratch: string; cleanup(): Promise<void> } {
  const project = newProject(name);
  const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-diag-')));
  return {
    project,
    scratch,
    async cleanup() {
      fs.rmSync(scratch, { recursive: true, force: true });
      await project.cleanup();
    },
  };
}

/** Declares each case as a test of `suite`. */
export function corpusTests(
  define: (name: string, fn: (context: { base: ReturnType<typeof corpusBase> }) => void) => void,
  cases: readonly CorpusCase[],
): void {
  for (const item of cases)
    define(
      `${item.command}: ${item.name} → ${item.id} ${item.status}, exit ${item.exit}`,
      ({ base }) => void expectCase(base.project.root, base.scratch, item),
    );
}

/** True when this process can read a file whatever its mode (root): a chmod 000 file is then readable. */
export function readsEverything(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}
