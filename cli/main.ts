/**
 * Entry point of the `fw` command (bin/fw.js calls `runFw`). Kept light on purpose: help and version come
 * from the command table and package.json; commander and the command modules load only for the command that runs.
 * Importing this file runs nothing, so that a long-lived process (the tests' command runner) can run several
 * commands one after another.
 */
import { COMMANDS, findCommand } from './commands-table.js';
import { CliError, formatCliError, notAvailable } from './errors.js';
import { formatCommandHelp, formatHelp, formatHelpHelp } from './help.js';
import { installInterruptHandler } from './interrupt.js';
import { packageInfo } from './package-root.js';
import { nearest } from './suggest.js';

const HELP = new Set(['help', '--help', '-h']);
const VERSION = new Set(['--version', '-V', '-v']);
const LIST_ADVICE = 'lancez « fw help » pour la liste des commandes.';

/** Dispatches `argv` (the arguments after `fw`) and resolves to the process exit code. */
async function main(argv: readonly string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || HELP.has(first)) {
    if (first === 'help' && rest[0] !== undefined) return printCommandHelp(rest[0]);
    process.stdout.write(formatHelp(packageInfo().version));
    return 0;
  }
  if (VERSION.has(first)) {
    process.stdout.write(`${packageInfo().version}\n`);
    return 0;
  }
  const entry = findCommand(first);
  if (!entry) throw unknownCommand(first);
  if (wantsHelp(rest)) return printCommandHelp(first);
  if (!entry.load) throw notAvailable(first);
  const [module, { runCommand }] = await Promise.all([entry.load(), import('./run-command.js')]);
  return runCommand(entry, module, rest);
}

function printCommandHelp(name: string): number {
  if (HELP.has(name)) {
    // `fw help help` (or `fw help --help`): the help of help.
    process.stdout.write(formatHelpHelp());
    return 0;
  }
  const entry = findCommand(name);
  if (!entry) throw unknownCommand(name);
  process.stdout.write(formatCommandHelp(entry));
  return 0;
}

/** `--help` or `-h` anywhere before a `--` separator. */
function wantsHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => HELP.has(arg) && arg !== 'help');
}

function unknownCommand(name: string): CliError {
  if (name.startsWith('-')) return new CliError(`option inconnue « ${name} ».`, LIST_ADVICE);
  const suggestion = nearest(name, [...COMMANDS.map((entry) => entry.name), 'help']);
  return new CliError(`commande inconnue « ${name} ».`, suggestion ? `vouliez-vous dire « fw ${suggestion} » ? Sinon, ${LIST_ADVICE}` : LIST_ADVICE);
}

/** Prints an error as docs/decisions.md#cli-errors-and-exit-codes says; a stack trace only with FW_DEBUG=1. */
function report(error: unknown): number {
  if (error instanceof CliError) {
    process.stderr.write(formatCliError(error.message, error.advice));
    if (process.env.FW_DEBUG === '1' && error.stack) process.stderr.write(`${error.stack}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(formatCliError(message));
  if (process.env.FW_DEBUG === '1' && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  return 1;
}

/**
 * Runs `fw <argv>` and resolves to its exit code; an error is printed on stderr as `report` says. `interrupt`
 * installs the Ctrl+C handler (exit 130), which only the `fw` process itself wants.
 */
export async function runFw(argv: readonly string[], options: { readonly interrupt?: boolean } = {}): Promise<number> {
  if (options.interrupt) installInterruptHandler();
  return main(argv).catch(report);
}
