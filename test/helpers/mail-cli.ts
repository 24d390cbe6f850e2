/**
 * The `mail:*` commands' tests: a `fw new` project whose `env/dev` gets MAIL_* lines for a real SMTP server the
 * test started (test/helpers/smtp.ts), the test certificate written to a file the child process trusts through
 * NODE_EXTRA_CA_CERTS, and a hash of the whole tree (modes and modification times included) to prove a command
 * wrote nothing.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childEnv, FW, type CliProject, type Run } from './cli.js';
import { testCertificate } from './smtp.js';

let caFile: string | undefined;

/** The environment a child needs to trust the test server's certificate. */
export function trustTestCertificate(): Record<string, string> {
  if (!caFile) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-mail-ca-'));
    caFile = path.join(dir, 'ca.pem');
    fs.writeFileSync(caFile, testCertificate().cert);
    process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return { NODE_EXTRA_CA_CERTS: caFile };
}

/** Replaces the MAIL_* lines of the project's env/dev with `values` (other lines kept). */
export function setMailEnv(project: CliProject, values: Record<string, string | number | boolean>): void {
  const kept = project
    .read('env/dev')
    .split('\n')
    .filter((line) => !line.startsWith('MAIL_'));
  const lines = Object.entries(values).map(([key, value]) => `${key}=${String(value)}`);
  project.write('env/dev', `${kept.join('\n').trimEnd()}\n\n${lines.join('\n')}\n`);
}

/** Every entry under `root`: path, kind, mode, size, mtime, and the content's hash (files) or the link's target. */
export function treeState(root: string): string[] {
  const out: string[] = [];
  const walk = (relative: string): void => {
    const full = path.join(root, relative);
    const stat = fs.lstatSync(full);
    const base = `${relative || '.'} ${stat.mode.toString(8)} ${stat.mtimeMs} ${stat.size}`;
    if (stat.isSymbolicLink()) out.push(`${base} -> ${fs.readlinkSync(full)}`);
    else if (stat.isDirectory()) {
      out.push(`${base} dir`);
      for (const name of fs.readdirSync(full).sort()) walk(relative ? `${relative}/${name}` : name);
    } else out.push(`${base} ${createHash('sha256').update(fs.readFileSync(full)).digest('hex')}`);
  };
  walk('');
  return out;
}

/**
 * `fw <args>` in `cwd` without blocking the test process: the SMTP server the command talks to runs in this
 * process, so a synchronous spawn would stop it from answering.
 */
export function fwAsync(cwd: string, args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<Run & { readonly ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FW, ...args], { cwd, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, ms: Date.now() - started });
    });
  });
}
