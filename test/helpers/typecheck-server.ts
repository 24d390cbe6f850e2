/**
 * The test run's type-checker: one long-lived process, started by `scripts/test.mjs` for the whole run, that runs
 * `tsc [--noEmit] -p <config>` for the test files with the repository's TypeScript, as `tsc` does, but parses and
 * binds each library declaration file (TypeScript's `lib.*.d.ts`, `@types/node`, kysely, the framework's own
 * `dist/**.d.ts`) once for the run instead of once per check, through TypeScript's own document registry, which
 * reuses a file only for the compiler settings it was parsed with and parses it again once it changes on disk. The
 * project's own files are read and parsed afresh on each check (docs/testing.md "How `tsc` runs in tests").
 *
 * `node typecheck-server.js <socket>` listens on a Unix socket; a request is one line of JSON `{ cwd, args }`, the
 * answer one line `{ status, stdout, stderr }`; `{ stats: true }` answers the process's CPU time and the checks run.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type ts from 'typescript';

export interface TypeCheckRequest {
  readonly cwd: string;
  readonly args: readonly string[];
}

export interface TypeCheckAnswer {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

// TypeScript loads with the first check: a run whose files check nothing does not pay for it.
let typescript: typeof ts | undefined;
let registry: ts.DocumentRegistry | undefined;
let checks = 0;

function api(): typeof ts {
  if (!typescript) throw new Error('TypeScript is not loaded');
  return typescript;
}

/** A file read from disk only when the registry needs its text (it does not for a file it has at this version). */
function lazySnapshot(fileName: string): ts.IScriptSnapshot {
  let text: string | undefined;
  const read = (): string => (text ??= fs.readFileSync(fileName, 'utf8'));
  return {
    getText: (start, end) => read().slice(start, end),
    getLength: () => read().length,
    getChangeRange: () => undefined,
  };
}

/** Library files: declaration files outside the project, those that are the same from one check to the next. */
function shared(fileName: string, projectDir: string): boolean {
  return fileName.endsWith('.d.ts') && !path.resolve(fileName).startsWith(projectDir + path.sep);
}

function createHost(options: ts.CompilerOptions, projectDir: string): ts.CompilerHost {
  const host = api().createCompilerHost(options);
  const parse = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
    if (shouldCreateNewSourceFile || !shared(fileName, projectDir)) return parse(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(fileName);
    } catch {
      return undefined;
    }
    const version = `${stat.mtimeMs}:${stat.size}`;
    registry ??= api().createDocumentRegistry();
    return registry.acquireDocument(fileName, options, lazySnapshot(fileName), version, undefined, languageVersionOrOptions);
  };
  return host;
}

/** What `tsc` prints on a pipe (not a terminal): one `file(line,col): error TSn: message` per diagnostic. */
function format(diagnostics: readonly ts.Diagnostic[], cwd: string): string {
  return api().formatDiagnostics(diagnostics, {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => cwd,
    getNewLine: () => '\n',
  });
}

/** `tsc` with the arguments the tests use: `-p <config>`, `--noEmit` and any other option tsc accepts. */
export function typeCheck(request: TypeCheckRequest): TypeCheckAnswer {
  checks++;
  const commandLine = api().parseCommandLine([...request.args]);
  if (commandLine.errors.length > 0) return { status: 1, stdout: format(commandLine.errors, request.cwd), stderr: '' };
  const project = path.resolve(request.cwd, commandLine.options.project ?? 'tsconfig.json');
  const configFile = fs.existsSync(project) && fs.statSync(project).isDirectory() ? path.join(project, 'tsconfig.json') : project;
  const configErrors: ts.Diagnostic[] = [];
  const parsed = api().getParsedCommandLineOfConfigFile(configFile, commandLine.options, {
    ...api().sys,
    getCurrentDirectory: () => request.cwd,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => configErrors.push(diagnostic),
  });
  if (!parsed) return { status: 1, stdout: format(configErrors, request.cwd), stderr: '' };
  const projectDir = path.dirname(configFile);
  const program = api().createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    host: createHost(parsed.options, projectDir),
    configFileParsingDiagnostics: api().getConfigFileParsingDiagnostics(parsed),
  });
  // As tsc's emitFilesAndReportErrors: the configuration's diagnostics, the syntactic ones; when there are none,
  // the options', the global and, still none, the semantic ones; then the emit's.
  const diagnostics: ts.Diagnostic[] = [...program.getConfigFileParsingDiagnostics()];
  const fromConfig = diagnostics.length;
  diagnostics.push(...program.getSyntacticDiagnostics());
  if (diagnostics.length === fromConfig) {
    diagnostics.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
    if (diagnostics.length === fromConfig) diagnostics.push(...program.getSemanticDiagnostics());
  }
  const emitted = program.emit();
  diagnostics.push(...emitted.diagnostics);
  const sorted = api().sortAndDeduplicateDiagnostics(diagnostics);
  // tsc's exit codes: 0 without diagnostics, 1 when the output was not written, 2 when it was written anyway.
  const status = sorted.length === 0 ? 0 : emitted.emitSkipped ? 1 : 2;
  return { status, stdout: format(sorted, request.cwd), stderr: '' };
}

/** The answer to one request: a check (TypeScript loaded first if need be), or the process's CPU time. */
async function answer(request: TypeCheckRequest | { stats: true }): Promise<unknown> {
  if ('stats' in request) {
    const used = process.cpuUsage();
    return { cpuMs: (used.user + used.system) / 1000, checks };
  }
  try {
    typescript ??= (await import('typescript')).default;
    return typeCheck(request);
  } catch (err) {
    return { status: 1, stdout: '', stderr: `Erreur du vérificateur de types des tests : ${(err as Error).stack ?? String(err)}\n` };
  }
}

function serve(socket: string): void {
  const server = net.createServer((connection) => {
    let buffered = '';
    connection.setEncoding('utf8');
    connection.on('data', (chunk: string) => {
      buffered += chunk;
      const end = buffered.indexOf('\n');
      if (end < 0) return;
      const request = JSON.parse(buffered.slice(0, end)) as TypeCheckRequest | { stats: true };
      void answer(request).then((reply) => connection.end(JSON.stringify(reply) + '\n'));
    });
  });
  fs.rmSync(socket, { force: true });
  server.listen(socket, () => process.stdout.write('prêt\n'));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) serve(process.argv[2]!);
