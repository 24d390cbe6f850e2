/** The grouped help printed by `fw`, `fw help`, `fw --help` and `fw -h` (the command table, cli/commands-table.ts). */
import { COMMANDS, FAMILIES, type CommandEntry } from './commands-table.js';

/** `fw <name> <usage>`, without a trailing space when the command takes nothing. */
export function usageLine(entry: CommandEntry): string {
  return `fw ${entry.name}${entry.usage ? ` ${entry.usage}` : ''}`;
}

/** The whole grouped help: every family in order, every command of the table with its usage and summary. */
export function formatHelp(version: string): string {
  const lines = [`fw ${version} — générateur d'applications MVC rendues côté serveur (fw-mvc)`, '', 'Usage : fw <commande> [arguments] [options]'];
  for (const family of FAMILIES) {
    lines.push('', family);
    for (const entry of COMMANDS) {
      if (entry.family !== family) continue;
      lines.push(`  ${usageLine(entry)}`, `      ${entry.summary}`);
    }
  }
  lines.push(
    '',
    'Options générales',
    '  fw --help, fw -h, fw help   affiche cette aide',
    '  fw --version                affiche la version',
    "  fw help <commande>          affiche l'aide d'une commande (ou : fw <commande> --help)",
    '',
  );
  return lines.join('\n');
}

/** `fw help help`: the help of `help` itself, which is not in the command table. */
export function formatHelpHelp(): string {
  return [
    'Usage : fw help [<commande>]',
    '',
    "Sans argument, affiche la liste des commandes ; avec un nom de commande, affiche l'aide de cette commande (comme « fw <commande> --help »).",
    '',
    'Exemple : fw help make:crud',
    '',
  ].join('\n');
}

/** The help of one command: its usage and summary. */
export function formatCommandHelp(entry: CommandEntry): string {
  const lines = [`Usage : ${usageLine(entry)}`, '', entry.summary];
  if (entry.example) lines.push('', `Exemple : ${entry.example}`);
  lines.push('');
  return lines.join('\n');
}
