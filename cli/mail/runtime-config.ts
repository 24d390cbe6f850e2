/**
 * Puts a `mail:*` command's process in the state the project's server would be in for mail: `env/<APP_ENV>`
 * loaded, the runtime configured with the project's root, its name and environment, and the `mail_*` keys from the
 * MAIL_* variables (cli/mail/settings.ts), as the project's config.ts passes them.
 */
import { configure } from '../../runtime/config.js';
import { loadEnv } from '../../runtime/env.js';
import { CliError } from '../errors.js';
import { mailConfigKeys, readMailEnvironment, type MailEnvironment } from './settings.js';

/** Loads the environment and configures the runtime; returns what was read (problems included, not thrown). */
export function configureMailRuntime(root: string): MailEnvironment {
  try {
    loadEnv(root);
  } catch (error) {
    throw new CliError(`env/${process.env.APP_ENV || 'dev'} illisible : ${(error as Error).message}`, 'corrigez la ligne indiquée.');
  }
  const environment = readMailEnvironment(process.env);
  const appEnv = process.env.APP_ENV || 'dev';
  configure({
    project_root: root,
    app_name: process.env.APP_NAME || 'fw-mvc',
    app_env: appEnv,
    ...(mailConfigKeys(environment.settings) as Record<string, never>),
  });
  return environment;
}

/** A CliError naming the first configuration problem that would make sending fail, if any. */
export function refuseBrokenConfiguration(environment: MailEnvironment): void {
  const fatal = environment.problems.filter((problem) => problem.severity === 'FAIL');
  if (fatal.length === 0) return;
  throw new CliError(
    `configuration du mail invalide : ${fatal.map((problem) => problem.message).join(' ; ')}.`,
    `corrigez env/${process.env.APP_ENV || 'dev'} (docs/mail.md « Configuration ») ; « fw mail:doctor » vérifie chaque valeur.`,
  );
}
