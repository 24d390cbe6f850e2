/** `fw db:init`: prepares the database, the application account and `fw_migrations` (see cli/db/init.ts). */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { credentialsFor, findProjectRoot, readDbSettings } from '../../db/connection.js';
import { initDatabase, type InitStep } from '../../db/init.js';

export function configure(command: Command): void {
  command.option(
    '--app-hosts <hôtes>',
    "hôtes d'où l'application se connecte, séparés par des virgules (défaut : DB_APP_ACCOUNT_HOSTS, sinon localhost et 127.0.0.1 pour un serveur local)",
  );
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = findProjectRoot();
  const settings = readDbSettings(root);
  const out = process.stdout;
  if (settings.driver === 'sqlite') {
    out.write(`db:init — SQLite ${settings.file}\n`);
  } else {
    const { credentials, envPrefix } = credentialsFor(settings, 'admin');
    out.write(`db:init — MariaDB ${credentials.host}:${credentials.port}, base ${settings.name}, compte ${credentials.user} (${envPrefix}_LOGIN)\n`);
  }
  const steps = await initDatabase(settings, typeof options.appHosts === 'string' ? { appHosts: options.appHosts } : {});
  out.write(formatSteps(steps));
  const changed = steps.filter((step) => step.fate === 'créé' || step.fate === 'accordé').length;
  out.write(changed === 0 ? 'Rien à faire : tout était déjà en place.\n' : `Terminé : ${changed} élément(s) créé(s) ou accordé(s).\n`);
  if (steps.some((step) => step.fate === 'en trop')) {
    process.stderr.write(
      "Attention : le compte applicatif a des droits ou des hôtes en plus de ceux que db:init accorde (lignes « en trop ») : une faille de l'application, ou un accès depuis un autre hôte, pourrait en profiter.\n" +
        'Conseil : lancez les REVOKE ou DROP USER indiqués avec le compte administrateur ; fw db:init ne retire jamais un droit ni un compte lui-même.\n',
    );
  }
  return 0;
}

/** One line per step: two spaces, the fate padded, the subject, ` — detail`. */
export function formatSteps(steps: readonly InitStep[]): string {
  const width = Math.max(...steps.map((step) => step.fate.length));
  return steps.map((step) => `  ${step.fate.padEnd(width)}  ${step.subject}${step.detail ? ` — ${step.detail}` : ''}\n`).join('');
}
