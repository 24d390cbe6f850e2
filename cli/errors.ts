/** CLI dispatch errors (docs/decisions.md#cli-errors-and-exit-codes): printed as `Erreur : <message>` and optionally `Conseil : <advice>`. */

/** A user error: the dispatcher prints it without a stack trace and exits with `exitCode` (1 by default). */
export class CliError extends Error {
  override readonly name = 'CliError';

  constructor(
    message: string,
    readonly advice?: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** Formats the two stderr lines of a dispatch error (the trailing newline included). */
export function formatCliError(message: string, advice?: string): string {
  return `Erreur : ${message}\n` + (advice ? `Conseil : ${advice}\n` : '');
}

/** The error for `--opt` given without its value; commands use it too when the "value" is another option. */
export function missingOptionValue(commandName: string, flag: string, advice: string): CliError {
  return new CliError(`l'option « ${flag} » de « fw ${commandName} » attend une valeur.`, advice);
}

/** A command that this version lists in the help but does not implement yet. */
export function notAvailable(commandName: string): CliError {
  return new CliError(`la commande « ${commandName} » n'est pas encore disponible dans cette version.`);
}
