/**
 * FW-SEC-001: the environment files with real values (`env/dev`, `env/prod`, and `env/<APP_ENV>` for another
 * environment) stay out of git. Git's index is read by `git ls-files` and `git check-ignore` (never `git status`,
 * which may rewrite the index), with optional locks off, the repository's fsmonitor hook disabled (it is a program
 * the repository's configuration names: project code) and a time limit. Nothing is written.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { result, type CheckDefinition, type CheckResult } from './check.js';
import type { ProjectContext } from './context.js';

/** How long one git command may take. */
const GIT_TIMEOUT_MS = 5000;

interface GitRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Why git did not run to its end (absent, timed out), when it did not. */
  readonly failure?: string;
}

/** This process's environment without the variables that point git at another repository, optional locks off. */
function gitEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_CEILING_DIRECTORIES', 'GIT_NAMESPACE'].includes(key)) env[key] = value;
  }
  return { ...env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' };
}

/** `git <args>` in `cwd`, bounded in time; never throws. */
function git(cwd: string, args: readonly string[]): Promise<GitRun> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-c', 'core.fsmonitor=false', ...args],
      { cwd, env: gitEnvironment(), timeout: GIT_TIMEOUT_MS, maxBuffer: 1024 * 1024, windowsHide: true },
      (error, stdout, stderr) => {
        if (!error) return resolve({ code: 0, stdout, stderr });
        const failure = error as NodeJS.ErrnoException & { killed?: boolean; code?: number | string };
        if (failure.code === 'ENOENT') return resolve({ code: -1, stdout, stderr, failure: 'git est introuvable sur cette machine' });
        if (failure.killed) return resolve({ code: -1, stdout, stderr, failure: `git n'a pas répondu en ${GIT_TIMEOUT_MS / 1000} s` });
        resolve({ code: typeof failure.code === 'number' ? failure.code : -1, stdout, stderr });
      },
    );
  });
}

/** The first line of git's error output, without its `fatal: ` prefix. */
function gitMessage(run: GitRun): string {
  const line = run.stderr.split('\n').find((text) => text.trim() !== '') ?? `code ${run.code}`;
  return line.replace(/^(fatal|error): /, '').trim();
}

/** env/dev, env/prod and env/<APP_ENV>: the files that hold real values (a name git would read as a pattern is left out). */
export function environmentFiles(appEnv: string): string[] {
  const names = ['dev', 'prod'];
  if (/^[\w.-]+$/.test(appEnv) && !names.includes(appEnv) && appEnv !== 'example') names.push(appEnv);
  return names.map((name) => `env/${name}`);
}

/** The FW-SEC-001 result: FAIL when one is tracked, WARN when one exists and `git add .` would take it, else OK. */
export async function gitEnvironmentCheck(definition: CheckDefinition, context: ProjectContext): Promise<CheckResult> {
  const files = environmentFiles(context.appEnv);
  const inside = await git(context.root, ['rev-parse', '--is-inside-work-tree']);
  if (inside.failure) return result(definition, 'SKIP', inside.failure);
  if (inside.code !== 0 || inside.stdout.trim() !== 'true') {
    const message = gitMessage(inside);
    return /not a git repository/i.test(message)
      ? result(definition, 'SKIP', "le projet n'est pas dans un dépôt git")
      : result(definition, 'SKIP', `git ne lit pas ce dépôt (${message})`);
  }
  const tracked = await git(context.root, ['ls-files', '-z', '--cached', '--', ...files]);
  if (tracked.failure || tracked.code !== 0) return result(definition, 'SKIP', `git ls-files a échoué (${tracked.failure ?? gitMessage(tracked)})`);
  const trackedFiles = files.filter((file) => tracked.stdout.split('\0').includes(file));
  if (trackedFiles.length > 0) {
    return {
      ...result(
        definition,
        'FAIL',
        `${trackedFiles.join(', ')} ${trackedFiles.length > 1 ? 'sont versionnés' : 'est versionné'} : ses secrets sont dans l'historique du dépôt`,
        `« git rm --cached ${trackedFiles.join(' ')} », gardez « env/dev » et « env/prod » dans .gitignore, puis changez les secrets qui y figuraient`,
      ),
      file: trackedFiles[0]!,
    };
  }
  const present = files.filter((file) => fs.existsSync(path.join(context.root, file)));
  if (present.length === 0) return result(definition, 'OK', `${files.join(', ')} : ni versionnés ni présents`);
  const ignored = await git(context.root, ['check-ignore', '--', ...present]);
  if (ignored.failure || ignored.code > 1) return result(definition, 'SKIP', `git check-ignore a échoué (${ignored.failure ?? gitMessage(ignored)})`);
  const exposed = present.filter((file) => !ignored.stdout.split('\n').includes(file));
  if (exposed.length > 0) {
    return {
      ...result(
        definition,
        'WARN',
        `${exposed.join(', ')} ${exposed.length > 1 ? 'ne sont pas ignorés' : "n'est pas ignoré"} par git : « git add . » ${exposed.length > 1 ? 'les versionnerait' : 'le versionnerait'}`,
        'ajoutez « env/dev » et « env/prod » à .gitignore',
      ),
      file: exposed[0]!,
    };
  }
  return result(definition, 'OK', `${present.join(', ')} : ignoré(s) par git, non versionné(s)`);
}
