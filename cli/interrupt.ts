/** Ctrl+C exits with 130 (docs/decisions.md#cli-errors-and-exit-codes). */
import { formatCliError } from './errors.js';

/**
 * Installs the SIGINT handler. Project files are written synchronously, so the handler never runs in the middle
 * of a write: a project is either complete or absent when fw stops.
 */
export function installInterruptHandler(): void {
  process.once('SIGINT', () => {
    process.stderr.write(`\n${formatCliError('opération interrompue.')}`);
    process.exit(130);
  });
}
