/**
 * The new password of `auth:user:create` and `auth:user:password` (docs/decisions.md#passwords-given-to-the-cli): `--password <value>` (works, and
 * warns that the value is visible in the process list) or `--password-prompt`, typed twice without echo on a
 * terminal, or read as two lines of standard input when it is not one (scripts, tests). The policy (8 to 1024
 * characters) is the runtime's; the value never appears in any output.
 */
import readline from 'node:readline';
import type { Command } from 'commander';
import { CliError } from '../errors.js';

/** Declares `--password` and `--password-prompt`. */
export function passwordOptions(command: Command): Command {
  return command
    .option('--password <valeur>', 'le mot de passe (visible dans la liste des processus : préférez --password-prompt)')
    .option('--password-prompt', "saisie masquée, deux fois (ou deux lignes sur l'entrée standard)");
}

export type PasswordSource = { readonly kind: 'value'; readonly value: string } | { readonly kind: 'prompt' };

/** Which source the options give; a CliError for both or neither. Reads nothing yet. */
export function readPasswordSource(options: Readonly<Record<string, unknown>>, commandName: string, example: string): PasswordSource {
  const value = options.password as string | undefined;
  const prompt = options.passwordPrompt === true;
  if (value !== undefined && prompt) {
    throw new CliError(
      `--password et --password-prompt ne vont pas ensemble pour « fw ${commandName} ».`,
      `gardez --password-prompt (saisie masquée), par exemple « ${example} ».`,
    );
  }
  if (value === undefined && !prompt) {
    throw new CliError(
      `« fw ${commandName} » attend le mot de passe : --password-prompt ou --password <valeur>.`,
      `par exemple « ${example} » (saisie masquée, deux fois).`,
    );
  }
  return value === undefined ? { kind: 'prompt' } : { kind: 'value', value };
}

/** The policy's refusal as an error message (its first letter lower-cased to follow `Erreur : `). */
function policyError(reason: string): CliError {
  const text = reason.trim();
  return new CliError(`${text.charAt(0).toLowerCase()}${text.slice(1)}`, 'choisissez un mot de passe de 8 à 1024 caractères et relancez la commande.');
}

/** Checks the policy of a value given with --password before anything is written; warns that it was visible. */
export async function checkGivenPassword(source: PasswordSource): Promise<void> {
  if (source.kind !== 'value') return;
  const { checkPasswordPolicy } = await import('../../runtime/auth/passwords.js');
  const refusal = checkPasswordPolicy(source.value);
  if (refusal) throw policyError(refusal);
  process.stderr.write(
    "Attention : un mot de passe passé par --password est visible dans la liste des processus et peut rester dans l'historique du shell.\n" +
      'Conseil : préférez --password-prompt (saisie masquée).\n',
  );
}

/** The password itself: the value given, or read twice (which must match); then checked against the policy. */
export async function obtainPassword(source: PasswordSource): Promise<string> {
  const password = source.kind === 'value' ? source.value : await promptTwice();
  const { checkPasswordPolicy } = await import('../../runtime/auth/passwords.js');
  const refusal = checkPasswordPolicy(password);
  if (refusal) throw policyError(refusal);
  return password;
}

async function promptTwice(): Promise<string> {
  const input = process.stdin;
  if (input.isTTY) {
    const first = await readHidden('Mot de passe : ');
    const second = await readHidden('Confirmez le mot de passe : ');
    return same(first, second);
  }
  const lines = await readLines(input, 2);
  if (lines.length < 2) {
    throw new CliError(
      "l'entrée standard s'est terminée avant le mot de passe et sa confirmation (deux lignes attendues).",
      'lancez la commande dans un terminal, ou envoyez deux lignes identiques sur son entrée standard.',
    );
  }
  return same(lines[0]!, lines[1]!);
}

function same(first: string, second: string): string {
  if (first !== second)
    throw new CliError("les deux saisies du mot de passe diffèrent ; rien n'a été écrit.", 'relancez la commande et tapez deux fois le même mot de passe.');
  return first;
}

/** The first `count` lines of a stream that is not a terminal (fewer when it ends before); CR LF accepted. */
function readLines(input: NodeJS.ReadStream, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const lines: string[] = [];
    const reader = readline.createInterface({ input, terminal: false, crlfDelay: Infinity });
    let settled = false;
    const finish = (): void => {
      if (settled) return;
      settled = true;
      reader.close();
      input.pause();
      resolve(lines);
    };
    reader.on('line', (line) => {
      lines.push(line);
      if (lines.length === count) finish();
    });
    reader.on('close', finish);
    input.once('error', (error) => {
      if (!settled) {
        settled = true;
        reject(error);
      }
    });
  });
}

/**
 * One line typed on the terminal without echo (raw mode): Enter ends it, Backspace erases, Ctrl+C stops the
 * command (exit 130), Ctrl+D ends the line; escape sequences (arrows…) and other control characters are ignored.
 */
function readHidden(question: string): Promise<string> {
  const input = process.stdin;
  const output = process.stderr;
  // Echo off before the question shows: what is typed after it is never displayed.
  input.setRawMode(true);
  input.setEncoding('utf8');
  input.resume();
  output.write(question);
  return new Promise((resolve, reject) => {
    let chars: string[] = [];
    const done = (): void => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
    };
    const onData = (chunk: string): void => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') {
          done();
          resolve(chars.join(''));
          return;
        }
        if (char === '\u0003') {
          done();
          chars = [];
          reject(new CliError('opération interrompue.', undefined, 130));
          return;
        }
        // An escape sequence (arrow keys…) arrives in one chunk: the rest of it is not part of the password.
        if (char === '\u001b') break;
        if (char === '\u007f' || char === '\b') chars.pop();
        else if (char >= ' ') chars.push(char);
      }
    };
    input.on('data', onData);
  });
}
