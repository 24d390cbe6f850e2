/**
 * One row of the table of `fw` commands (cli/commands-table.ts) and the help families the rows belong to. Each
 * folder of cli/commands/ lists its own rows in its table.ts.
 */
import type { CommandModule } from './command-module.js';

/** Help families, in the order the grouped help prints them (`fw help`). */
export const FAMILIES = [
  'Projet',
  'Entités',
  'Pages publiques',
  'Base de données',
  'Starters et modules',
  'Auth / Sécurité',
  'Mail',
  'Tâches de fond',
  'Médias et JavaScript',
  'Déploiement',
] as const;

export type Family = (typeof FAMILIES)[number];

export interface CommandEntry {
  /** The command name as typed after `fw`. */
  readonly name: string;
  readonly family: Family;
  /** Arguments and options after the name, as shown in the help. */
  readonly usage: string;
  /** One French line for the help. */
  readonly summary: string;
  /** A complete example, given as advice when a required argument is missing. */
  readonly example?: string;
  /** Imports the implementing module; absent while the command is not implemented. */
  readonly load?: () => Promise<CommandModule>;
}
